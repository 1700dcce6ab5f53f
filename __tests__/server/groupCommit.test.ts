// Group commit (server/db/groupCommit.ts) on a real SQLite file, read by a second connection as another process
// would: the writes of one turn share a transaction, none is answered before it is committed, and one that fails
// undoes only itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase } from '../../server/db/database';
import type { Db } from '../../server/db/database';
import { GroupCommit } from '../../server/db/groupCommit';

let dir: string;
let db: Db;
let reader: Database.Database;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'qupm-group-'));
  const file = path.join(dir, 'group.sqlite');
  db = openDatabase(file);
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)');
  reader = new Database(file, { readonly: true });
});
afterEach(() => {
  reader.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const visible = (): number =>
  reader.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM notes').get()?.n ?? 0;

describe('group commit', () => {
  it('answers each write of a turn after one commit that holds them all', async () => {
    const group = new GroupCommit(db);
    const insert = db.prepare<[string]>('INSERT INTO notes (text) VALUES (?)');
    const seenAtAnswer: number[] = [];
    const answers = Array.from({ length: 100 }, (_unused, i) =>
      group
        .run(() => {
          insert.run(`note ${i}`);
          return i;
        })
        .then((value) => {
          seenAtAnswer.push(visible());
          return value;
        }),
    );
    // Asked for, not yet run: nothing is written before the turn ends.
    expect(visible()).toBe(0);
    expect(await Promise.all(answers)).toEqual(Array.from({ length: 100 }, (_unused, i) => i));
    // Every answer came after the commit of all 100, read from another connection.
    expect(seenAtAnswer).toEqual(Array.from({ length: 100 }, () => 100));
    expect(group.commits).toBe(1);
  });

  it('undoes only the write that failed, and answers it its own error', async () => {
    const group = new GroupCommit(db);
    const insert = db.prepare<[string]>('INSERT INTO notes (text) VALUES (?)');
    const first = group.run(() => insert.run('kept'));
    const failing = group.run(() => {
      insert.run('undone');
      insert.run('kept'); // taken: UNIQUE fails, and 'undone' must go with it
    });
    const last = group.run(() => insert.run('also kept'));
    const [kept, refused, alsoKept] = await Promise.allSettled([first, failing, last]);
    expect([kept?.status, refused?.status, alsoKept?.status]).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((refused as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(reader.prepare('SELECT text FROM notes ORDER BY id').all()).toEqual([
      { text: 'kept' },
      { text: 'also kept' },
    ]);
  });

  it('lets each write of a group read what the writes before it wrote', async () => {
    const group = new GroupCommit(db);
    const count = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM notes');
    const insert = db.prepare<[string]>('INSERT INTO notes (text) VALUES (?)');
    const sizes = await Promise.all(
      Array.from({ length: 5 }, (_unused, i) =>
        group.run(() => {
          insert.run(`n${i}`);
          return count.get()?.n;
        }),
      ),
    );
    expect(sizes).toEqual([1, 2, 3, 4, 5]);
  });

  it('answers every write of the group an error when the commit itself fails, and keeps none', async () => {
    const group = new GroupCommit(db);
    const insert = db.prepare<[string]>('INSERT INTO notes (text) VALUES (?)');
    // Another connection holds the write lock past the busy timeout: BEGIN IMMEDIATE cannot start.
    const other = new Database(path.join(dir, 'group.sqlite'));
    other.pragma('busy_timeout = 0');
    db.pragma('busy_timeout = 10');
    other.exec('BEGIN IMMEDIATE');
    try {
      const results = await Promise.allSettled([
        group.run(() => insert.run('a')),
        group.run(() => insert.run('b')),
      ]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(visible()).toBe(0);
    // The next group commits as usual.
    await group.run(() => insert.run('c'));
    expect(visible()).toBe(1);
  });
});
