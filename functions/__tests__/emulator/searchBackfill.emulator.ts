// The search backfill on the real Firestore emulator: messages written before the message triggers kept the search
// index (seeded here through the Admin SDK, no trigger run) are indexed by an admin's backfill_search_index, a page
// at a time until it answers no next page; each entry is the one the triggers write (none for a deleted or
// file-only message, and a stale one removed); a second run writes the same; search_messages then finds the old
// words. Anyone else is refused and nothing is written; a resume point that is no message path is refused.
import { Timestamp } from 'firebase-admin/firestore';
import { searchTokens } from '../../../core/search';
import type { Client, EmulatorBackend } from './support/emulators';
import { call, clearEmulators, emulatorBackend, refusal, signedIn } from './support/emulators';

const PASSWORD = 'backfill-password-1';
const CHANNELS = ['ChannelBackfill00001', 'ChannelBackfill00002'];
const OLD = [
  { channel: 0, id: 'OldMessage0000000001', text: 'The quarterly forecast is ready' },
  { channel: 0, id: 'OldMessage0000000002', text: 'Thanks, reading it now' },
  { channel: 0, id: 'OldMessage0000000003', text: 'A deleted secret', deleted: true },
  { channel: 0, id: 'OldMessage0000000004', text: '' },
  { channel: 1, id: 'OldMessage0000000005', text: 'Forecast for the other client' },
  { channel: 1, id: 'OldMessage0000000006', text: 'Invoice attached' },
  { channel: 1, id: 'OldMessage0000000007', text: 'See you Tuesday' },
];

let backend: EmulatorBackend;
let admin: Client;
let member: Client;

beforeAll(() => {
  backend = emulatorBackend();
});

afterAll(async () => {
  await Promise.all([admin?.close(), member?.close()]);
  await backend.close();
});

beforeEach(async () => {
  await clearEmulators();
  const { db, auth } = backend.admin;
  const adminAccount = await auth.createUser({ email: 'admin@qupm.test', password: PASSWORD });
  await auth.setCustomUserClaims(adminAccount.uid, { isAdmin: true });
  const memberAccount = await auth.createUser({ email: 'morgan@qupm.test', password: PASSWORD });
  const start = Date.UTC(2026, 0, 10);
  await Promise.all([
    ...CHANNELS.map((id, i) =>
      db.doc(`channels/${id}`).set({
        channelId: `backfill-${i}`,
        ownerId: adminAccount.uid,
        title: `Backfill ${i}`,
        description: '',
        members: [memberAccount.uid],
        createdAt: Timestamp.fromMillis(start),
      }),
    ),
    ...OLD.map((message, i) =>
      db.doc(`channels/${CHANNELS[message.channel]}/messages/${message.id}`).set({
        senderId: memberAccount.uid,
        senderName: 'Morgan',
        text: message.text,
        createdAt: Timestamp.fromMillis(start + i * 1000),
        ...(message.deleted ? { deleted: true } : {}),
      }),
    ),
    // A stale entry of the message deleted since, as an index from before its deletion would hold.
    db.doc(`messageSearch/${CHANNELS[0]}_OldMessage0000000003`).set({
      channelId: CHANNELS[0],
      messageId: 'OldMessage0000000003',
      createdAt: start + 2000,
      tokens: searchTokens('A deleted secret'),
    }),
  ]);
  admin = await signedIn('admin@qupm.test', PASSWORD);
  member = await signedIn('morgan@qupm.test', PASSWORD);
});

/** The index as stored: each entry's id and its fields. */
async function index(): Promise<Record<string, unknown>> {
  const { docs } = await backend.admin.db.collection('messageSearch').get();
  return Object.fromEntries(docs.map((doc) => [doc.id, doc.data()]));
}

/** Runs the backfill to its end, `limit` messages a step; answers the steps' answers. */
async function backfill(
  limit: number,
): Promise<Array<{ indexed: number; removed: number; next: string | null }>> {
  const steps: Array<{ indexed: number; removed: number; next: string | null }> = [];
  let after: string | undefined;
  do {
    const step = (await call(backend, 'backfill_search_index', admin, { after, limit })) as {
      indexed: number;
      removed: number;
      next: string | null;
    };
    steps.push(step);
    after = step.next ?? undefined;
  } while (after !== undefined && steps.length < 20);
  return steps;
}

it('indexes every old message a page at a time, as the triggers would, and a second run writes the same', async () => {
  const steps = await backfill(3);
  expect(steps.length).toBe(3);
  expect(steps.at(-1)?.next).toBeNull();
  expect(steps.reduce((sum, s) => sum + s.indexed, 0)).toBe(5);
  expect(steps.reduce((sum, s) => sum + s.removed, 0)).toBe(2);
  const first = await index();
  const expected = Object.fromEntries(
    OLD.filter((m) => !m.deleted && m.text !== '').map((m) => [
      `${CHANNELS[m.channel]}_${m.id}`,
      {
        channelId: CHANNELS[m.channel],
        messageId: m.id,
        createdAt: Date.UTC(2026, 0, 10) + OLD.indexOf(m) * 1000,
        tokens: searchTokens(m.text),
      },
    ]),
  );
  expect(first).toEqual(expected);
  await backfill(200);
  expect(await index()).toEqual(first);
});

it('lets the member find an old message with search_messages once it has run', async () => {
  const before = (await call(backend, 'search_messages', member, { text: 'quarterly' })) as {
    hits: unknown[];
  };
  expect(before.hits).toEqual([]);
  await backfill(200);
  const after = (await call(backend, 'search_messages', member, { text: 'quarterly' })) as {
    hits: Array<{ id: string }>;
  };
  expect(after.hits.map((hit) => hit.id)).toEqual(['OldMessage0000000001']);
});

it('refuses anyone but an admin, and a resume point that is no message, writing nothing', async () => {
  const stale = await index();
  await expect(refusal(call(backend, 'backfill_search_index', member, {}))).resolves.toMatchObject({
    code: 'permission-denied',
  });
  await expect(refusal(call(backend, 'backfill_search_index', null, {}))).resolves.toMatchObject({
    code: 'unauthenticated',
  });
  await expect(
    refusal(call(backend, 'backfill_search_index', admin, { after: 'users/x/../../secrets' })),
  ).resolves.toMatchObject({ code: 'invalid-argument' });
  await expect(
    refusal(call(backend, 'backfill_search_index', admin, { limit: 10_000 })),
  ).resolves.toMatchObject({
    code: 'invalid-argument',
  });
  expect(await index()).toEqual(stale);
});
