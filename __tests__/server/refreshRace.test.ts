// Refresh-token rotation against tabs that race (the real server listening on a port, real concurrent HTTP
// requests): several refreshes with one refresh token from one device within a few seconds all get the same new
// session, and it stands; the same token from another device, or from anywhere once the grace has passed, is a
// reuse and ends the whole session (OAuth 2.0 Security BCP, refresh token rotation).
import type { SessionResponse } from '../../core/wire';
import { DEMO_EMAILS, DEMO_PASSWORD } from '../../server/demo';
import { REFRESH_REUSE_GRACE_MS } from '../../server/auth/sessions';
import { startTestServer } from './support/testServer';
import type { TestServer } from './support/testServer';

const LAPTOP =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148';

let server: TestServer;
let origin: string;
beforeEach(async () => {
  server = await startTestServer();
  origin = await server.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(() => server.close());

interface Answer {
  status: number;
  body: { error?: { status: string; details?: { reason: string } } } & Partial<SessionResponse>;
}

async function post(path: string, body: unknown, userAgent = LAPTOP, token?: string): Promise<Answer> {
  const response = await fetch(`${origin}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': userAgent,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const signIn = async (): Promise<SessionResponse> => {
  const answer = await post('/api/auth/signin', { email: DEMO_EMAILS.member, password: DEMO_PASSWORD });
  expect(answer.status).toBe(200);
  return answer.body as SessionResponse;
};
const refresh = (refreshToken: string, userAgent = LAPTOP) =>
  post('/api/auth/refresh', { refreshToken }, userAgent);
const works = async (accessToken: string): Promise<number> =>
  (await fetch(`${origin}/api/auth/sessions`, { headers: { authorization: `Bearer ${accessToken}` } }))
    .status;

describe('three tabs refreshing with one token at once', () => {
  it('all get the same new session, which then stands', async () => {
    const session = await signIn();
    const answers = await Promise.all([1, 2, 3].map(() => refresh(session.refreshToken)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const tokens = new Set(answers.map((a) => a.body.refreshToken));
    expect(tokens.size).toBe(1);
    const [next] = [...tokens];
    expect(next).not.toBe(session.refreshToken);
    for (const answer of answers) expect(await works(answer.body.accessToken ?? '')).toBe(200);

    // Nobody was signed out: the shared token refreshes on, and one session is listed.
    const after = await refresh(next ?? '');
    expect(after.status).toBe(200);
    const listed = await fetch(`${origin}/api/auth/sessions`, {
      headers: { authorization: `Bearer ${after.body.accessToken ?? ''}` },
    });
    expect(((await listed.json()) as { sessions: unknown[] }).sessions).toHaveLength(1);
  });

  it('answers a late tab with the newest token when another tab already refreshed again', async () => {
    const session = await signIn();
    const first = await refresh(session.refreshToken);
    const second = await refresh(first.body.refreshToken ?? '');
    const late = await refresh(session.refreshToken);
    expect(late.status).toBe(200);
    expect(late.body.refreshToken).toBe(second.body.refreshToken);
  });
});

describe('reuse detection', () => {
  it('still ends the session when the old token comes back after the grace', async () => {
    const session = await signIn();
    const next = await refresh(session.refreshToken);
    expect(next.status).toBe(200);
    server.clock.advance(REFRESH_REUSE_GRACE_MS + 1);
    const reused = await refresh(session.refreshToken);
    expect({ status: reused.status, error: reused.body.error }).toMatchObject({
      status: 401,
      error: { status: 'UNAUTHENTICATED', details: { reason: 'refresh-reused' } },
    });
    // The holder of the newer token is signed out too: whoever leaked it cannot keep the session.
    const afterwards = await refresh(next.body.refreshToken ?? '');
    expect(afterwards.status).toBe(401);
    expect(await works(next.body.accessToken ?? '')).toBe(401);
  });

  it('ends the session when the old token comes from another device, even within the grace', async () => {
    const session = await signIn();
    const next = await refresh(session.refreshToken, LAPTOP);
    const elsewhere = await refresh(session.refreshToken, PHONE);
    expect(elsewhere.body.error).toMatchObject({ details: { reason: 'refresh-reused' } });
    expect((await refresh(next.body.refreshToken ?? '')).status).toBe(401);
  });

  it('gives nothing for a token of a session that was signed out, within the grace or not', async () => {
    const session = await signIn();
    const next = await refresh(session.refreshToken);
    const out = await post(
      '/api/auth/signout',
      { refreshToken: next.body.refreshToken },
      LAPTOP,
      next.body.accessToken,
    );
    expect(out.status).toBe(200);
    const again = await refresh(session.refreshToken);
    expect({ status: again.status, reason: again.body.error?.details?.reason }).toEqual({
      status: 401,
      reason: 'session-expired',
    });
  });
});
