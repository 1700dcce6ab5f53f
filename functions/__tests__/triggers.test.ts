// The triggers, wrapped with firebase-functions-test (offline): the sign-up trigger, the fan-out of a new
// message to pending counts and FCM, and the daily prune of stale tokens.
import { logger } from 'firebase-functions';
import { FORMER_MEMBER_ID } from '../../core/leaving';
import { functionsTest } from './support/functionsTest';
import type { TestBackend } from './support/functionsTest';
import { putPending, putToken, putUser } from './support/seed';
import { CHANNEL, EMAIL, NOW, UID, seededBackend } from './support/world';

let backend: TestBackend;
let warnings: jest.SpyInstance;
beforeEach(() => {
  backend = seededBackend();
  // firebase-functions' logger writes structured lines to the console; tests read them instead of printing them.
  jest.spyOn(logger, 'info').mockImplementation(() => undefined);
  warnings = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
});
afterAll(() => functionsTest.cleanup());

const DAY = 86_400_000;

describe('on_user_created', () => {
  const run = (user: { [key: string]: string | boolean }) =>
    functionsTest.wrap(backend.fns.on_user_created)(functionsTest.auth.makeUserRecord(user));

  it('writes users/{uid} with the defaults the embedded server gives a new account', async () => {
    await run({ uid: UID.newcomer, email: EMAIL.newcomer, displayName: 'Nia' });
    expect(backend.store.get(`users/${UID.newcomer}`)).toMatchObject({
      email: EMAIL.newcomer,
      displayName: 'Nia',
      isOwner: false,
      credits: 0,
      passCount: 0,
      effectiveConId: '',
      notificationSettings: { enabled: true, delivery: { channels: ['push', 'in_app'] } },
    });
    const doc = backend.store.get(`users/${UID.newcomer}`) ?? {};
    expect(Object.keys(doc)).not.toContain('domainId');
    expect(Object.keys(doc)).not.toContain('isAdmin');
  });

  it('leaves a document that exists alone (a retried event, or an invitation accepted first)', async () => {
    await run({ uid: UID.member, email: EMAIL.member });
    expect(backend.store.get(`users/${UID.member}`)).toMatchObject({ effectiveConId: UID.consultant });
  });

  it('takes the name the account was given just after it was created', async () => {
    backend.accounts.set(UID.newcomer, { email: EMAIL.newcomer, displayName: 'Nia Okafor' });
    await run({ uid: UID.newcomer, email: EMAIL.newcomer });
    expect(backend.store.get(`users/${UID.newcomer}`)).toMatchObject({ displayName: 'Nia Okafor' });
  });

  it("gives an account that takes the former member's uid no document, and deletes it (it is no one)", async () => {
    backend.accounts.set(FORMER_MEMBER_ID, { email: 'someone@example.com', displayName: 'Someone' });
    await run({ uid: FORMER_MEMBER_ID, email: 'someone@example.com' });
    expect(backend.store.get(`users/${FORMER_MEMBER_ID}`)).toBeUndefined();
    expect(backend.accounts.has(FORMER_MEMBER_ID)).toBe(false);
  });

  it('writes no display name for an account without one', async () => {
    await run({ uid: UID.newcomer, email: EMAIL.newcomer });
    expect(Object.keys(backend.store.get(`users/${UID.newcomer}`) ?? {})).not.toContain('displayName');
  });
});

describe('on_message_created', () => {
  const message = (data: Record<string, unknown>, messageId = 'MessageNew0000000001') =>
    functionsTest.wrap(backend.fns.on_message_created)({
      data,
      params: { channelId: CHANNEL, messageId },
    });

  beforeEach(() => {
    putToken(backend.store, {
      uid: UID.member,
      id: 'TokenMember000000001',
      token: 'member-token',
      lastUsed: NOW,
    });
    putToken(backend.store, {
      uid: UID.consultant,
      id: 'TokenConsultant00001',
      token: 'consultant-token',
      lastUsed: NOW,
    });
    putPending(backend.store, UID.member, 'OtherChannel00000001', 2);
  });

  it('pushes to everyone in the channel but the sender, each with their own badge count', async () => {
    backend.store.set(`channels/${CHANNEL}/messages/MessageNew0000000001`, {
      senderId: UID.consultant,
      text: 'Hello',
    });
    await message({ senderId: UID.consultant, senderName: 'Dana', text: 'Welcome, Morgan!' });
    expect(backend.push.sent).toStrictEqual([
      {
        token: 'member-token',
        notification: { title: 'Dana', body: 'Welcome, Morgan!' },
        data: { type: 'message', badge_count: '3', channelId: CHANNEL, messageId: 'MessageNew0000000001' },
        webpush: {
          headers: { Urgency: 'high', TTL: '86400' },
          fcmOptions: { link: `https://qupm-test.web.app/?channel=${CHANNEL}` },
        },
      },
    ]);
    expect(backend.store.get(`users/${UID.member}/pending/${CHANNEL}`)).toMatchObject({ count: 1 });
    expect(backend.store.paths().filter((p) => p.startsWith(`users/${UID.consultant}/pending/`))).toEqual([]);
  });

  it('pushes to the owner when a member writes', async () => {
    backend.store.set(`channels/${CHANNEL}/messages/MessageNew0000000001`, {
      senderId: UID.member,
      text: 'Hi',
    });
    await message({ senderId: UID.member, senderName: 'Morgan Reyes', text: 'Question about pricing' });
    expect(backend.push.sent.map((m) => [m.token, m.notification.title, m.data.badge_count])).toEqual([
      ['consultant-token', 'Morgan Reyes', '1'],
    ]);
  });

  it('counts the message as pending but sends no push to someone who turned push off', async () => {
    backend.store.update(`users/${UID.member}`, {
      notificationSettings: { enabled: true, delivery: { channels: ['in_app'] } },
    });
    await message({ senderId: UID.consultant, senderName: 'Dana', text: 'Hello' });
    expect(backend.push.sent).toEqual([]);
    expect(backend.store.get(`users/${UID.member}/pending/${CHANNEL}`)).toMatchObject({ count: 1 });
  });

  it('sends no push and counts nothing to someone who muted the channel (issue #13), until the mute ends', async () => {
    backend.store.set(`users/${UID.member}/channelPrefs/${CHANNEL}`, { mutedUntil: NOW + 3_600_000 });
    await message({ senderId: UID.consultant, senderName: 'Dana', text: 'Quiet' });
    expect(backend.push.sent).toEqual([]);
    expect(backend.store.get(`users/${UID.member}/pending/${CHANNEL}`)).toBeUndefined();
    // An ended mute mutes nothing: the clock decides, no job deleted it.
    backend.store.set(`users/${UID.member}/channelPrefs/${CHANNEL}`, { mutedUntil: NOW });
    await message({ senderId: UID.consultant, senderName: 'Dana', text: 'Back' }, 'MessageNew0000000002');
    expect(backend.push.sent.map((m) => m.token)).toEqual(['member-token']);
  });

  it("leaves a muted channel's pending count out of another channel's badge", async () => {
    backend.store.set(`users/${UID.member}/channelPrefs/OtherChannel00000001`, {
      mutedUntil: NOW + 3_600_000,
    });
    await message({ senderId: UID.consultant, senderName: 'Dana', text: 'Hello' });
    expect(backend.push.sent.map((m) => m.data.badge_count)).toEqual(['1']);
  });

  it('deletes the tokens FCM reports as unregistered, and keeps the others', async () => {
    putToken(backend.store, {
      uid: UID.member,
      id: 'TokenMemberPhone0001',
      token: 'phone-token',
      lastUsed: NOW,
    });
    backend.push.answers.set('member-token', {
      success: false,
      errorCode: 'messaging/registration-token-not-registered',
    });
    backend.push.answers.set('phone-token', { success: false, errorCode: 'messaging/server-unavailable' });
    await message({ senderId: UID.consultant, senderName: 'Dana', text: 'Hello' });
    const tokens = backend.store.paths().filter((p) => p.startsWith(`users/${UID.member}/FCMTokens/`));
    expect(tokens).toEqual([`users/${UID.member}/FCMTokens/TokenMemberPhone0001`]);
  });

  it("stores the sender's name as the backend derives it, not as the client wrote it", async () => {
    backend.store.set(`channels/${CHANNEL}/messages/MessageNew0000000001`, {
      senderId: UID.consultant,
      senderName: 'The Admin',
      text: 'Hello',
    });
    await message({ senderId: UID.consultant, senderName: 'The Admin', text: 'Hello' });
    expect(backend.store.get(`channels/${CHANNEL}/messages/MessageNew0000000001`)).toMatchObject({
      senderName: 'Dana',
    });
    expect(backend.push.sent[0]?.notification.title).toBe('Dana');
  });

  it('sends nothing for a message from someone outside the channel', async () => {
    await message({ senderId: UID.stranger, senderName: 'Sam', text: 'Let me in' });
    expect(backend.push.sent).toEqual([]);
    expect(warnings).toHaveBeenCalledWith(
      'message not fanned out',
      expect.objectContaining({ reason: 'not-a-member' }),
    );
    expect(backend.store.get(`users/${UID.member}/pending/${CHANNEL}`)).toBeUndefined();
  });

  it('sends one push to a token two accounts hold', async () => {
    putUser(backend.store, { uid: UID.newcomer, email: EMAIL.newcomer });
    backend.store.update(`channels/${CHANNEL}`, { members: [UID.member, UID.newcomer] });
    putToken(backend.store, {
      uid: UID.newcomer,
      id: 'TokenShared000000001',
      token: 'member-token',
      lastUsed: NOW,
    });
    await message({ senderId: UID.consultant, senderName: 'Dana', text: 'Hello' });
    expect(backend.push.sent.map((m) => m.token)).toEqual(['member-token']);
  });
});

describe('prune_stale_tokens', () => {
  it('deletes the token documents unused for more than 30 days, in every account', async () => {
    putToken(backend.store, {
      uid: UID.member,
      id: 'TokenFresh0000000001',
      token: 'fresh',
      lastUsed: NOW - DAY,
    });
    putToken(backend.store, {
      uid: UID.member,
      id: 'TokenStale0000000001',
      token: 'stale',
      lastUsed: NOW - 31 * DAY,
    });
    putToken(backend.store, {
      uid: UID.stranger,
      id: 'TokenStale0000000002',
      token: 'stale2',
      lastUsed: NOW - 90 * DAY,
    });
    putToken(backend.store, {
      uid: UID.stranger,
      id: 'TokenEdge00000000001',
      token: 'edge',
      lastUsed: NOW - 30 * DAY,
    });
    // firebase-functions-test has no overload for scheduled functions' events; run() takes one directly.
    await backend.fns.prune_stale_tokens.run({ scheduleTime: new Date(NOW).toISOString() } as never);
    expect(backend.store.paths().filter((p) => p.includes('/FCMTokens/'))).toEqual([
      `users/${UID.member}/FCMTokens/TokenFresh0000000001`,
      `users/${UID.stranger}/FCMTokens/TokenEdge00000000001`,
    ]);
  });

  it('prunes a backlog larger than one batch', async () => {
    for (let i = 0; i < 501; i += 1) {
      const id = `TokenOld${String(i).padStart(12, '0')}`;
      putToken(backend.store, { uid: UID.member, id, token: `old-${i}`, lastUsed: NOW - 40 * DAY });
    }
    await expect(backend.deps.repo.deleteTokensUnusedSince(NOW - 30 * DAY)).resolves.toBe(501);
    expect(backend.store.paths().filter((p) => p.includes('/FCMTokens/'))).toEqual([]);
  });
});
