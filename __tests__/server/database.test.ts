import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { FOREIGN_KEYS_OFF, migrate, readMigrations } from '../../server/db/migrate';
import { DATABASE_FILE, openDatabase } from '../../server/db/database';
import { createRepos } from '../../server/repo';
import { PasswordHasher } from '../../server/auth/passwords';
import { FORMER_MEMBER_ID, FORMER_MEMBER_NAME } from '../../core/leaving';
import { startTestServer, TEST_SCRYPT_COST } from './support/testServer';

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
      expect(repos.messages.countUnread('c', 'u')).toBe(1);
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
    const session = await first.signUp({ email: 'keeper@example.com', password: 'long enough pw' });
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
      // The four sign-ins and Growth Clinic's two other clients (the former member is no account).
      expect(count(second.dbFile, 'SELECT COUNT(*) AS n FROM users WHERE email IS NOT NULL')).toBe(6);
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
      expect(count(second.dbFile, 'SELECT COUNT(*) AS n FROM users WHERE email IS NOT NULL')).toBe(0);
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

describe('migration 012: the former member is no account', () => {
  const RESERVED = 'former-member@qupm.invalid';
  const ACCOUNT_IDS = {
    owner: 'uidOwner000000000001',
    member: 'uidMember00000000001',
    squatter: 'uidSquat000000000001',
  };

  /** A database as the code before migration 012 left it, with an owner's channel and a member who wrote in it. */
  async function databaseBefore011(setUp: (db: Database.Database) => void): Promise<string> {
    const file = path.join(dir, DATABASE_FILE);
    const db = new Database(file);
    try {
      db.pragma('foreign_keys = ON');
      migrate(
        db,
        readMigrations().filter((m) => m.version < 12),
      );
      const hash = await new PasswordHasher(TEST_SCRYPT_COST).hash('the member password');
      const user = db.prepare(
        `INSERT INTO users (uid, email, password_hash, is_owner, notification_settings, created_at)
         VALUES (?, ?, ?, ?, '{}', 0)`,
      );
      user.run(ACCOUNT_IDS.owner, 'owner@example.com', hash, 1);
      user.run(ACCOUNT_IDS.member, 'member@example.com', hash, 0);
      db.exec(`INSERT INTO channels (id, channel_id, owner_id, title, created_at)
                 VALUES ('chanStudio0000000001', 'studio', '${ACCOUNT_IDS.owner}', 'Studio', 0);
               INSERT INTO channel_members (channel_id, uid, joined_at)
                 VALUES ('chanStudio0000000001', '${ACCOUNT_IDS.member}', 0);
               INSERT INTO messages (id, channel_id, sender_id, sender_name, text, created_at)
                 VALUES ('msgMember00000000001', 'chanStudio0000000001', '${ACCOUNT_IDS.member}', 'Mo', 'Hi', 1);`);
      setUp(db);
    } finally {
      db.close();
    }
    return file;
  }

  it('repairs a database where someone took the reserved address first: deleting an account then works', async () => {
    await databaseBefore011((db) => {
      // The broken state: a sign-up took the address, so no placeholder could ever be inserted.
      db.prepare(
        `INSERT INTO users (uid, email, password_hash, notification_settings, created_at)
         VALUES (?, ?, 'h', '{}', 0)`,
      ).run(ACCOUNT_IDS.squatter, RESERVED);
    });
    const server = await startTestServer({ dir, keepDir: true, demo: false });
    try {
      const signIn = await server.request('POST', '/api/auth/signin', {
        body: { email: 'member@example.com', password: 'the member password' },
      });
      expect(signIn.statusCode).toBe(200);
      const session = signIn.json<{ accessToken: string }>();
      const res = await server.request('DELETE', `/api/users/${ACCOUNT_IDS.member}`, {
        token: session.accessToken,
        body: { password: 'the member password' },
      });
      expect({ code: res.statusCode, body: res.json() }).toEqual({ code: 200, body: { success: true } });
      expect(server.query('SELECT sender_id, sender_name FROM messages')).toEqual([
        { sender_id: FORMER_MEMBER_ID, sender_name: FORMER_MEMBER_NAME },
      ]);
      // The account that held the address is still someone's, untouched.
      expect(server.query('SELECT uid FROM users WHERE email = ?', RESERVED)).toEqual([
        { uid: ACCOUNT_IDS.squatter },
      ]);
    } finally {
      await server.close();
    }
  });

  it('takes the address, the password and whatever was reached through them from a placeholder that had them', async () => {
    await databaseBefore011((db) => {
      db.exec(`INSERT INTO users (uid, email, password_hash, display_name, nickname, is_owner, credits,
                   notification_settings, created_at)
                 VALUES ('${FORMER_MEMBER_ID}', '${RESERVED}', 'scrypt$taken$over', 'A former member', 'Mallory', 1,
                   40, '{"enabled":true,"delivery":{"channels":["push"]}}', 0);
               UPDATE messages SET sender_id = '${FORMER_MEMBER_ID}', sender_name = 'A former member';
               INSERT INTO email_tokens (token_hash, uid, purpose, email, created_at, expires_at)
                 VALUES ('resetHash', '${FORMER_MEMBER_ID}', 'reset-password', '${RESERVED}', 0, 9999999999999);
               INSERT INTO refresh_tokens (token_hash, family_id, uid, created_at, expires_at)
                 VALUES ('refreshHash', 'family', '${FORMER_MEMBER_ID}', 0, 9999999999999);
               INSERT INTO channel_members (channel_id, uid, joined_at)
                 VALUES ('chanStudio0000000001', '${FORMER_MEMBER_ID}', 0);`);
    });
    const db = openDatabase(path.join(dir, DATABASE_FILE));
    try {
      expect(db.prepare('SELECT * FROM users WHERE uid = ?').get(FORMER_MEMBER_ID)).toEqual({
        uid: FORMER_MEMBER_ID,
        email: null,
        password_hash: null,
        is_admin: 0,
        is_owner: 0,
        domain_id: null,
        nickname: null,
        display_name: FORMER_MEMBER_NAME,
        notification_settings: '{"enabled":false,"delivery":{"channels":[]}}',
        credits: 0,
        pass_count: 0,
        created_at: 0,
        email_verified_at: null,
      });
      // Its messages stay its own; every other trace of it went.
      expect(db.prepare('SELECT sender_id FROM messages').all()).toEqual([{ sender_id: FORMER_MEMBER_ID }]);
      for (const table of ['email_tokens', 'refresh_tokens', 'channel_members']) {
        expect(db.prepare(`SELECT * FROM ${table} WHERE uid = ?`).all(FORMER_MEMBER_ID)).toEqual([]);
      }
      expect(db.pragma('foreign_key_check')).toEqual([]);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    } finally {
      db.close();
    }
  });

  it('is there from the start, and the schema gives no account its lack of an address or a password', () => {
    const db = openDatabase(':memory:');
    try {
      expect(db.prepare('SELECT email, password_hash FROM users').all()).toEqual([
        { email: null, password_hash: null },
      ]);
      const insert = db.prepare(
        `INSERT INTO users (uid, email, password_hash, notification_settings, created_at) VALUES (?, ?, ?, '{}', 0)`,
      );
      expect(() => insert.run('uidNoAddress00000001', null, 'h')).toThrow(/CHECK constraint failed/);
      expect(() => insert.run('uidNoPassword0000001', 'a@example.com', null)).toThrow(
        /CHECK constraint failed/,
      );
      expect(() =>
        db.prepare('UPDATE users SET email = ? WHERE uid = ?').run(RESERVED, FORMER_MEMBER_ID),
      ).toThrow(/CHECK constraint failed/);
      // No look-up of an account finds it.
      const repos = createRepos(db);
      expect(repos.users.findAccount(FORMER_MEMBER_ID)).toBeUndefined();
      expect(repos.users.exists(FORMER_MEMBER_ID)).toBe(false);
      expect(repos.users.getDoc(FORMER_MEMBER_ID)).toBeNull();
      expect(repos.users.setPasswordHash(FORMER_MEMBER_ID, 'scrypt$x')).toBe(false);
      expect(repos.users.count()).toBe(0);
      expect(repos.users.publicName(FORMER_MEMBER_ID)).toBe(FORMER_MEMBER_NAME);
    } finally {
      db.close();
    }
  });
});

describe('a migration that runs with foreign keys off', () => {
  it('commits nothing when it would leave a key pointing nowhere, and turns the keys back on', () => {
    const db = new Database(':memory:');
    try {
      db.pragma('foreign_keys = ON');
      const migrations = [
        {
          version: 1,
          name: 'tables',
          sql: 'CREATE TABLE a (id TEXT PRIMARY KEY); CREATE TABLE b (a_id TEXT REFERENCES a (id));',
        },
        { version: 2, name: 'rows', sql: "INSERT INTO a VALUES ('x'); INSERT INTO b VALUES ('x');" },
        { version: 3, name: 'orphans', sql: `${FOREIGN_KEYS_OFF}\nDELETE FROM a;` },
      ];
      expect(() => migrate(db, migrations)).toThrow(/broken foreign keys/);
      expect(db.prepare('SELECT id FROM a').all()).toEqual([{ id: 'x' }]);
      expect(db.prepare('SELECT version FROM schema_migrations').all()).toEqual([
        { version: 1 },
        { version: 2 },
      ]);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    } finally {
      db.close();
    }
  });
});
