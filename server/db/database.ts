// Opens the embedded server's SQLite database: WAL journal (readers never block the writer; a killed process
// keeps every committed transaction), foreign keys on, and a busy timeout so a second process waits instead
// of failing. Then brings the schema up to date.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate';

export type Db = Database.Database;

export const DATABASE_FILE = 'qupm.sqlite';
const BUSY_TIMEOUT_MS = 5000;

/** Opens `file` (or ':memory:'), creating its folder if missing, and applies pending migrations. */
export function openDatabase(file: string): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    // With WAL, NORMAL loses no committed transaction when the process dies (only on power loss).
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** Runs `fn` in one write transaction (BEGIN IMMEDIATE: takes the write lock first, so it never deadlocks). */
export function write<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}
