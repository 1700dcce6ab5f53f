// The contract's local side: the real embedded server (buildServer on a temporary SQLite file) seeded with the
// world through its own repositories, and the real local adapter talking to it over HTTP (fetch → inject).
import Database from 'better-sqlite3';
import { createLocalBackend } from '@/backend/local';
import { createSessionStore } from '@/backend/local/session';
import type { Backend } from '@/backend/ports';
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
        repos.users.insert({ ...person, passwordHash: hash, createdAt: ACCOUNTS_CREATED_AT });
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

  // The adapter's fetch, answered by the server in-process (no socket), as the browser's would be.
  const fetchImpl = async (input: string, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input);
    const res = await server.app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url: url.pathname + url.search,
      headers: init.headers as Record<string, string>,
      ...(typeof init.body === 'string' ? { payload: init.body } : {}),
    });
    return new Response(res.statusCode === 204 ? null : res.body, {
      status: res.statusCode,
      headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') },
    });
  };
  const adapter = (): Backend =>
    createLocalBackend({
      baseUrl: 'http://qupm.test',
      fetch: fetchImpl,
      sessions: createSessionStore(memoryStore()),
      now: server.clock.now,
      // Live data is outside the contract (each adapter's own tests cover it).
      openEventSource: () => {
        throw new Error('no live stream in the contract suite');
      },
    });

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
    settle: async () => undefined,
    advance: (ms) => server.clock.advance(ms),
    close: () => server.close(),
  };
}
