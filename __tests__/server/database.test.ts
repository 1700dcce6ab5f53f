import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate, readMigrations } from '../../server/db/migrate';
import { openDatabase } from '../../server/db/database';
import { createRepos } from '../../server/repo';
import { startTestServer } from './support/testServer';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'qupm-db-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const count = (file: string, sql: string): number => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('the database', () => {
  it('is created in a data folder that did not exist, in WAL mode with foreign keys on', () => {
    const file = path.join(dir, 'nested', 'data', 'qupm.sqlite');
    const db = openDatabase(file);
    try {
      expect(existsSync(file)).toBe(true);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
      expect(Number(db.pragma('busy_timeout', { simple: true }))).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it('applies each migration once: a restart applies nothing', () => {
    const file = path.join(dir, 'qupm.sqlite');
    openDatabase(file).close();
    const db = openDatabase(file);
    try {
      expect(migrate(db)).toEqual([]);
      const rows = db.prepare('SELECT version, name FROM schema_migrations').all();
      expect(rows).toEqual(readMigrations().map((m) => ({ version: m.version, name: m.name })));
    } finally {
      db.close();
    }
  });

  it('rolls a failing migration back entirely', () => {
    const db = new Database(':memory:');
    try {
      const broken = [{ version: 1, name: 'broken', sql: 'CREATE TABLE a (x); CREATE TABLE oops (' }];
      expect(() => migrate(db, broken)).toThrow();
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'a'").all()).toEqual([]);
      expect(db.prepare('SELECT * FROM schema_migrations').all()).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('keeps read marks written before migration 003 as marks of their whole millisecond', () => {
    const file = path.join(dir, 'qupm.sqlite');
    const db = new Database(file);
    try {
      migrate(
        db,
        readMigrations().filter((m) => m.version < 3),
      );
      db.exec(`INSERT INTO users (uid, email, password_hash, notification_settings, created_at)
                 VALUES ('u', 'u@x.co', 'h', '{}', 0);
               INSERT INTO channels (id, channel_id, owner_id, title, created_at) VALUES ('c', 'c', 'u', 'C', 0);
               INSERT INTO channel_reads (uid, channel_id, last_read_at) VALUES ('u', 'c', 1234);`);
      // 003, then whatever came after it.
      expect(migrate(db)[0]).toBe(3);
      expect(db.prepare('SELECT last_read_at, last_read_id FROM channel_reads').all()).toEqual([
        { last_read_at: 1234, last_read_id: '' },
      ]);
      // Someone else wrote twice in the marked millisecond and once after it: only the later one is unread.
      db.exec(`INSERT INTO users (uid, email, password_hash, notification_settings, created_at)
                 VALUES ('o', 'o@x.co', 'h', '{}', 0);
               INSERT INTO messages (id, channel_id, sender_id, sender_name, text, created_at) VALUES
                 ('a', 'c', 'o', 'O', 'a', 1234), ('z', 'c', 'o', 'O', 'z', 1234), ('b', 'c', 'o', 'O', 'b', 1235);`);
      const repos = createRepos(db);
      expect(repos.messages.countUnread('c', 'u', repos.reads.get('u', 'c'))).toBe(1);
    } finally {
      db.close();
    }
  });

  it('walks a channel’s pages in (created_at, id) order on an index, without sorting', () => {
    const db = openDatabase(':memory:');
    try {
      for (const sql of [
        'SELECT * FROM messages WHERE channel_id = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?',
        'SELECT * FROM messages WHERE channel_id = ? AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?',
      ]) {
        const plan = db
          .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
          .all('c', 1, 'x', 5)
          .map((row) => row.detail)
          .join('; ');
        expect(plan).toMatch(
          /^SEARCH messages USING INDEX messages_channel_order \(channel_id=\? AND \(created_at,id\)[<>]/,
        );
        expect(plan).not.toMatch(/TEMP B-TREE/);
      }
    } finally {
      db.close();
    }
  });

  it('walks a channel’s changes in (updated_at, id) order on an index, without sorting (issue #13)', () => {
    const db = openDatabase(':memory:');
    try {
      const plan = db
        .prepare<unknown[], { detail: string }>(
          `EXPLAIN QUERY PLAN SELECT * FROM messages WHERE channel_id = ? AND updated_at IS NOT NULL
           AND (updated_at, id) > (?, ?) ORDER BY updated_at, id LIMIT ?`,
        )
        .all('c', 1, 'x', 5)
        .map((row) => row.detail)
        .join('; ');
      expect(plan).toMatch(
        /^SEARCH messages USING INDEX messages_channel_changes \(channel_id=\? AND \(updated_at,id\)>/,
      );
      expect(plan).not.toMatch(/TEMP B-TREE/);
    } finally {
      db.close();
    }
  });

  it('holds one push token document per (user, device) at the schema level', () => {
    const db = openDatabase(':memory:');
    try {
      db.prepare(
        "INSERT INTO users (uid, email, password_hash, notification_settings, created_at) VALUES ('u', 'u@x.co', 'h', '{}', 0)",
      ).run();
      const insert = db.prepare(
        "INSERT INTO push_tokens (id, uid, token, device_id, created_at, last_used, platform, user_agent) VALUES (?, 'u', ?, 'd', 0, 0, 'web', '')",
      );
      insert.run('a', 'token-a');
      expect(() => insert.run('b', 'token-b')).toThrow(/UNIQUE/);
    } finally {
      db.close();
    }
  });
});

describe('restarts', () => {
  it('keep accounts, sessions and the signing secret', async () => {
    const first = await startTestServer({ dir, keepDir: true, demo: false });
    const signUp = await first.request('POST', '/api/auth/signup', {
      body: { email: 'keeper@example.com', password: 'long enough pw' },
    });
    const session = signUp.json<{ accessToken: string; refreshToken: string; user: { uid: string } }>();
    await first.close();

    const second = await startTestServer({ dir, keepDir: true, demo: false });
    try {
      const doc = await second.request('GET', `/api/users/${session.user.uid}`, {
        token: session.accessToken,
      });
      expect(doc.statusCode).toBe(200);
      const refreshed = await second.request('POST', '/api/auth/refresh', {
        body: { refreshToken: session.refreshToken },
      });
      expect(refreshed.statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('create the demo world on the first start only', async () => {
    const first = await startTestServer({ dir, keepDir: true });
    expect(first.app.qupm.demoCreated).toBe(true);
    expect(first.app.qupm.demo.signIns.map((s) => s.email)).toEqual([
      'consultant@qupm.demo',
      'member@qupm.demo',
      'visitor@qupm.demo',
      'admin@qupm.demo',
    ]);
    const ids = (sql: string) => first.query<{ id: string }>(sql).map((r) => r.id);
    const channelIds = ids('SELECT id FROM channels ORDER BY id');
    await first.close();

    const second = await startTestServer({ dir, keepDir: true });
    try {
      expect(second.app.qupm.demoCreated).toBe(false);
      expect(second.query<{ id: string }>('SELECT id FROM channels ORDER BY id').map((r) => r.id)).toEqual(
        channelIds,
      );
      // The four sign-ins and Growth Clinic's two other clients.
      expect(count(second.dbFile, 'SELECT COUNT(*) AS n FROM users')).toBe(6);
      expect(count(second.dbFile, 'SELECT COUNT(*) AS n FROM schema_migrations')).toBe(
        readMigrations().length,
      );
      expect(second.app.qupm.demo.visitorInvitationIds).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('never create the demo world after a first start without it', async () => {
    const first = await startTestServer({ dir, keepDir: true, demo: false });
    expect(first.app.qupm.demo.signIns).toEqual([]);
    await first.close();
    const second = await startTestServer({ dir, keepDir: true, demo: true });
    try {
      expect(second.app.qupm.demoCreated).toBe(false);
      expect(count(second.dbFile, 'SELECT COUNT(*) AS n FROM users')).toBe(0);
    } finally {
      await second.close();
    }
  });

  it('give every demo document a 20-character id', async () => {
    const server = await startTestServer({ dir, keepDir: true });
    try {
      for (const [table, column] of [
        ['users', 'uid'],
        ['channels', 'id'],
        ['messages', 'id'],
        ['invitations', 'id'],
        ['offers', 'id'],
      ] as const) {
        const values = server.query<{ v: string }>(`SELECT ${column} AS v FROM ${table}`).map((r) => r.v);
        expect(values.length).toBeGreaterThan(0);
        for (const value of values) expect(value).toMatch(/^[A-Za-z0-9]{20}$/);
      }
    } finally {
      await server.close();
    }
  });
});

describe('a damaged user row', () => {
  it('reads notification settings it cannot parse as not opted in (spec §5), not as the defaults', () => {
    const file = path.join(dir, 'qupm.sqlite');
    const db = openDatabase(file);
    try {
      const repos = createRepos(db);
      repos.users.insert({
        uid: 'uidAnn00000000000001',
        email: 'ann@example.com',
        passwordHash: 'x',
        createdAt: 1,
      });
      expect(repos.users.notificationSettings('uidAnn00000000000001')?.enabled).toBe(true);
      for (const damaged of ['{not json', '{"enabled":"yes","delivery":{"channels":["push"]}}', 'null']) {
        db.prepare('UPDATE users SET notification_settings = ? WHERE uid = ?').run(
          damaged,
          'uidAnn00000000000001',
        );
        expect(repos.users.notificationSettings('uidAnn00000000000001')).toStrictEqual({
          enabled: false,
          delivery: { channels: [] },
        });
        expect(repos.users.getDoc('uidAnn00000000000001')?.notificationSettings.enabled).toBe(false);
      }
    } finally {
      db.close();
    }
  });
});
