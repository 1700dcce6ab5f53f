import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../core/model';
import type { SessionResponse } from '../../core/wire';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../core/wire';
import { REFRESH_REUSE_GRACE_MS } from '../../server/auth/sessions';
import { expectError, startTestServer } from './support/testServer';
import type { TestServer } from './support/testServer';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('sign-up', () => {
  // What sign-up answers and mails, for new and taken addresses alike: __tests__/server/signUp.test.ts.
  it('makes the account once its mailed link is opened; it then signs in to a fresh user document', async () => {
    const session = await server.signUp({
      email: 'New.Person@Example.com',
      password: 'correct horse battery',
      displayName: 'New Person',
    });
    expect(session).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      user: {
        uid: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
        email: 'new.person@example.com',
        displayName: 'New Person',
      },
      expiresIn: ACCESS_TOKEN_TTL_SECONDS,
    });
    const doc = await server.request('GET', `/api/users/${session.user.uid}`, { token: session.accessToken });
    expect(doc.json()).toEqual({
      uid: session.user.uid,
      email: 'new.person@example.com',
      displayName: 'New Person',
      isOwner: false,
      notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
      credits: 0,
      passCount: 0,
      effectiveConId: '',
    });
  });

  it.each([
    ['an invalid email', { email: 'not-an-email', password: 'long enough pw' }],
    ['a short password', { email: 'short@example.com', password: 'short' }],
    ['an extra field', { email: 'extra@example.com', password: 'long enough pw', isAdmin: true }],
    ['a wrong type', { email: 'types@example.com', password: 12345678 }],
  ])('refuses %s as INVALID_ARGUMENT', async (_label, body) => {
    expectError(await server.request('POST', '/api/auth/signup', { body }), 400, 'INVALID_ARGUMENT');
  });

  it('stores a salted scrypt hash, never the password', async () => {
    await server.signUp({ email: 'hash1@example.com', password: 'same password 1' });
    await server.signUp({ email: 'hash2@example.com', password: 'same password 1' });
    const rows = server.query<{ password_hash: string }>(
      "SELECT password_hash FROM users WHERE email IN ('hash1@example.com', 'hash2@example.com')",
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.password_hash).toMatch(/^scrypt\$\d+\$8\$1\$/);
      expect(row.password_hash).not.toContain('same password 1');
    }
    expect(rows[0]?.password_hash).not.toBe(rows[1]?.password_hash);
  });
});

describe('sign-in', () => {
  it('answers a session whose access token carries sub, email, the isAdmin claim and its session', async () => {
    const admin = await server.signIn('admin');
    const member = await server.signIn('member');
    const claims = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
    const family = (refreshToken: string) =>
      server.query<{ family_id: string }>(
        'SELECT family_id FROM refresh_tokens WHERE token_hash = ?',
        createHash('sha256').update(refreshToken).digest('hex'),
      )[0]?.family_id;
    expect(claims(admin.accessToken)).toEqual({
      sub: admin.user.uid,
      email: 'admin@qupm.demo',
      isAdmin: true,
      sid: family(admin.refreshToken),
      iat: expect.any(Number),
      exp: expect.any(Number),
    });
    expect(claims(admin.accessToken).sid).toMatch(/^[A-Za-z0-9]{20}$/);
    // A refresh stays in its session; another sign-in is another one.
    const refreshed = (
      await server.request('POST', '/api/auth/refresh', { body: { refreshToken: admin.refreshToken } })
    ).json<SessionResponse>();
    expect(claims(refreshed.accessToken).sid).toBe(claims(admin.accessToken).sid);
    expect(claims((await server.signIn('admin')).accessToken).sid).not.toBe(claims(admin.accessToken).sid);
    expect(claims(member.accessToken).isAdmin).toBe(false);
    const { iat, exp } = claims(member.accessToken) as { iat: number; exp: number };
    expect(exp - iat).toBe(ACCESS_TOKEN_TTL_SECONDS);
  });

  it('answers a wrong password and an unknown email with the same words', async () => {
    const wrong = await server.request('POST', '/api/auth/signin', {
      body: { email: 'member@qupm.demo', password: 'not the password' },
    });
    const unknown = await server.request('POST', '/api/auth/signin', {
      body: { email: 'nobody@qupm.demo', password: 'not the password' },
    });
    expectError(wrong, 401, 'UNAUTHENTICATED', 'invalid-credentials');
    expect(unknown.body).toBe(wrong.body);
  });

  it('accepts the email in any case', async () => {
    const res = await server.request('POST', '/api/auth/signin', {
      body: { email: ' Member@QUPM.demo ', password: 'qupm-demo' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('refresh', () => {
  const refresh = (refreshToken: string) =>
    server.request('POST', '/api/auth/refresh', { body: { refreshToken } });

  it('rotates: a new refresh token every time, and the new access token works', async () => {
    const first = await server.signIn('member');
    const res = await refresh(first.refreshToken);
    expect(res.statusCode).toBe(200);
    const second = res.json<SessionResponse>();
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.user).toEqual(first.user);
    const doc = await server.request('GET', `/api/users/${second.user.uid}`, { token: second.accessToken });
    expect(doc.statusCode).toBe(200);
  });

  it('revokes the whole family when an already-rotated refresh token comes back after the grace', async () => {
    const first = await server.signIn('member');
    const second = (await refresh(first.refreshToken)).json<SessionResponse>();
    // Within the grace the same token is a racing tab (__tests__/server/refreshRace.test.ts); later it is a leak.
    server.clock.advance(REFRESH_REUSE_GRACE_MS + 1);
    expectError(await refresh(first.refreshToken), 401, 'UNAUTHENTICATED', 'refresh-reused');
    // The legitimate holder's newer token is gone too: both must sign in again.
    expectError(await refresh(second.refreshToken), 401, 'UNAUTHENTICATED', 'session-expired');
  });

  it('leaves other sessions of the same user alone', async () => {
    const a = await server.signIn('member');
    const b = await server.signIn('member');
    await refresh(a.refreshToken);
    await refresh(a.refreshToken);
    expect((await refresh(b.refreshToken)).statusCode).toBe(200);
  });

  it('refuses an unknown or expired refresh token', async () => {
    expectError(await refresh('x'.repeat(43)), 401, 'UNAUTHENTICATED', 'session-expired');
    const session = await server.signIn('visitor');
    server.clock.advance(31 * 24 * 60 * 60 * 1000);
    try {
      expectError(await refresh(session.refreshToken), 401, 'UNAUTHENTICATED', 'session-expired');
    } finally {
      server.clock.advance(-31 * 24 * 60 * 60 * 1000);
    }
  });

  it('refuses a malformed body', async () => {
    expectError(await server.request('POST', '/api/auth/refresh', { body: {} }), 400, 'INVALID_ARGUMENT');
    expectError(
      await server.request('POST', '/api/auth/refresh', { body: { refreshToken: 'a'.repeat(600) } }),
      400,
      'INVALID_ARGUMENT',
    );
  });
});

describe('sign-out', () => {
  it('revokes the session: its refresh token no longer works', async () => {
    const session = await server.signIn('consultant');
    const res = await server.request('POST', '/api/auth/signout', {
      token: session.accessToken,
      body: { refreshToken: session.refreshToken },
    });
    expect(res.json()).toEqual({ success: true });
    expectError(
      await server.request('POST', '/api/auth/refresh', { body: { refreshToken: session.refreshToken } }),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('needs a session, and never ends another user’s session', async () => {
    const victim = await server.signIn('member');
    const attacker = await server.signIn('visitor');
    expectError(
      await server.request('POST', '/api/auth/signout', { body: { refreshToken: victim.refreshToken } }),
      401,
      'UNAUTHENTICATED',
    );
    await server.request('POST', '/api/auth/signout', {
      token: attacker.accessToken,
      body: { refreshToken: victim.refreshToken },
    });
    const still = await server.request('POST', '/api/auth/refresh', {
      body: { refreshToken: victim.refreshToken },
    });
    expect(still.statusCode).toBe(200);
  });
});

describe('access tokens', () => {
  it('refuses an expired access token with session-expired', async () => {
    const session = await server.signIn('member');
    const url = `/api/users/${session.user.uid}`;
    server.clock.advance((ACCESS_TOKEN_TTL_SECONDS + 1) * 1000);
    try {
      expectError(
        await server.request('GET', url, { token: session.accessToken }),
        401,
        'UNAUTHENTICATED',
        'session-expired',
      );
    } finally {
      server.clock.advance(-(ACCESS_TOKEN_TTL_SECONDS + 1) * 1000);
    }
    expect((await server.request('GET', url, { token: session.accessToken })).statusCode).toBe(200);
  });

  // Tokens are verified once and remembered (server/auth/accessTokens.ts): the remembered one still expires, at
  // its exp second exactly, and is refused as expired, not let through from memory.
  it('refuses a token it accepted before, from the second it expires', async () => {
    const session = await server.signIn('member');
    const url = `/api/users/${session.user.uid}`;
    const { exp } = JSON.parse(
      Buffer.from(session.accessToken.split('.')[1] ?? '', 'base64url').toString(),
    ) as { exp: number };
    expect((await server.request('GET', url, { token: session.accessToken })).statusCode).toBe(200);
    const toExpiry = exp * 1000 - server.clock.now();
    server.clock.advance(toExpiry - 1);
    try {
      expect((await server.request('GET', url, { token: session.accessToken })).statusCode).toBe(200);
      server.clock.advance(1);
      for (let i = 0; i < 2; i += 1) {
        expectError(
          await server.request('GET', url, { token: session.accessToken }),
          401,
          'UNAUTHENTICATED',
          'session-expired',
        );
      }
    } finally {
      server.clock.advance(-toExpiry);
    }
  });

  it('refuses corrupt, forged and tampered bearer tokens', async () => {
    const session = await server.signIn('member');
    const [header, payload, signature] = session.accessToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const elevated = Buffer.from(JSON.stringify({ ...claims, isAdmin: true })).toString('base64url');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    const otherSecret = await new SignJWT({ email: 'member@qupm.demo', isAdmin: true })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(session.user.uid)
      .setIssuedAt(Math.floor(server.clock.now() / 1000))
      .setExpirationTime(Math.floor(server.clock.now() / 1000) + 600)
      .sign(new TextEncoder().encode('not the server secret, but 32+ bytes long'));
    const url = `/api/users/${session.user.uid}`;
    for (const token of [
      'garbage',
      `${header}.${elevated}.${signature}`,
      none,
      otherSecret,
      `${session.accessToken}x`,
      'a.b.c',
      'x'.repeat(5000),
    ]) {
      expectError(await server.request('GET', url, { token }), 401, 'UNAUTHENTICATED');
    }
    for (const authorization of ['', 'Bearer', 'Basic dXNlcjpwYXNz', `Token ${session.accessToken}`]) {
      expectError(await server.request('GET', url, { headers: { authorization } }), 401, 'UNAUTHENTICATED');
    }
  });
});
