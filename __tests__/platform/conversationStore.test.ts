// The device's copy of the outbox, drafts and read marks, on an in-memory IndexedDB (fake-indexeddb: the
// browser edge, faked; the idb library and this module run for real).
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import { CONVERSATION_DB_NAME, createConversationStore } from '@/platform/conversationStore';
import type { StoredOutboxEntry } from '@/platform/conversationStore';

const UID = 'uidMember00000000001';
const OTHER_UID = 'uidOther000000000001';
const CHANNEL = 'ChannelStore00000001';
const entry = (n: number, overrides: Partial<StoredOutboxEntry> = {}): StoredOutboxEntry => ({
  id: `Out${String(n).padStart(17, '0')}`,
  uid: UID,
  channelId: CHANNEL,
  text: `message ${n}`,
  createdAt: 1_000 + n,
  status: 'pending',
  error: null,
  ...overrides,
});

beforeEach(() => {
  // A fresh database for every test.
  globalThis.indexedDB = new IDBFactory();
});

describe('createConversationStore', () => {
  it('keeps unsent messages, drafts and read marks per account, the outbox in the order written', async () => {
    const store = createConversationStore();
    await store.putOutbox(entry(2));
    await store.putOutbox(entry(1));
    await store.putOutbox(entry(3, { uid: OTHER_UID }));
    await store.putDraft({ uid: UID, channelId: CHANNEL, text: 'half a thought' });
    await store.putReadMark({
      uid: UID,
      channelId: CHANNEL,
      messageId: 'MsgRead0000000000001',
      createdAt: 5,
    });
    const restored = await createConversationStore().load(UID);
    expect(restored.outbox.map((e) => e.id)).toEqual([entry(1).id, entry(2).id]);
    expect(restored.drafts).toEqual([{ uid: UID, channelId: CHANNEL, text: 'half a thought' }]);
    expect(restored.readMarks).toEqual([
      { uid: UID, channelId: CHANNEL, messageId: 'MsgRead0000000000001', createdAt: 5 },
    ]);
    expect(restored.dropped).toBe(0);
  });

  it('forgets a sent message, an emptied draft, and a read mark only if it is still the one sent', async () => {
    const store = createConversationStore();
    await store.putOutbox(entry(1));
    await store.deleteOutbox(entry(1).id);
    await store.putDraft({ uid: UID, channelId: CHANNEL, text: 'x' });
    await store.putDraft({ uid: UID, channelId: CHANNEL, text: '' });
    await store.putReadMark({
      uid: UID,
      channelId: CHANNEL,
      messageId: 'MsgNewer000000000001',
      createdAt: 9,
    });
    await store.deleteReadMark(UID, CHANNEL, 'MsgOlder000000000001');
    const restored = await store.load(UID);
    expect(restored.outbox).toEqual([]);
    expect(restored.drafts).toEqual([]);
    expect(restored.readMarks.map((m) => m.messageId)).toEqual(['MsgNewer000000000001']);
  });

  it('drops (and deletes) an entry that is not of the shape it writes, and counts it, without failing', async () => {
    const store = createConversationStore();
    await store.putOutbox(entry(1));
    const db = await openDB(CONVERSATION_DB_NAME);
    await db.put('outbox', { id: 'Broken00000000000001', uid: UID, channelId: CHANNEL, text: 42 });
    await db.put('outbox', {
      id: 'Broken00000000000002',
      uid: UID,
      channelId: '../x',
      text: 'hi',
      createdAt: 1,
      status: 'pending',
      error: null,
    });
    await db.put('drafts', { uid: UID, channelId: CHANNEL, text: { nested: true } });
    db.close();
    const restored = await store.load(UID);
    expect(restored.outbox.map((e) => e.id)).toEqual([entry(1).id]);
    expect(restored.drafts).toEqual([]);
    expect(restored.dropped).toBe(3);
    expect((await store.load(UID)).dropped).toBe(0);
  });

  it('keeps an unsent message with several files, and reads one kept with a single file as a list of one', async () => {
    const file = (n: number) => ({
      id: `File${String(n).padStart(16, '0')}`,
      kind: 'image' as const,
      name: `p${n}.png`,
      contentType: 'image/png' as const,
      size: 10,
      width: 2,
      height: 2,
    });
    const store = createConversationStore();
    await store.putOutbox(entry(1, { text: '', attachments: [file(1), file(2), file(3)] }));
    const db = await openDB(CONVERSATION_DB_NAME);
    // As the outbox wrote it before messages carried several files.
    await db.put('outbox', { ...entry(2), text: '', attachment: file(4) });
    await db.put('outbox', { ...entry(3), attachments: Array.from({ length: 11 }, (_, i) => file(10 + i)) });
    db.close();
    const restored = await store.load(UID);
    expect(restored.outbox.map((e) => e.attachments?.map((f) => f.name))).toEqual([
      ['p1.png', 'p2.png', 'p3.png'],
      ['p4.png'],
    ]);
    expect(restored.outbox[1]).not.toHaveProperty('attachment');
    expect(restored.dropped).toBe(1);
  });

  it('forgets everything of one account at sign-out, and nothing of another', async () => {
    const store = createConversationStore();
    await store.putOutbox(entry(1));
    await store.putOutbox(entry(2, { uid: OTHER_UID }));
    await store.putDraft({ uid: UID, channelId: CHANNEL, text: 'mine' });
    await store.clear(UID);
    expect((await store.load(UID)).outbox).toEqual([]);
    expect((await store.load(UID)).drafts).toEqual([]);
    expect((await store.load(OTHER_UID)).outbox.map((e) => e.id)).toEqual([entry(2).id]);
  });

  it('answers as an empty store when IndexedDB is not there, and never throws', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const saved = globalThis.indexedDB;
    // @ts-expect-error -- a browser without IndexedDB (blocked, or a private window that refuses it)
    delete globalThis.indexedDB;
    try {
      const store = createConversationStore();
      await expect(store.putOutbox(entry(1))).resolves.toBeUndefined();
      await expect(store.load(UID)).resolves.toEqual({ outbox: [], drafts: [], readMarks: [], dropped: 0 });
      expect(warn).toHaveBeenCalled();
    } finally {
      globalThis.indexedDB = saved;
    }
  });
});
