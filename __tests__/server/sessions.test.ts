// On the real server and a temporary SQLite file: a person's sessions (list, sign out one,
// sign out everywhere else), an ended session's access token refused at once (also after a restart), its live
// stream ended and its device's push token deleted, and the change of password.
import type { PushTokenDoc, SignedInSession } from '../../core/model';
import type { SessionResponse } from '../../core/wire';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../core/wire';
import { pushTokens } from '../../drivers/webPushTokens';
import { openStream } from './support/sse';
import { expectError, signUpToken, startTestServer } from './support/testServer';
import type { TestServer } from './support/testServer';

const TOKENS = pushTokens(['phone-000000', 'laptop-00000']);
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:131.0) Gecko/20100101 Firefox/131.0';
const PASSWORD = 'correct horse battery';

let server: TestServer;
let accounts = 0;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** A new account, and a second and third session of it signed in from other browsers. */
async function person(): Promise<{
  email: string;
  a: SessionResponse;
  b: SessionResponse;
  c: SessionResponse;
}> {
  accounts += 1;
  const email = `sessions${accounts}@example.com`;
  await server.request('POST', '/api/auth/signup', { body: { email, password: PASSWORD } });
  await server.request('POST', '/api/auth/verify-email', { body: { token: signUpToken(server, email) } });
  const signIn = async (userAgent: string) =>
    (
      await server.request('POST', '/api/auth/signin', {
        body: { email, password: PASSWORD },
        headers: { 'user-agent': userAgent },
      })
    ).json<SessionResponse>();
  return {
    email,
    a: await signIn(FIREFOX_WINDOWS),
    b: await signIn(CHROME_ANDROID),
    c: await signIn(SAFARI_IPHONE),
  };
}

const sidOf = (session: SessionResponse): string =>
  (
    JSON.parse(Buffer.from(session.accessToken.split('.')[1] ?? '', 'base64url').toString()) as {
      sid: string;
    }
  ).sid;
const list = (session: SessionResponse) =>
  server.request('GET', '/api/auth/sessions', { token: session.accessToken });
const revoke = (session: SessionResponse, id: string) =>
  server.request('DELETE', `/api/auth/sessions/${id}`, { token: session.accessToken });
const revokeOthers = (session: SessionResponse) =>
  server.request('POST', '/api/auth/sessions/revoke-others', { token: session.accessToken });
const readSelf = (session: SessionResponse) =>
  server.request('GET', `/api/users/${session.user.uid}`, { token: session.accessToken });
const changePassword = (session: SessionResponse, body: unknown) =>
  server.request('POST', '/api/auth/password', { token: session.accessToken, body });
const saveDevice = (session: SessionResponse, deviceId: string, token: string) =>
  server.request('POST', `/api/users/${session.user.uid}/tokens`, {
    token: session.accessToken,
    body: { token, deviceId, platform: 'web', userAgent: CHROME_ANDROID },
  });

describe('the sessions list', () => {
  it('lists every signed-in session with its browser, system, start and last use, the caller’s own marked', async () => {
    const { a, b, c } = await person();
    const res = await list(b);
    expect(res.statusCode).toBe(200);
    const { sessions } = res.json<{ sessions: SignedInSession[] }>();
    const byId = new Map(sessions.map((s) => [s.id, s]));
    expect(sessions).toHaveLength(3);
    expect(byId.get(sidOf(a))).toMatchObject({ browser: 'Firefox', platform: 'Windows', current: false });
    expect(byId.get(sidOf(b))).toMatchObject({ browser: 'Chrome', platform: 'Android', current: true });
    expect(byId.get(sidOf(c))).toMatchObject({ browser: 'Safari', platform: 'iOS', current: false });
    expect(byId.get(sidOf(a))?.createdAt).toBe(server.clock.now());
  });

  it('moves "last used" when the session refreshes its token, and lists the most recently used first', async () => {
    const { a } = await person();
    server.clock.advance(60_000);
    const refreshed = (
      await server.request('POST', '/api/auth/refresh', { body: { refreshToken: a.refreshToken } })
    ).json<SessionResponse>();
    const { sessions } = (await list(refreshed)).json<{ sessions: SignedInSession[] }>();
    expect(sessions[0]).toMatchObject({ id: sidOf(a), current: true, lastUsedAt: server.clock.now() });
    expect(sessions[0]?.createdAt).toBe(server.clock.now() - 60_000);
  });

  it('names a browser it cannot read plainly, and never lists another account’s sessions', async () => {
    const one = await person();
    const other = await person();
    const bare = (
      await server.request('POST', '/api/auth/signin', {
        body: { email: one.email, password: PASSWORD },
        headers: { 'user-agent': '' },
      })
    ).json<SessionResponse>();
    const { sessions } = (await list(bare)).json<{ sessions: SignedInSession[] }>();
    expect(sessions.find((s) => s.current)).toMatchObject({
      browser: 'Unknown browser',
      platform: 'unknown system',
    });
    expect(sessions.map((s) => s.id)).not.toContain(sidOf(other.a));
  });

  it('needs a session', async () => {
    expectError(await server.request('GET', '/api/auth/sessions'), 401, 'UNAUTHENTICATED');
  });
});

describe('after sign-out, the signed-out access token is refused at once (the bar)', () => {
  it('refuses the access token of a session that signed out, and keeps the account’s other sessions', async () => {
    const { a, b } = await person();
    expect((await readSelf(a)).statusCode).toBe(200);
    const out = await server.request('POST', '/api/auth/signout', {
      token: a.accessToken,
      body: { refreshToken: a.refreshToken },
    });
    expect(out.statusCode).toBe(200);
    expectError(await readSelf(a), 401, 'UNAUTHENTICATED', 'session-expired');
    expect((await readSelf(b)).statusCode).toBe(200);
  });

  it('refuses it until it would have expired anyway, and forgets the session after that', async () => {
    const { a } = await person();
    await server.request('POST', '/api/auth/signout', {
      token: a.accessToken,
      body: { refreshToken: a.refreshToken },
    });
    server.clock.advance(ACCESS_TOKEN_TTL_SECONDS * 1000 - 1000);
    expectError(await readSelf(a), 401, 'UNAUTHENTICATED', 'session-expired');
    server.clock.advance(1000);
    // Expired on its own now: refused as expired, whatever the revoked set holds.
    expectError(await readSelf(a), 401, 'UNAUTHENTICATED', 'session-expired');
  });

  it('refuses it after a reused refresh token revoked the session', async () => {
    const { a } = await person();
    const first = await server.request('POST', '/api/auth/refresh', {
      body: { refreshToken: a.refreshToken },
    });
    const rotated = first.json<SessionResponse>();
    const reuse = await server.request('POST', '/api/auth/refresh', {
      body: { refreshToken: a.refreshToken },
    });
    expectError(reuse, 401, 'UNAUTHENTICATED', 'refresh-reused');
    expectError(await readSelf(rotated), 401, 'UNAUTHENTICATED', 'session-expired');
  });
});

describe('signing out one session', () => {
  it('ends its live stream, deletes its device’s push token and refuses its access token, at once', async () => {
    const { a, b } = await person();
    expect((await saveDevice(b, 'phone', TOKENS['phone-000000'])).statusCode).toBe(200);
    expect((await saveDevice(a, 'laptop', TOKENS['laptop-00000'])).statusCode).toBe(200);
    const stream = await openStream(server, b.accessToken);
    const keptStream = await openStream(server, a.accessToken);

    const res = await revoke(a, sidOf(b));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });

    expect(await stream.next('closing')).toMatchObject({ data: { reason: 'signed-out' } });
    await stream.ended;
    expectError(await readSelf(b), 401, 'UNAUTHENTICATED', 'session-expired');
    const tokens = (
      await server.request('GET', `/api/users/${a.user.uid}/tokens`, { token: a.accessToken })
    ).json<{ tokens: PushTokenDoc[] }>().tokens;
    expect(tokens.map((t) => t.deviceId)).toEqual(['laptop']);
    // Its refresh token is over too, and the list no longer shows it.
    expectError(
      await server.request('POST', '/api/auth/refresh', { body: { refreshToken: b.refreshToken } }),
      401,
      'UNAUTHENTICATED',
    );
    const ids = (await list(a)).json<{ sessions: SignedInSession[] }>().sessions.map((s) => s.id);
    expect(ids).not.toContain(sidOf(b));
    expect(ids).toContain(sidOf(a));
    // The caller's own stream goes on.
    expect(keptStream.events.some((e) => e.event === 'closing')).toBe(false);
    stream.close();
    keptStream.close();
  });

  it('deletes the push token of the session that confirmed it last, not of the one that saved it first', async () => {
    const { a, b } = await person();
    const saved = (await saveDevice(a, 'shared-device', TOKENS['phone-000000'])).json<PushTokenDoc>();
    const touched = await server.request('POST', `/api/users/${a.user.uid}/tokens/${saved.id}/touch`, {
      token: b.accessToken,
    });
    expect(touched.statusCode).toBe(200);
    expect((await revoke(b, sidOf(a))).statusCode).toBe(200);
    expect(server.query('SELECT id FROM push_tokens WHERE id = ?', saved.id)).toHaveLength(1);
    const c = (
      await server.request('POST', '/api/auth/signin', { body: { email: a.user.email, password: PASSWORD } })
    ).json<SessionResponse>();
    expect((await revoke(c, sidOf(b))).statusCode).toBe(200);
    expect(server.query('SELECT id FROM push_tokens WHERE id = ?', saved.id)).toHaveLength(0);
  });

  it('answers not found for a session of another account, and revokes nothing', async () => {
    const mine = await person();
    const theirs = await person();
    expectError(await revoke(mine.a, sidOf(theirs.b)), 404, 'NOT_FOUND');
    expect((await readSelf(theirs.b)).statusCode).toBe(200);
    const ids = (await list(theirs.a)).json<{ sessions: SignedInSession[] }>().sessions.map((s) => s.id);
    expect(ids).toContain(sidOf(theirs.b));
  });

  it('answers not found for a session revoked already, and for one that never was', async () => {
    const { a, b } = await person();
    expect((await revoke(a, sidOf(b))).statusCode).toBe(200);
    expectError(await revoke(a, sidOf(b)), 404, 'NOT_FOUND');
    expectError(await revoke(a, 'A'.repeat(20)), 404, 'NOT_FOUND');
    expect((await readSelf(a)).statusCode).toBe(200);
  });

  it.each([
    ['too short', 'abc'],
    ['too long', 'A'.repeat(21)],
    ['of other characters', 'aaaaaaaaaa-aaaaaaaaa'],
    ['encoded path parts', '..%2F..%2Fusers'],
  ])('refuses a session id %s as INVALID_ARGUMENT', async (_label, id) => {
    const { a } = await person();
    expectError(await revoke(a, id), 400, 'INVALID_ARGUMENT');
  });
});

describe('signing out everywhere else', () => {
  it('ends every other session of the account and keeps the caller’s', async () => {
    const { a, b, c } = await person();
    const stream = await openStream(server, c.accessToken);
    const res = await revokeOthers(b);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ revoked: 2 });
    await stream.ended;
    expectError(await readSelf(a), 401, 'UNAUTHENTICATED');
    expectError(await readSelf(c), 401, 'UNAUTHENTICATED');
    expect((await readSelf(b)).statusCode).toBe(200);
    const { sessions } = (await list(b)).json<{ sessions: SignedInSession[] }>();
    expect(sessions.map((s) => s.id)).toEqual([sidOf(b)]);
    // Nothing else to end: a second time ends none.
    expect((await revokeOthers(b)).json()).toEqual({ revoked: 0 });
  });
});

describe('changing the password', () => {
  it('refuses a wrong current password, and changes nothing', async () => {
    const { a, b } = await person();
    const res = await changePassword(a, {
      currentPassword: 'not my password',
      newPassword: 'a brand new one',
    });
    expectError(res, 403, 'PERMISSION_DENIED', 'wrong-password');
    expect((await readSelf(b)).statusCode).toBe(200);
    expect(
      (
        await server.request('POST', '/api/auth/signin', {
          body: { email: a.user.email, password: PASSWORD },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('sets the new password, ends the other sessions at once, keeps this one, and the new one signs in', async () => {
    const { email, a, b, c } = await person();
    const res = await changePassword(a, { currentPassword: PASSWORD, newPassword: 'a brand new one' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, revoked: 2 });
    expectError(await readSelf(b), 401, 'UNAUTHENTICATED');
    expectError(await readSelf(c), 401, 'UNAUTHENTICATED');
    expectError(
      await server.request('POST', '/api/auth/refresh', { body: { refreshToken: b.refreshToken } }),
      401,
      'UNAUTHENTICATED',
    );
    expect((await readSelf(a)).statusCode).toBe(200);
    const old = await server.request('POST', '/api/auth/signin', { body: { email, password: PASSWORD } });
    expectError(old, 401, 'UNAUTHENTICATED', 'invalid-credentials');
    const fresh = await server.request('POST', '/api/auth/signin', {
      body: { email, password: 'a brand new one' },
    });
    expect(fresh.statusCode).toBe(200);
  });

  it.each([
    ['an empty current password', { currentPassword: '', newPassword: 'a brand new one' }],
    ['an empty new password', { currentPassword: PASSWORD, newPassword: '' }],
    ['a new password below the sign-up policy', { currentPassword: PASSWORD, newPassword: 'short' }],
    ['a new password too long', { currentPassword: PASSWORD, newPassword: 'x'.repeat(129) }],
    ['a current password too long', { currentPassword: 'x'.repeat(129), newPassword: 'a brand new one' }],
    ['a missing field', { currentPassword: PASSWORD }],
    ['an extra field', { currentPassword: PASSWORD, newPassword: 'a brand new one', uid: 'x' }],
    ['a wrong type', { currentPassword: PASSWORD, newPassword: 12345678 }],
  ])('refuses %s as INVALID_ARGUMENT and changes nothing', async (_label, body) => {
    const { email, a } = await person();
    expectError(await changePassword(a, body), 400, 'INVALID_ARGUMENT');
    const still = await server.request('POST', '/api/auth/signin', { body: { email, password: PASSWORD } });
    expect(still.statusCode).toBe(200);
  });

  it('needs a session', async () => {
    const res = await server.request('POST', '/api/auth/password', {
      body: { currentPassword: PASSWORD, newPassword: 'a brand new one' },
    });
    expectError(res, 401, 'UNAUTHENTICATED');
  });
});

describe('rate limits', () => {
  it('limits wrong current passwords like sign-in attempts', async () => {
    const limited = await startTestServer({ rateLimits: { auth: { max: 3, timeWindowMs: 60_000 } } });
    try {
      const session = await limited.signUp({ email: 'limit@example.com', password: PASSWORD });
      const attempt = () =>
        limited.request('POST', '/api/auth/password', {
          token: session.accessToken,
          body: { currentPassword: 'guess guess', newPassword: 'a brand new one' },
        });
      // The sign-up and the sign-in after its link counted for this address.
      expectError(await attempt(), 403, 'PERMISSION_DENIED');
      expectError(await attempt(), 429, 'RESOURCE_EXHAUSTED');
    } finally {
      await limited.close();
    }
  });
});

describe('a restart', () => {
  it('still refuses the access token of a session ended before it', async () => {
    const first = await startTestServer({ keepDir: true });
    const signIn = () =>
      first.request('POST', '/api/auth/signin', {
        body: { email: 'restart@example.com', password: PASSWORD },
      });
    await first.signUp({ email: 'restart@example.com', password: PASSWORD });
    const a = (await signIn()).json<SessionResponse>();
    const b = (await signIn()).json<SessionResponse>();
    expect(
      (await first.request('DELETE', `/api/auth/sessions/${sidOf(b)}`, { token: a.accessToken })).statusCode,
    ).toBe(200);
    const { dir, clock } = first;
    await first.close();
    const restarted = await startTestServer({ dir });
    restarted.clock.value = clock.value + 1000;
    try {
      const res = await restarted.request('GET', `/api/users/${b.user.uid}`, { token: b.accessToken });
      expectError(res, 401, 'UNAUTHENTICATED', 'session-expired');
      const ok = await restarted.request('GET', `/api/users/${a.user.uid}`, { token: a.accessToken });
      expect(ok.statusCode).toBe(200);
    } finally {
      await restarted.close();
    }
  });
});
