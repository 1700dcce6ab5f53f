// The device's last known state, on an in-memory IndexedDB (fake-indexeddb: the browser edge, faked; the idb
// library, zod and this module run for real).
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import {
  LAST_KNOWN_DB_NAME,
  LAST_KNOWN_PAGE_MESSAGES,
  createLastKnownStore,
  pagesOverCap,
} from '@/platform/lastKnownStore';
import type { KnownAccount } from '@/platform/lastKnownStore';
import type { ChannelOverview, ChatMessage } from '@core/model';

const UID = 'uidMember00000000001';
const OTHER = 'uidOther000000000001';
const CHANNEL = 'ChannelStore00000001';

const account: KnownAccount = {
  isConsultant: false,
  effectiveConId: 'uidConsultant0000001',
  isAdmin: false,
  nickname: 'Morgan',
  credits: 3,
  passCount: 1,
  userDocExists: true,
  notificationSettings: { enabled: true, delivery: { channels: ['push'] } },
};

const message = (n: number, channelId = CHANNEL): ChatMessage => ({
  id: `Msg${String(n).padStart(17, '0')}`,
  channelId,
  senderId: UID,
  senderName: 'Morgan',
  text: `message ${n}`,
  createdAt: 1_000 + n,
});

const overview: ChannelOverview = {
  channel: {
    id: CHANNEL,
    channelId: 'strategy-studio',
    ownerId: 'uidConsultant0000001',
    title: 'Strategy Studio',
    description: '',
    members: [UID],
    createdAt: 5,
  },
  lastMessage: message(1),
  unread: 2,
};

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

describe('createLastKnownStore', () => {
  it('gives back what was kept for the account, as it was written', async () => {
    const store = createLastKnownStore();
    await store.putAccount({ uid: UID, savedAt: 42, account, channels: [overview], offers: [] });
    await store.putPage({ uid: UID, channelId: CHANNEL, savedAt: 43, messages: [message(1), message(2)] });
    const kept = await createLastKnownStore().load(UID);
    expect(kept.account).toEqual({
      format: 1,
      uid: UID,
      savedAt: 42,
      account,
      channels: [overview],
      offers: [],
    });
    expect(kept.pages).toEqual([
      { format: 1, uid: UID, channelId: CHANNEL, savedAt: 43, messages: [message(1), message(2)] },
    ]);
  });

  it("never hands one person's state to another, and forgets the other's when someone else loads", async () => {
    const store = createLastKnownStore();
    await store.putAccount({ uid: OTHER, savedAt: 1, account, channels: [overview], offers: null });
    await store.putPage({ uid: OTHER, channelId: CHANNEL, savedAt: 1, messages: [message(1)] });
    expect(await store.load(UID)).toEqual({ account: null, pages: [] });
    // A shared device keeps one person's state at a time: the other's is gone.
    expect(await store.load(OTHER)).toEqual({ account: null, pages: [] });
  });

  it('discards a damaged or old-format record without an error', async () => {
    const store = createLastKnownStore();
    await store.putAccount({ uid: UID, savedAt: 1, account, channels: null, offers: null });
    const db = await openDB(LAST_KNOWN_DB_NAME);
    await db.put('accounts', { format: 0, uid: UID, credits: 'lots' }, UID);
    await db.put('pages', { format: 1, uid: UID, channelId: CHANNEL, savedAt: 1, messages: [{ id: 5 }] });
    db.close();
    expect(await store.load(UID)).toEqual({ account: null, pages: [] });
    const after = await openDB(LAST_KNOWN_DB_NAME);
    expect(await after.getAll('accounts')).toEqual([]);
    expect(await after.getAll('pages')).toEqual([]);
    after.close();
  });

  it('keeps two pages of a channel, and drops the oldest channels first past the caps', async () => {
    const store = createLastKnownStore();
    const many = Array.from({ length: LAST_KNOWN_PAGE_MESSAGES + 5 }, (_, i) => message(i));
    await store.putPage({ uid: UID, channelId: CHANNEL, savedAt: 1, messages: many });
    const [page] = (await store.load(UID)).pages;
    expect(page?.messages).toEqual(many.slice(-LAST_KNOWN_PAGE_MESSAGES));

    const pages = ['ChannelA000000000001', 'ChannelB000000000001', 'ChannelC000000000001'].map((id, i) => ({
      channelId: id,
      savedAt: 10 + i,
      messages: [message(i, id)],
    }));
    const one = JSON.stringify(pages[0]?.messages).length;
    // Room for two pages: the one written longest ago goes.
    expect(pagesOverCap(pages, 2 * one + 1)).toEqual(['ChannelA000000000001']);
    expect(pagesOverCap(pages, 10 * one, 1)).toEqual(['ChannelB000000000001', 'ChannelA000000000001']);
    expect(pagesOverCap(pages)).toEqual([]);
  });

  it('forgets everything at sign-out', async () => {
    const store = createLastKnownStore();
    await store.putAccount({ uid: UID, savedAt: 1, account, channels: null, offers: null });
    await store.putPage({ uid: UID, channelId: CHANNEL, savedAt: 1, messages: [message(1)] });
    await store.clear();
    const db = await openDB(LAST_KNOWN_DB_NAME);
    expect(await db.count('accounts')).toBe(0);
    expect(await db.count('pages')).toBe(0);
    db.close();
  });

  it('answers as an empty store without IndexedDB', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    // @ts-expect-error -- a browser that refuses IndexedDB
    delete globalThis.indexedDB;
    const store = createLastKnownStore();
    await store.putAccount({ uid: UID, savedAt: 1, account, channels: null, offers: null });
    expect(await store.load(UID)).toEqual({ account: null, pages: [] });
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
