// A burst of messages in one channel on the real Firestore emulator: every message's trigger raises the same
// recipients' pending counts at once, as Cloud Functions runs them side by side. Each message must count once
// for each recipient and reach each of them by push, none lost to the others running at the same time.
import { Timestamp } from 'firebase-admin/firestore';
import type { RecordingPushSender } from '../support/functionsTest';
import { functionsTest } from '../support/functionsTest';
import type { EmulatorBackend } from './support/emulators';
import { clearEmulators, emulatorBackend } from './support/emulators';

const CHANNEL = 'ChannelBurst00000001';
const SENDER = 'SenderBurst000000001';
const RECIPIENTS = ['RecipientBurst000001', 'RecipientBurst000002', 'RecipientBurst000003'];
/** About what a lively channel sends in a few seconds. */
const BURST = 20;

let backend: EmulatorBackend;

beforeAll(() => {
  backend = emulatorBackend();
});

afterAll(() => backend.close());

beforeEach(async () => {
  await clearEmulators();
  const { db } = backend.admin;
  const now = Timestamp.now();
  await Promise.all([
    db.doc(`channels/${CHANNEL}`).set({
      channelId: 'burst',
      ownerId: SENDER,
      title: 'Burst',
      description: '',
      members: RECIPIENTS,
      createdAt: now,
    }),
    ...[SENDER, ...RECIPIENTS].map((uid, i) =>
      db.doc(`users/${uid}`).set({
        email: `person${i}@qupm.test`,
        nickname: `Person ${i}`,
        isOwner: i === 0,
        notificationSettings: { enabled: true, delivery: { channels: ['push', 'in_app'] } },
      }),
    ),
    ...RECIPIENTS.map((uid, i) =>
      db.doc(`users/${uid}/FCMTokens/TokenBurst00000000${i + 1}`).set({
        token: `token-${uid}`,
        deviceId: `device-${uid}`,
        platform: 'web',
        userAgent: 'test',
        status: 'active',
        createdAt: now,
        lastUsed: now,
      }),
    ),
  ]);
});

it('counts every message of a burst once for each recipient and pushes each one to each of them', async () => {
  const created = functionsTest.wrap(backend.fns.on_message_created);
  // Every trigger is waited for, failed or not, so that none is still running when the test ends.
  const outcomes = await Promise.allSettled(
    Array.from({ length: BURST }, (_, i) => {
      const messageId = `MessageBurst${String(i).padStart(8, '0')}`;
      return created({
        data: { senderId: SENDER, senderName: 'Person 0', text: `Message ${i}`, createdAt: Timestamp.now() },
        params: { channelId: CHANNEL, messageId },
      });
    }),
  );

  expect(
    outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [String(outcome.reason)] : [])),
  ).toEqual([]);

  const counts = await Promise.all(
    RECIPIENTS.map(async (uid) =>
      (await backend.admin.db.doc(`users/${uid}/pending/${CHANNEL}`).get()).get('count'),
    ),
  );
  expect(counts).toEqual(RECIPIENTS.map(() => BURST));
  const sent = (backend.deps.push as RecordingPushSender).sent;
  for (const uid of RECIPIENTS) {
    const theirs = sent.filter((push) => push.token === `token-${uid}`);
    expect(theirs).toHaveLength(BURST);
    // Each badge counts at least its own message; the last one to land counts them all.
    const badges = theirs.map((push) => Number(push.data.badge_count));
    expect(Math.min(...badges)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...badges)).toBe(BURST);
  }
});
