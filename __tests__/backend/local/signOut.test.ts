// Signing out while requests are under way with the session's token (a page opened at /logout starts its first
// reads and its sign-out together): the server revokes the session only once they have their answers, or after
// SIGN_OUT_SETTLE_MS when one never answers, so none is refused under it. Driven through a fake fetch (the browser
// edge) and a real in-memory session store.
import { createLocalBackend, SIGN_OUT_SETTLE_MS } from '@/backend/local';
import { createSessionStore } from '@/backend/local/session';
import type { Fetch } from '@/backend/local/http';

const NOW = 1_800_000_000_000;
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const accessToken = `${part({ alg: 'HS256' })}.${part({ sub: 'u1' })}.signature`;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A signed-in adapter whose GET /api/mutes answers when the test says; the order of requests is kept. */
function setup() {
  const data: Record<string, string> = {
    qupm_session: JSON.stringify({
      accessToken,
      refreshToken: 'refresh-1',
      expiresAt: NOW + 10 * 60_000,
      user: { uid: 'u1', email: 'ada@example.com', displayName: 'Ada' },
    }),
  };
  const sessions = createSessionStore({
    getItem: (key) => data[key] ?? null,
    setItem: (key, value) => void (data[key] = value),
    removeItem: (key) => void delete data[key],
  });
  const order: string[] = [];
  let answerMutes: (() => void) | undefined;
  const fetch: Fetch = async (url) => {
    order.push(`sent ${url}`);
    if (url === '/api/mutes') {
      await new Promise<void>((resolve) => (answerMutes = resolve));
      order.push('mutes answered');
      return json(200, { mutes: {} });
    }
    return json(200, { success: true });
  };
  const backend = createLocalBackend({ fetch, sessions, now: () => NOW, onOnline: () => undefined });
  return { backend, order, data, answerMutes: () => answerMutes?.() };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i += 1) await Promise.resolve();
};

afterEach(() => jest.useRealTimers());

describe('signing out with requests under way', () => {
  it('tells the server only once a request already sent has its answer, which is not refused', async () => {
    const { backend, order, data, answerMutes } = setup();
    const mutes = backend.mutes.listMutes();
    await turns();
    const signedOut = backend.auth.signOut();
    await turns(20);
    expect(order).toEqual(['sent /api/mutes']);

    answerMutes();
    await expect(mutes).resolves.toEqual({});
    await signedOut;
    expect(order).toEqual(['sent /api/mutes', 'mutes answered', 'sent /api/auth/signout']);
    expect(data.qupm_session).toBeUndefined();
  });

  it('waits at most SIGN_OUT_SETTLE_MS for a request that never answers', async () => {
    jest.useFakeTimers();
    const { backend, order, data } = setup();
    void backend.mutes.listMutes().catch(() => undefined);
    await turns();
    const signedOut = backend.auth.signOut();
    await jest.advanceTimersByTimeAsync(SIGN_OUT_SETTLE_MS - 1);
    expect(order).toEqual(['sent /api/mutes']);
    await jest.advanceTimersByTimeAsync(1);
    await signedOut;
    expect(order).toEqual(['sent /api/mutes', 'sent /api/auth/signout']);
    expect(data.qupm_session).toBeUndefined();
  });

  it('signs out at once with nothing under way', async () => {
    jest.useFakeTimers();
    const { backend, order } = setup();
    await backend.auth.signOut();
    expect(order).toEqual(['sent /api/auth/signout']);
  });
});
