// The contract's local side: the real embedded server (buildServer on a temporary SQLite file) seeded with the
// world through its own repositories, and the real local adapter talking to it over HTTP (fetch → inject).
import Database from 'better-sqlite3';
import { createLocalBackend } from '@/backend/local';
import { createSessionStore } from '@/backend/local/session';
import type { Backend } from '@/backend/ports';
import { BackendError } from '@/backend/ports';
import { NodeEventSource } from '../../support/nodeEventSource';
import type { KeyValueStore } from '@/platform';
import { PasswordHasher } from '../../../server/auth/passwords';
import { write } from '../../../server/db/database';
import { createRepos } from '../../../server/repo';
import { TEST_SCRYPT_COST, startTestServer } from '../../server/support/testServer';
import type { Harness } from './harness';
import {
  ACCOUNTS_CREATED_AT,
  CHANNELS,
  INVITATIONS,
  MEMBER_JOINED_AT,
  MESSAGES,
  OFFERS,
  PASSWORD,
  PEOPLE,
  START,
} from './world';

function memoryStore(): KeyValueStore {
  const data = new Map<string, string>();
  return {
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

async function seed(dbFile: string): Promise<void> {
  const hash = await new PasswordHasher(TEST_SCRYPT_COST).hash(PASSWORD);
  const db = new Database(dbFile);
  try {
    const repos = createRepos(db);
    write(db, () => {
      for (const person of Object.values(PEOPLE)) {
        // Confirmed addresses, as the Firebase harness's accounts are (emailVerified: true).
        repos.users.insert({
          ...person,
          passwordHash: hash,
          createdAt: ACCOUNTS_CREATED_AT,
          emailVerifiedAt: ACCOUNTS_CREATED_AT,
        });
      }
      for (const { members, ...channel } of Object.values(CHANNELS)) {
        repos.channels.insert(channel);
        for (const uid of members) repos.channels.addMember(channel.id, uid, MEMBER_JOINED_AT);
      }
      for (const message of MESSAGES) repos.messages.insert(message);
      for (const invitation of Object.values(INVITATIONS)) repos.invitations.insert(invitation);
      for (const offer of OFFERS) repos.offers.insert(offer);
    });
  } finally {
    db.close();
  }
}

export async function createLocalHarness(): Promise<Harness> {
  const server = await startTestServer({ demo: false });
  server.clock.value = START;
  await seed(server.dbFile);
  // Live streams need a real socket (inject answers whole responses only).
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the test server has no TCP address');
  const origin = `http://127.0.0.1:${address.port}`;

  /** Each adapter's network: cut by disconnect(), which fails its requests and its live connection. */
  interface Network {
    up: boolean;
    sources: Set<NodeEventSource>;
  }
  const networks = new WeakMap<Backend, Network>();

  // The adapter's fetch, answered by the server in-process (no socket), as the browser's would be.
  const fetchFor =
    (network: Network) =>
    async (input: string, init: RequestInit = {}): Promise<Response> => {
      if (!network.up) throw new TypeError('Failed to fetch');
      const url = new URL(input);
      // A file goes as its bytes (an upload's Blob), and comes back as bytes (a download).
      const payload = init.body instanceof Blob ? Buffer.from(await init.body.arrayBuffer()) : init.body;
      const res = await server.app.inject({
        method: (init.method ?? 'GET') as 'GET',
        url: url.pathname + url.search,
        headers: init.headers as Record<string, string>,
        ...(typeof payload === 'string' || Buffer.isBuffer(payload) ? { payload } : {}),
      });
      return new Response(res.statusCode === 204 ? null : new Uint8Array(res.rawPayload), {
        status: res.statusCode,
        headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') },
      });
    };
  const adapter = (): Backend => {
    const network: Network = { up: true, sources: new Set() };
    const backend = createLocalBackend({
      baseUrl: 'http://qupm.test',
      fetch: fetchFor(network),
      sessions: createSessionStore(memoryStore()),
      now: server.clock.now,
      openEventSource: (url) => {
        const source = new NodeEventSource(url.replace('http://qupm.test', origin));
        network.sources.add(source);
        if (!network.up) queueMicrotask(() => source.fail());
        return source;
      },
      backoff: () => 20,
      onOnline: () => undefined,
    });
    networks.set(backend, network);
    return backend;
  };
  const networkOf = (backend: Backend): Network => {
    const network = networks.get(backend);
    if (!network) throw new BackendError('INTERNAL', 'not an adapter of this harness');
    return network;
  };

  return {
    kind: 'local',
    pushToken: (seed) =>
      Buffer.from(
        JSON.stringify({
          endpoint: `https://fcm.googleapis.com/fcm/send/${seed}`,
          expirationTime: null,
          keys: { p256dh: `BNc${seed.replace(/[^A-Za-z0-9]/g, '')}key`, auth: 'authsecret123' },
        }),
      ).toString('base64url'),
    async as(who) {
      const backend = adapter();
      await backend.auth.signIn({ email: PEOPLE[who].email, password: PASSWORD });
      return backend;
    },
    signedOut: adapter,
    async signUp(input) {
      const backend = adapter();
      await backend.auth.signUp(input);
      return backend;
    },
    async pendingCounts(uid) {
      const rows = server.query<{ source: string; count: number }>(
        'SELECT source, count FROM pending_notifications WHERE uid = ?',
        uid,
      );
      return Object.fromEntries(rows.map((row) => [row.source, row.count]));
    },
    settle: async () => undefined,
    async mailedToken(email, purpose) {
      // The mail as the server queued it for sending: its text part carries the link in full.
      const [mail] = server.query<{ text_body: string }>(
        'SELECT text_body FROM mail_jobs WHERE to_address = ? AND kind = ? ORDER BY id DESC LIMIT 1',
        email,
        purpose,
      );
      const link = /https?:\/\/\S+/.exec(mail?.text_body ?? '')?.[0];
      const token = link ? new URL(link).searchParams.get('token') : null;
      if (!token) throw new Error(`no ${purpose} link was mailed to ${email}`);
      return token;
    },
    disconnect(backend) {
      const network = networkOf(backend);
      network.up = false;
      for (const source of network.sources) source.fail();
      network.sources.clear();
    },
    reconnect(backend) {
      networkOf(backend).up = true;
    },
    advance: async (ms) => server.clock.advance(ms),
    close: () => server.close(),
  };
}
