// The real embedded server, started in the test process on a free port, serving dist/ with a fresh SQLite
// database (and the demo world) in a temporary folder.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { newDocumentId } from '../../core/ids';
import { buildServer } from '../../server/app';
import { PasswordHasher } from '../../server/auth/passwords';
import { DATABASE_FILE } from '../../server/db/database';
import { createRepos } from '../../server/repo';
import type { ServerOptions } from '../../server/app';

export interface RunningServer {
  url: string;
  dataDir: string;
  close(): Promise<void>;
}

export const BUILD_DIR = path.join(__dirname, '..', '..', 'dist');

/**
 * The servers here hash passwords at scrypt's cost 2^4, as the integration tests' do: at production's 2^15 each
 * server start (the demo world's six hashes) took 2 to 3 s and each sign-in 0.3 to 0.6 s of CPU, on the cores the
 * browsers need. Hashing itself is tested in __tests__/server; production keeps server/auth/passwords.ts's cost.
 */
export const E2E_SCRYPT_COST = 2 ** 4;

/** A copy of the build a test may change (a new deploy, an extra file), removed with `remove`. */
export function copyOfBuild(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'qupm-build-'));
  cpSync(BUILD_DIR, dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function startServer(
  // push: where the server's push queue sends (a test's push receiver, drivers/pushReceiver.ts).
  // mail: where mail goes (a test's SMTP sink, drivers/smtpSink.ts); by default printed nowhere.
  options: {
    demo?: boolean;
    staticDir?: string;
    push?: ServerOptions['push'];
    mail?: ServerOptions['mail'];
    /** Fills the fresh data folder before the server opens it (drivers/seed.ts: a long channel, say). */
    seed?: (dataDir: string) => Promise<unknown>;
  } = {},
): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qupm-e2e-'));
  await options.seed?.(dataDir);
  const app = await buildServer({
    staticDir: options.staticDir ?? BUILD_DIR,
    dataDir,
    demo: options.demo ?? true,
    // One browser signs in many times in a few seconds here; the limits themselves are tested in __tests__/server.
    rateLimits: false,
    scryptCost: E2E_SCRYPT_COST,
    ...(options.push ? { push: options.push } : {}),
    mail: options.mail ?? { print: () => undefined },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('The server has no TCP address');
  let closed = false;
  return {
    url: `http://127.0.0.1:${address.port}`,
    dataDir,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Reads the running server's database (a read-only second connection, closed again before this returns). */
export function readDatabase<T>(server: RunningServer, read: (db: Database.Database) => T): T {
  const db = new Database(path.join(server.dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/**
 * An account as those made before sign-up confirmed addresses (migration 009), written into the running server's
 * database beside it (a second connection; SQLite's WAL lets both write): its address not confirmed. No other
 * account can be so now.
 */
export async function legacyAccount(
  server: RunningServer,
  input: { email: string; password: string },
): Promise<void> {
  const passwordHash = await new PasswordHasher(2 ** 4).hash(input.password);
  const db = new Database(path.join(server.dataDir, DATABASE_FILE), { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    createRepos(db).users.insert({
      uid: newDocumentId(),
      email: input.email,
      passwordHash,
      createdAt: Date.now(),
    });
  } finally {
    db.close();
  }
}
