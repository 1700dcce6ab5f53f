// Numbered migrations: server/db/migrations/NNN_name.sql, applied in order, each in its own transaction with
// its row in schema_migrations, so a restart applies only what is new and a failed migration leaves nothing.
// A migration that rebuilds a table other tables refer to (SQLite cannot drop a column's NOT NULL in place)
// starts with FOREIGN_KEYS_OFF: it runs with foreign keys off, since dropping the old table would otherwise
// cascade into every table that points at it, and the keys are checked before it commits (SQLite's "12 steps",
// https://sqlite.org/lang_altertable.html#otheralter).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';

export const MIGRATIONS_DIR = path.join(__dirname, 'migrations');
const MIGRATION_FILE = /^(\d{3})_([a-z0-9_]+)\.sql$/;
/** The first line of a migration that must run with foreign keys off (see the top of this file). */
export const FOREIGN_KEYS_OFF = '-- migrate: foreign keys off';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  const migrations = readdirSync(dir)
    .map((file) => ({ file, match: MIGRATION_FILE.exec(file) }))
    .filter((entry): entry is { file: string; match: RegExpExecArray } => entry.match !== null)
    .map(({ file, match }) => ({
      version: Number(match[1]),
      name: match[2] ?? file,
      sql: readFileSync(path.join(dir, file), 'utf8'),
    }))
    .sort((a, b) => a.version - b.version);
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`Migrations must be numbered 001, 002, … without gaps; found ${migration.version}`);
    }
  });
  return migrations;
}

/** Applies the migrations not yet recorded; returns the versions it applied. */
export function migrate(db: Database.Database, migrations = readMigrations()): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  )`);
  const isApplied = db.prepare<[number], { version: number }>(
    'SELECT version FROM schema_migrations WHERE version = ?',
  );
  const record = db.prepare<[number, string, number]>(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
  );
  const applied: number[] = [];
  for (const migration of migrations) {
    const keysOff = migration.sql.startsWith(FOREIGN_KEYS_OFF);
    const keysWere = Number(db.pragma('foreign_keys', { simple: true }));
    // The pragma is a no-op inside a transaction, so it is set around it.
    if (keysOff) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        // Checked inside the write transaction: two processes starting at once apply each migration once.
        if (isApplied.get(migration.version)) return;
        db.exec(migration.sql);
        if (keysOff) {
          const broken = db.pragma('foreign_key_check') as unknown[];
          if (broken.length > 0) {
            throw new Error(
              `Migration ${migration.version} would leave ${broken.length} broken foreign keys; nothing was changed`,
            );
          }
        }
        record.run(migration.version, migration.name, Date.now());
        applied.push(migration.version);
      }).immediate();
    } finally {
      if (keysOff) db.pragma(`foreign_keys = ${keysWere ? 'ON' : 'OFF'}`);
    }
  }
  return applied;
}
