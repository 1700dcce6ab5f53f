// Starts the real embedded server (buildServer) on a temporary SQLite file for a test file, and talks to it
// through HTTP with app.inject. Low scrypt cost and generous rate limits unless a test asks otherwise.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildServer } from '../../../server/app';
import type { ServerOptions } from '../../../server/app';
import { DEMO_EMAILS, DEMO_PASSWORD } from '../../../server/demo';
import type { DemoRole } from '../../../server/demo';
import type { SessionResponse } from '../../../core/wire';
import { newDocumentId } from '../../../core/ids';
import { PasswordHasher } from '../../../server/auth/passwords';
import { createRepos } from '../../../server/repo';

export const TEST_SCRYPT_COST = 2 ** 4;

/**
 * No test reaches a real push service: a push to one fails at once, as it would offline (a message in a channel
 * whose members registered browser tokens queues real pushes). Tests that deliver pushes give the local
 * receiver's agent instead.
 */
class OfflineAgent extends Agent {
  override createConnection(): never {
    throw new Error('Tests do not reach the network');
  }
}
export const GENEROUS = { max: 100_000, timeWindowMs: 60_000 };
export const GENEROUS_LIMITS = {
  auth: GENEROUS,
  authPerIp: GENEROUS,
  refresh: GENEROUS,
  callables: GENEROUS,
  messages: GENEROUS,
  uploads: GENEROUS,
  documents: GENEROUS,
  typing: GENEROUS,
  invitationPreview: GENEROUS,
  mailPerAddress: GENEROUS,
  mailPerIp: GENEROUS,
};

/** A clock tests can move. */
export class TestClock {
  constructor(public value = Date.UTC(2026, 0, 15, 12)) {}
  readonly now = (): number => this.value;
  advance(ms: number): void {
    this.value += ms;
  }
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Raw payload (sent as is with `contentType`). */
  payload?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  app: FastifyInstance;
  dir: string;
  clock: TestClock;
  dbFile: string;
  request(method: string, url: string, options?: RequestOptions): Promise<LightMyRequestResponse>;
  signIn(role: DemoRole): Promise<SessionResponse>;
  /**
   * A new account made as a person makes one: sign up, open the link mailed to the address (read from the mail
   * the server queued), then sign in. Answers the session.
   */
  signUp(input: { email: string; password?: string; displayName?: string }): Promise<SessionResponse>;
  /** Reads the database directly (a second connection, read-only). */
  query<T>(sql: string, ...params: unknown[]): T[];
  close(): Promise<void>;
}

export async function startTestServer(
  options: Partial<ServerOptions> & { dir?: string; keepDir?: boolean } = {},
): Promise<TestServer> {
  const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), 'qupm-server-'));
  const clock = new TestClock();
  const { keepDir, dir: _dir, ...rest } = options;
  const app = await buildServer({
    staticDir: path.join(dir, 'no-build'),
    dataDir: dir,
    scryptCost: TEST_SCRYPT_COST,
    rateLimits: GENEROUS_LIMITS,
    now: clock.now,
    ...rest,
    push: { agent: new OfflineAgent(), ...rest.push },
    // Mail is printed nowhere unless a test asks (an SMTP sink, or its own print).
    mail: { print: () => undefined, ...rest.mail },
  });
  const dbFile = app.qupm.databaseFile;
  let reader: Database.Database | undefined;

  const server: TestServer = {
    app,
    dir,
    clock,
    dbFile,
    request(method, url, { token, body, payload, contentType, headers = {} } = {}) {
      const allHeaders: Record<string, string> = { ...headers };
      if (token !== undefined) allHeaders.authorization = `Bearer ${token}`;
      let sent: string | Buffer | undefined = payload;
      if (body !== undefined) sent = JSON.stringify(body);
      if (sent !== undefined) allHeaders['content-type'] = contentType ?? 'application/json';
      return app.inject({
        method: method as 'GET',
        url,
        headers: allHeaders,
        ...(sent !== undefined ? { payload: sent } : {}),
      });
    },
    async signIn(role) {
      const res = await server.request('POST', '/api/auth/signin', {
        body: { email: DEMO_EMAILS[role], password: DEMO_PASSWORD },
      });
      if (res.statusCode !== 200) throw new Error(`sign-in as ${role} failed: ${res.body}`);
      return res.json<SessionResponse>();
    },
    async signUp({ email, password = 'a-good-password', displayName }) {
      const asked = await server.request('POST', '/api/auth/signup', {
        body: { email, password, ...(displayName === undefined ? {} : { displayName }) },
      });
      if (asked.statusCode !== 200) throw new Error(`sign-up as ${email} failed: ${asked.body}`);
      const token = signUpToken(server, email.trim().toLowerCase());
      const opened = await server.request('POST', '/api/auth/verify-email', { body: { token } });
      if (opened.statusCode !== 200)
        throw new Error(`opening ${email}'s sign-up link failed: ${opened.body}`);
      const res = await server.request('POST', '/api/auth/signin', { body: { email, password } });
      if (res.statusCode !== 200) throw new Error(`sign-in as ${email} failed: ${res.body}`);
      return res.json<SessionResponse>();
    },
    query<T>(sql: string, ...params: unknown[]): T[] {
      reader ??= new Database(dbFile, { readonly: true, fileMustExist: true });
      return reader.prepare(sql).all(...params) as T[];
    },
    async close() {
      reader?.close();
      await app.close();
      if (!keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

/**
 * The token of the newest sign-up link the server mailed to `email` (server/services/signUp.ts), read from the
 * text of the mail it queued, as the person reads it. Throws when there is none.
 */
export function signUpToken(server: TestServer, email: string): string {
  const [mail] = server.query<{ text_body: string }>(
    "SELECT text_body FROM mail_jobs WHERE to_address = ? AND kind = 'sign-up' ORDER BY id DESC LIMIT 1",
    email,
  );
  const link = /https?:\/\/\S+\/verify-email\?token=\S+/.exec(mail?.text_body ?? '')?.[0];
  const token = link ? new URL(link).searchParams.get('token') : null;
  if (!token) throw new Error(`no sign-up link was mailed to ${email}`);
  return token;
}

/**
 * An account as the ones made before sign-up confirmed addresses (migration 009): its address not confirmed. Only
 * such accounts (and an address changed by a link) can be unconfirmed now; tests of what that withholds make one
 * here, in the server's own database. Answers its uid.
 */
export async function legacyAccount(
  server: TestServer,
  input: { email: string; password: string; displayName?: string },
): Promise<string> {
  const db = new Database(server.dbFile);
  try {
    const uid = newDocumentId();
    createRepos(db).users.insert({
      uid,
      email: input.email,
      passwordHash: await new PasswordHasher(TEST_SCRYPT_COST).hash(input.password),
      createdAt: server.clock.now(),
      ...(input.displayName === undefined ? {} : { displayName: input.displayName }),
    });
    return uid;
  } finally {
    db.close();
  }
}

/** The demo world's ids, looked up through the API as its users see them. */
export interface DemoIds {
  uid: Record<DemoRole, string>;
  token: Record<DemoRole, string>;
  session: Record<DemoRole, SessionResponse>;
  strategy: string;
  growth: string;
  /** The visitor's open invitation to Growth Clinic. */
  pendingInvitation: string;
  /** The visitor's expired invitation to Strategy Studio. */
  expiredInvitation: string;
  /** The member's activated invitation. */
  usedInvitation: string;
}

export async function demoIds(server: TestServer): Promise<DemoIds> {
  const roles: DemoRole[] = ['consultant', 'member', 'visitor', 'admin'];
  const sessions = await Promise.all(roles.map((role) => server.signIn(role)));
  const session = Object.fromEntries(roles.map((role, i) => [role, sessions[i]])) as Record<
    DemoRole,
    SessionResponse
  >;
  const channels = server.query<{ id: string; channel_id: string }>('SELECT id, channel_id FROM channels');
  const channelId = (handle: string): string => channels.find((c) => c.channel_id === handle)?.id ?? '';
  const invitations = server.query<{ id: string; status: string; expires_at: number; invitee_email: string }>(
    'SELECT id, status, expires_at, invitee_email FROM invitations',
  );
  const now = server.clock.now();
  const pick = (test: (i: (typeof invitations)[number]) => boolean): string =>
    invitations.find(test)?.id ?? '';
  return {
    uid: Object.fromEntries(roles.map((role) => [role, session[role].user.uid])) as Record<DemoRole, string>,
    token: Object.fromEntries(roles.map((role) => [role, session[role].accessToken])) as Record<
      DemoRole,
      string
    >,
    session,
    strategy: channelId('strategy-studio'),
    growth: channelId('growth-clinic'),
    pendingInvitation: pick((i) => i.status === 'pending' && i.expires_at > now),
    expiredInvitation: pick((i) => i.status === 'pending' && i.expires_at <= now),
    usedInvitation: pick((i) => i.status === 'activated'),
  };
}

/** Asserts an ErrorBody with this status and HTTP code, and no stack trace; returns the error. */
export function expectError(
  res: LightMyRequestResponse,
  httpStatus: number,
  status: string,
  reason?: string,
): { status: string; message: string; details?: { reason: string } } {
  expect({ code: res.statusCode, body: res.body }).toEqual({ code: httpStatus, body: expect.any(String) });
  const body = res.json<{ error: { status: string; message: string; details?: { reason: string } } }>();
  expect(body.error.status).toBe(status);
  expect(body.error.message.length).toBeGreaterThan(0);
  // The reason travels in `details`, as Firebase's callable protocol carries it.
  if (reason !== undefined) expect(body.error.details).toEqual({ reason });
  expect(Object.keys(body)).toEqual(['error']);
  expect(res.body).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  return body.error;
}

/** The server with the demo world a test runs against, and the demo ids as its people see them. */
export interface DemoWorld {
  server: TestServer;
  ids: DemoIds;
}

/**
 * Registers the hooks that start a fresh server with the demo world before each test of the file (before all of
 * them with `once`) and close it after; `onStart` keeps what was started, usually in the file's `server` and `ids`.
 */
export function withDemoServer(onStart: (world: DemoWorld) => void, { once = false } = {}): void {
  let started: TestServer | undefined;
  (once ? beforeAll : beforeEach)(async () => {
    started = await startTestServer();
    onStart({ server: started, ids: await demoIds(started) });
  });
  (once ? afterAll : afterEach)(() => started?.close());
}

/**
 * GET, POST and PATCH as the route tests write them: a token and a body that are `undefined` are left out of the
 * request. `current` names the server of the test running now.
 */
export function requestsTo(current: () => TestServer) {
  const options = (token: string | undefined, body?: unknown): RequestOptions => ({
    ...(token === undefined ? {} : { token }),
    ...(body === undefined ? {} : { body }),
  });
  return {
    get: (token: string | undefined, url: string) => current().request('GET', url, options(token)),
    post: (token: string | undefined, url: string, body?: unknown) =>
      current().request('POST', url, options(token, body)),
    patch: (token: string | undefined, url: string, body: unknown) =>
      current().request('PATCH', url, options(token, body)),
  };
}

/** How many notifications from `source` (a channel) wait for `uid`: its row in pending_notifications, or 0. */
export function pendingCount(server: TestServer, uid: string, source: string): number {
  return (
    server.query<{ count: number }>(
      'SELECT count FROM pending_notifications WHERE uid = ? AND source = ?',
      uid,
      source,
    )[0]?.count ?? 0
  );
}
