import { expectError, startTestServer } from './support/testServer';
import type { TestServer } from './support/testServer';

const LOW = { max: 3, timeWindowMs: 60_000 };
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ rateLimits: { auth: LOW, callables: LOW, messages: LOW } });
});
afterAll(() => server.close());

const TOO_MANY_ATTEMPTS = 'Too many attempts. Wait a minute and try again.';

describe('rate limits', () => {
  it('answers the fourth sign-in attempt for one email within a minute with 429 RESOURCE_EXHAUSTED', async () => {
    const attempt = (email: string) =>
      server.request('POST', '/api/auth/signin', { body: { email, password: 'wrong password' } });
    for (let i = 0; i < 3; i += 1) expect((await attempt('visitor@qupm.demo')).statusCode).toBe(401);
    const limited = await attempt('visitor@qupm.demo');
    const error = expectError(limited, 429, 'RESOURCE_EXHAUSTED');
    expect(error.message).toBe(TOO_MANY_ATTEMPTS);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Even the right password waits: the limit is per IP and email, before any check.
    const right = await server.request('POST', '/api/auth/signin', {
      body: { email: 'visitor@qupm.demo', password: 'qupm-demo' },
    });
    expect(right.statusCode).toBe(429);
    // Another email from the same IP is not held back.
    expect((await attempt('admin@qupm.demo')).statusCode).toBe(401);
  });

  it('limits callables per user', async () => {
    const member = await server.signIn('member');
    const call = () =>
      server.request('POST', '/api/callable/get_user_active_offers', {
        token: member.accessToken,
        body: { data: null },
      });
    for (let i = 0; i < 3; i += 1) expect((await call()).statusCode).toBe(200);
    expectError(await call(), 429, 'RESOURCE_EXHAUSTED');
  });

  it('limits message sends per user', async () => {
    const consultant = await server.signIn('consultant');
    const channel = server.query<{ id: string }>(
      "SELECT id FROM channels WHERE channel_id = 'strategy-studio'",
    )[0]?.id;
    const send = () =>
      server.request('POST', `/api/channels/${channel}/messages`, {
        token: consultant.accessToken,
        body: { text: 'hi' },
      });
    for (let i = 0; i < 3; i += 1) expect((await send()).statusCode).toBe(200);
    expectError(await send(), 429, 'RESOURCE_EXHAUSTED');
  });

  it('meets a flood of messages with 429s and loses none of the messages it accepted', async () => {
    const member = await server.signIn('member');
    const channel = server.query<{ id: string }>(
      "SELECT id FROM channels WHERE channel_id = 'strategy-studio'",
    )[0]?.id;
    const flood = await Promise.all(
      Array.from({ length: 12 }, (_unused, i) =>
        server.request('POST', `/api/channels/${channel}/messages`, {
          token: member.accessToken,
          body: { text: `flood ${i}` },
        }),
      ),
    );
    const accepted = flood
      .filter((res) => res.statusCode === 200)
      .map((res) => res.json<{ id: string; text: string }>());
    const refused = flood.filter((res) => res.statusCode !== 200);
    expect(accepted).toHaveLength(3);
    for (const res of refused) expectError(res, 429, 'RESOURCE_EXHAUSTED');
    const stored = server.query<{ id: string; text: string }>(
      "SELECT id, text FROM messages WHERE text LIKE 'flood %' ORDER BY id",
    );
    expect(stored).toEqual(
      [...accepted].map(({ id, text }) => ({ id, text })).sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
  });
});
