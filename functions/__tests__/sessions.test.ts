// revoke_sessions (issue #15 part 5) wrapped with firebase-functions-test (offline): "Sign out everywhere" on
// Firebase revokes the account's refresh tokens, and the callables that check revocation (verifyIdToken(token,
// true)) refuse an ID token issued before it, though it has not expired.
import { HttpsError } from 'firebase-functions/v2/https';
import { functionsTest, fakeIdToken } from './support/functionsTest';
import type { TestBackend } from './support/functionsTest';
import { NOW, UID, requestAs, seededBackend } from './support/world';

let backend: TestBackend;
beforeEach(() => {
  backend = seededBackend();
});
afterAll(() => functionsTest.cleanup());

const revoke = (request = requestAs('member', null)) =>
  Promise.resolve(functionsTest.wrap(backend.fns.revoke_sessions)(request));
const savePushToken = (request: ReturnType<typeof requestAs>) =>
  Promise.resolve(functionsTest.wrap(backend.fns.save_push_token)(request));
const tokenInput = {
  userId: UID.member,
  token: 'fcm-token-device-one-aaaaaaaa:APA91b',
  deviceId: 'device-1',
  platform: 'web',
  userAgent: 'Sessions/1.0',
};

describe('revoke_sessions', () => {
  it('revokes the caller’s sessions, and an ID token from before is refused where revocation is checked', async () => {
    expect((await savePushToken(requestAs('member', tokenInput))).deviceId).toBe('device-1');
    backend.clock.now = NOW + 1000;
    await expect(revoke()).resolves.toEqual({ success: true });
    expect(backend.accounts.get(UID.member)?.revokedAt).toBe(NOW + 1000);
    // Every device's push token went with the sessions.
    expect(backend.store.paths().filter((path) => path.startsWith(`users/${UID.member}/FCMTokens/`))).toEqual(
      [],
    );
    const refused = savePushToken(requestAs('member', tokenInput));
    await expect(refused).rejects.toBeInstanceOf(HttpsError);
    await expect(refused).rejects.toMatchObject({
      code: 'unauthenticated',
      details: { reason: 'session-expired' },
    });
    // Signed in again after it: a new ID token works.
    const fresh = requestAs('member', tokenInput);
    if (fresh.auth) fresh.auth.rawToken = fakeIdToken(UID.member, NOW + 2000);
    await expect(savePushToken(fresh)).resolves.toMatchObject({ deviceId: 'device-1' });
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
    await expect(revoke()).rejects.toMatchObject({ code: 'unauthenticated' });
  });
});
