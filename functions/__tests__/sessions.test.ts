// Revoked sessions on Firebase, wrapped with firebase-functions-test (offline, over the real Firestore repository
// on the in-memory Admin SDK fake): "Sign out everywhere" (revoke_sessions) revokes the account's refresh tokens and
// records the time in revocations/{uid}, which every callable compares with the ID token's auth_time, as
// firestore.rules do; a password reset or change is recorded by record_revocation. The same on the Auth and
// Firestore emulators: functions/__tests__/emulator/revocation.emulator.ts.
import { HttpsError } from 'firebase-functions/v2/https';
import { SESSION_ENDED_MESSAGE } from '../src/callable';
import { functionsTest, fakeIdToken } from './support/functionsTest';
import type { TestBackend } from './support/functionsTest';
import { EMAIL, NOW, SIGNED_IN_AT, UID, requestAs, seededBackend } from './support/world';
import type { Who } from './support/world';

let backend: TestBackend;
beforeEach(() => {
  backend = seededBackend();
  for (const who of Object.keys(UID) as Who[]) {
    backend.accounts.set(UID[who], { email: EMAIL[who], displayName: who });
  }
});
afterAll(() => functionsTest.cleanup());

const wrap =
  <K extends keyof TestBackend['fns']>(name: K) =>
  (request: ReturnType<typeof requestAs>) =>
    Promise.resolve(
      (functionsTest.wrap(backend.fns[name] as never) as (r: unknown) => unknown)(request),
    ) as Promise<unknown>;
const revoke = (request = requestAs('member', null)) => wrap('revoke_sessions')(request);
const savePushToken = wrap('save_push_token');
const tokenInput = {
  userId: UID.member,
  token: 'fcm-token-device-one-aaaaaaaa:APA91b',
  deviceId: 'device-1',
  platform: 'web',
  userAgent: 'Sessions/1.0',
};

/** The member signed in again at `at` (epoch ms): a new ID token. */
function signedInAgain(data: unknown, at: number) {
  const request = requestAs('member', data, { auth_time: Math.floor(at / 1000) });
  if (request.auth) request.auth.rawToken = fakeIdToken(UID.member, at);
  return request;
}

const ended = {
  code: 'unauthenticated',
  message: SESSION_ENDED_MESSAGE,
  details: { reason: 'session-expired' },
};

describe('revoke_sessions', () => {
  it('revokes the caller’s sessions and records when, and an ID token from before is refused', async () => {
    expect(await savePushToken(requestAs('member', tokenInput))).toMatchObject({ deviceId: 'device-1' });
    backend.clock.now = NOW + 1000;
    await expect(revoke()).resolves.toEqual({ success: true });
    expect(backend.accounts.get(UID.member)?.revokedAt).toBe(NOW + 1000);
    expect(backend.store.get(`revocations/${UID.member}`)).toEqual({ revokedBefore: (NOW + 1000) / 1000 });
    // Every device's push token went with the sessions.
    expect(backend.store.paths().filter((path) => path.startsWith(`users/${UID.member}/FCMTokens/`))).toEqual(
      [],
    );
    const refused = savePushToken(requestAs('member', tokenInput));
    await expect(refused).rejects.toBeInstanceOf(HttpsError);
    await expect(refused).rejects.toMatchObject(ended);
    // Signed in again after it: a new ID token works.
    await expect(savePushToken(signedInAgain(tokenInput, NOW + 2000))).resolves.toMatchObject({
      deviceId: 'device-1',
    });
  });

  it('ends only the caller’s own sessions', async () => {
    backend.clock.now = NOW + 1000;
    await revoke(requestAs('stranger', null));
    await expect(savePushToken(requestAs('member', tokenInput))).resolves.toMatchObject({
      deviceId: 'device-1',
    });
  });

  it('refuses a caller who is not signed in, a payload, and an ID token already revoked', async () => {
    await expect(revoke(requestAs(null, null))).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(revoke(requestAs('member', { uid: UID.stranger }))).rejects.toMatchObject({
      code: 'invalid-argument',
    });
    backend.clock.now = NOW + 1000;
    await revoke();
    await expect(revoke()).rejects.toMatchObject(ended);
  });
});

describe('a revoked session, at every callable', () => {
  const callables: Array<[keyof TestBackend['fns'], unknown]> = [
    ['get_channel_overview', null],
    ['check_channel_permissions', { channel_id: 'strategy-studio' }],
    ['get_user_active_offers', null],
    ['list_my_invitations', null],
    ['mute_channel', { channelId: 'ChannelStudio0000001', duration: '1h' }],
    ['export_my_data', null],
    ['revoke_sessions', null],
    ['save_push_token', tokenInput],
  ];

  it.each(callables)('is refused by %s, before its payload is read', async (name, data) => {
    backend.clock.now = NOW + 1000;
    await revoke();
    await expect(wrap(name)(requestAs('member', data))).rejects.toMatchObject(ended);
    await expect(wrap(name)(requestAs('member', { not: 'a payload' }))).rejects.toMatchObject(ended);
  });

  it('is refused by delete_my_account, even just re-authenticated in the same token', async () => {
    backend.clock.now = NOW + 1000;
    await revoke();
    const request = requestAs('member', null, { auth_time: SIGNED_IN_AT });
    await expect(wrap('delete_my_account')(request)).rejects.toMatchObject({ code: 'failed-precondition' });
    backend.clock.now = NOW;
    const reauthenticated = requestAs('member', null, { auth_time: Math.floor(NOW / 1000) - 10 });
    await expect(wrap('delete_my_account')(reauthenticated)).rejects.toMatchObject(ended);
  });

  it('stands again once signed in after the revocation, and one that began in that second stands too', async () => {
    backend.clock.now = NOW + 1000;
    await revoke();
    await expect(wrap('get_channel_overview')(signedInAgain(null, NOW + 1000))).resolves.toBeDefined();
    await expect(wrap('get_channel_overview')(signedInAgain(null, NOW + 5000))).resolves.toBeDefined();
  });

  it('is refused, and recorded, where Firebase Auth knows of a revocation the record missed', async () => {
    // A password reset done with the Auth SDK whose client never reported it.
    const account = backend.accounts.get(UID.member);
    if (account) account.revokedAt = NOW + 1000;
    // Callables that read the record alone still serve the session; those that ask Auth too refuse it …
    await expect(wrap('get_channel_overview')(requestAs('member', null))).resolves.toBeDefined();
    await expect(wrap('export_my_data')(requestAs('member', null))).rejects.toMatchObject(ended);
    // … and leave the revocation recorded, so every other callable and the rules refuse it from then on.
    expect(backend.store.get(`revocations/${UID.member}`)).toEqual({ revokedBefore: (NOW + 1000) / 1000 });
    await expect(wrap('get_channel_overview')(requestAs('member', null))).rejects.toMatchObject(ended);
  });
});

describe('record_revocation', () => {
  const record = (data: unknown) => wrap('record_revocation')(requestAs(null, data));

  it('records a revocation Firebase Auth made by itself (a password reset), for anyone who asks', async () => {
    const account = backend.accounts.get(UID.member);
    if (account) account.revokedAt = NOW + 1000;
    await expect(record({ email: EMAIL.member })).resolves.toEqual({ success: true });
    expect(backend.store.get(`revocations/${UID.member}`)).toEqual({ revokedBefore: (NOW + 1000) / 1000 });
    await expect(wrap('get_channel_overview')(requestAs('member', null))).rejects.toMatchObject(ended);
  });

  it('never moves a recorded revocation back, and answers the same for an address without an account', async () => {
    backend.clock.now = NOW + 5000;
    await revoke();
    const account = backend.accounts.get(UID.member);
    if (account) account.revokedAt = NOW + 1000;
    await record({ email: EMAIL.member });
    expect(backend.store.get(`revocations/${UID.member}`)).toEqual({ revokedBefore: (NOW + 5000) / 1000 });
    await expect(record({ email: 'nobody@example.com' })).resolves.toEqual({ success: true });
  });

  it('refuses anything but an email address', async () => {
    for (const data of [null, { email: 'not an address' }, { email: EMAIL.member, uid: UID.member }]) {
      await expect(record(data)).rejects.toMatchObject({ code: 'invalid-argument' });
    }
  });
});
