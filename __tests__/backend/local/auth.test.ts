// The local adapter's sessions, driven through a fake fetch (the browser edge) and a real in-memory store.
import { createLocalAuth } from '@/backend/local/auth';
import { createSessionStore, parseStoredSession } from '@/backend/local/session';
import type { KeyValueStore } from '@/platform';
import type { Fetch } from '@/backend/local/http';
import type { AuthUser } from '@core/model';

function memoryStore(initial: Record<string, string> = {}): KeyValueStore & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (key) => (key in data ? data[key]! : null),
    setItem: (key, value) => {
      data[key] = value;
    },
    removeItem: (key) => {
      delete data[key];
    },
  };
}

function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256' })}.${part(claims)}.signature`;
}

const user: AuthUser = { uid: 'u1', email: 'ada@example.com', displayName: 'Ada' };
const NOW = 1_800_000_000_000;

function sessionJson(
  overrides: Partial<{ accessToken: string; refreshToken: string; expiresAt: number }> = {},
) {
  return JSON.stringify({
    accessToken: jwt({ sub: 'u1', isAdmin: true }),
    refreshToken: 'refresh-1',
    expiresAt: NOW + 10 * 60_000,
    user,
    ...overrides,
  });
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

type FetchMock = jest.Mock<Promise<Response>, never[]>;

function setup(stored: Record<string, string> = {}, fetchImpl: FetchMock = jest.fn()) {
  const store = memoryStore(stored);
  const auth = createLocalAuth({
    baseUrl: '',
    fetch: fetchImpl as unknown as Fetch,
    sessions: createSessionStore(store),
    now: () => NOW,
  });
  const states: Array<AuthUser | null> = [];
  return { store, auth, fetchImpl, states, listen: () => auth.onAuthStateChanged((u) => states.push(u)) };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('parseStoredSession', () => {
  it.each([
    ['not JSON', '{oops'],
    ['an array', '[]'],
    ['a session without a user', JSON.stringify({ accessToken: 'a', refreshToken: 'b', expiresAt: 1 })],
    ['a numeric token', JSON.stringify({ accessToken: 1, refreshToken: 'b', expiresAt: 1, user })],
    ['a token with spaces', JSON.stringify({ accessToken: 'a b', refreshToken: 'b', expiresAt: 1, user })],
    ['a string expiry', JSON.stringify({ accessToken: 'a', refreshToken: 'b', expiresAt: 'soon', user })],
  ])('refuses %s', (_label, raw) => {
    expect(parseStoredSession(raw)).toBeNull();
  });
});

describe('createLocalAuth', () => {
  it('restores a stored session so a reload stays signed in', async () => {
    const { listen, states, fetchImpl } = setup({ qupm_session: sessionJson() });
    listen();
    await flush();
    expect(states).toEqual([user]);
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('removes a corrupt stored session and reports signed out', async () => {
    const { listen, states, store } = setup({ qupm_session: '{"accessToken":' });
    listen();
    await flush();
    expect(states).toEqual([null]);
    expect(store.data.qupm_session).toBeUndefined();
  });

  it('refreshes an expired access token at start-up and keeps the rotated tokens', async () => {
    const fetchImpl = jest.fn(async () =>
      json(200, {
        accessToken: jwt({ sub: 'u1', isAdmin: false }),
        refreshToken: 'refresh-2',
        user,
        expiresIn: 900,
      }),
    );
    const { listen, states, store } = setup({ qupm_session: sessionJson({ expiresAt: NOW - 1 }) }, fetchImpl);
    listen();
    await flush();
    await flush();
    expect(fetchImpl).toHaveBeenCalledWith(
      '/api/auth/refresh',
      expect.objectContaining({ method: 'POST', body: JSON.stringify({ refreshToken: 'refresh-1' }) }),
    );
    expect(states.at(-1)).toEqual(user);
    expect(JSON.parse(store.data.qupm_session!)).toMatchObject({
      refreshToken: 'refresh-2',
      expiresAt: NOW + 900_000,
    });
  });

  it('tells the stored person at once while an expired access token is refreshed, and once only', async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetchImpl = jest.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { listen, states } = setup({ qupm_session: sessionJson({ expiresAt: NOW - 1 }) }, fetchImpl);
    listen();
    await flush();
    // The refresh has not been answered: a start draws the kept state of this person meanwhile.
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(states).toEqual([user]);
    answer(
      json(200, {
        accessToken: jwt({ sub: 'u1', isAdmin: false }),
        refreshToken: 'r2',
        user,
        expiresIn: 900,
      }),
    );
    await flush();
    await flush();
    expect(states).toEqual([user]);
  });

  it('signs out cleanly, once, when the stored refresh token is refused', async () => {
    const fetchImpl = jest.fn(async () =>
      json(401, { error: { status: 'UNAUTHENTICATED', message: 'Session expired' } }),
    );
    const { listen, states, store, auth } = setup(
      { qupm_session: sessionJson({ expiresAt: NOW - 1 }) },
      fetchImpl,
    );
    listen();
    await flush();
    await flush();
    expect(states.at(-1)).toBeNull();
    expect(store.data.qupm_session).toBeUndefined();
    await expect(auth.getAccessToken()).rejects.toMatchObject({ status: 'UNAUTHENTICATED' });
    expect(fetchImpl).toHaveBeenCalledTimes(1); // no retry loop
  });

  it('keeps the stored user when the server cannot be reached (offline start)', async () => {
    const fetchImpl = jest.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const { listen, states } = setup({ qupm_session: sessionJson({ expiresAt: NOW - 1 }) }, fetchImpl);
    listen();
    await flush();
    await flush();
    expect(states).toEqual([user]);
  });

  it('shares one refresh between concurrent callers', async () => {
    let answer!: (response: Response) => void;
    const fetchImpl = jest.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { auth } = setup({ qupm_session: sessionJson({ expiresAt: NOW - 1 }) }, fetchImpl);
    const tokens = Promise.all([auth.getAccessToken(), auth.getAccessToken(), auth.getAccessToken()]);
    await flush();
    answer(json(200, { accessToken: jwt({ sub: 'u1' }), refreshToken: 'refresh-2', user, expiresIn: 900 }));
    const [a, b, c] = await tokens;
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(new Set([a, b, c]).size).toBe(1);
  });

  it('reads the isAdmin claim from the access token', async () => {
    const { auth } = setup({ qupm_session: sessionJson() });
    await expect(auth.getIdTokenClaims()).resolves.toEqual({ isAdmin: true });
  });

  it('signs in, stores the session and tells listeners', async () => {
    const fetchImpl = jest.fn(async () =>
      json(200, { accessToken: jwt({ sub: 'u1' }), refreshToken: 'r', user, expiresIn: 900 }),
    );
    const { auth, store, states, listen } = setup({}, fetchImpl);
    listen();
    await flush();
    await expect(auth.signIn({ email: 'ada@example.com', password: 'pw' })).resolves.toEqual(user);
    expect(states).toEqual([null, user]);
    expect(store.data.qupm_session).toBeDefined();
  });

  it('turns a refused sign-in into a BackendError with its reason, read from details as Firebase sends it', async () => {
    const fetchImpl = jest.fn(async () =>
      json(401, {
        error: {
          status: 'UNAUTHENTICATED',
          message: 'Wrong email or password',
          details: { reason: 'invalid-credentials' },
        },
      }),
    );
    const { auth } = setup({}, fetchImpl);
    await expect(auth.signIn({ email: 'a@b.co', password: 'x' })).rejects.toMatchObject({
      status: 'UNAUTHENTICATED',
      reason: 'invalid-credentials',
    });
  });

  it('turns a network failure into UNAVAILABLE and a 429 into RESOURCE_EXHAUSTED', async () => {
    const offline = setup(
      {},
      jest.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(offline.auth.signIn({ email: 'a@b.co', password: 'x' })).rejects.toMatchObject({
      status: 'UNAVAILABLE',
    });
    const limited = setup(
      {},
      jest.fn(async () => new Response('slow down', { status: 429 })),
    );
    await expect(limited.auth.signIn({ email: 'a@b.co', password: 'x' })).rejects.toMatchObject({
      status: 'RESOURCE_EXHAUSTED',
    });
  });

  it('signs out on the server with the session’s bearer token, so its refresh tokens are revoked', async () => {
    const fetchImpl = jest.fn(async () => json(200, { success: true }));
    const { auth, store, listen } = setup({ qupm_session: sessionJson() }, fetchImpl as unknown as FetchMock);
    listen();
    await flush();
    await auth.signOut();
    const [url, init] = fetchImpl.mock.calls.at(-1) as unknown as [string, RequestInit];
    expect(url).toBe('/api/auth/signout');
    expect((init.headers as Record<string, string>).Authorization).toBe(
      `Bearer ${jwt({ sub: 'u1', isAdmin: true })}`,
    );
    expect(JSON.parse(String(init.body))).toEqual({ refreshToken: 'refresh-1' });
    expect(store.data.qupm_session).toBeUndefined();
  });

  it('forgets the session on sign-out even when the server cannot be told', async () => {
    const fetchImpl = jest.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const { auth, store, states, listen } = setup({ qupm_session: sessionJson() }, fetchImpl);
    listen();
    await flush();
    await auth.signOut();
    expect(store.data.qupm_session).toBeUndefined();
    expect(states).toEqual([user, null]);
    expect(auth.currentUser()).toBeNull();
  });

  it('hands the access token over at once only when it is known and not due (else the caller waits)', async () => {
    const fresh = setup({ qupm_session: sessionJson() });
    expect(fresh.auth.freshAccessToken()).toBe(jwt({ sub: 'u1', isAdmin: true }));
    fresh.listen();
    // While the stored session is being checked at start-up, nothing is handed over at once.
    expect(fresh.auth.freshAccessToken()).toBeNull();
    await flush();
    expect(fresh.auth.freshAccessToken()).toBe(jwt({ sub: 'u1', isAdmin: true }));

    const due = setup({ qupm_session: sessionJson({ expiresAt: NOW + 1_000 }) });
    expect(due.auth.freshAccessToken()).toBeNull();
    expect(setup().auth.freshAccessToken()).toBeNull();
  });

  it('signs out when the server says the session is over, and keeps it when the server cannot be reached', async () => {
    const refused = setup(
      { qupm_session: sessionJson() },
      jest.fn(async () =>
        json(401, { error: { status: 'UNAUTHENTICATED', message: 'Your session has ended.' } }),
      ),
    );
    refused.listen();
    await flush();
    await refused.auth.verifySession();
    expect(refused.auth.currentUser()).toBeNull();
    expect(refused.states.at(-1)).toBeNull();

    const offline = setup(
      { qupm_session: sessionJson() },
      jest.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    offline.listen();
    await flush();
    await offline.auth.verifySession();
    expect(offline.auth.currentUser()).toEqual(user);
  });
});
