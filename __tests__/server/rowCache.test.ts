// The rows kept for every request (server/db/rowCache.ts): kept when read outside a transaction, dropped by any
// write to their tables (whichever statement or cascade made it), never filled from a transaction that could
// still be undone; and through the server, a person removed from a channel or an account deleted is refused at
// once, though the channel and the account were kept a moment before.
import { openDatabase } from '../../server/db/database';
import type { Db } from '../../server/db/database';
import { RowCache } from '../../server/db/rowCache';
import { createRepos } from '../../server/repo';
import type { Repos } from '../../server/repo';
import { DEMO_PASSWORD } from '../../server/demo';
import { expectError, withDemoServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

let db: Db;
let repos: Repos;

const NOW = 1_700_000_000_000;

function addUser(uid: string): void {
  repos.users.insert({ uid, email: `${uid}@example.com`, passwordHash: 'x', createdAt: NOW });
}

beforeEach(() => {
  db = openDatabase(':memory:');
  repos = createRepos(db);
  addUser('owner');
  addUser('guest');
  repos.channels.insert({
    id: 'c1',
    channelId: 'studio',
    ownerId: 'owner',
    title: 'Studio',
    description: '',
    createdAt: NOW,
  });
});

afterEach(() => db.close());

/** A cache over `channels` counting its reads of the database. */
function countingCache(): { cache: RowCache<{ title: string }>; reads: () => number; get: () => unknown } {
  const cache = new RowCache<{ title: string }>(db, 'titles', [{ table: 'channels', keyColumn: 'id' }]);
  const statement = db.prepare<[string], { title: string }>('SELECT title FROM channels WHERE id = ?');
  let reads = 0;
  const get = () =>
    cache.get('c1', () => {
      reads += 1;
      return statement.get('c1') ?? null;
    });
  return { cache, reads: () => reads, get };
}

describe('a row cache', () => {
  it('reads a row once and answers it from memory until its row is written', () => {
    const { reads, get } = countingCache();
    expect(get()).toEqual({ title: 'Studio' });
    expect(get()).toEqual({ title: 'Studio' });
    expect(reads()).toBe(1);
    db.prepare("UPDATE channels SET title = 'Renamed' WHERE id = 'c1'").run();
    expect(get()).toEqual({ title: 'Renamed' });
    expect(reads()).toBe(2);
  });

  it('keeps nothing read inside a transaction, which could still be undone', () => {
    const { cache, reads, get } = countingCache();
    expect(() =>
      db.transaction(() => {
        db.prepare("UPDATE channels SET title = 'Undone' WHERE id = 'c1'").run();
        expect(get()).toEqual({ title: 'Undone' });
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    expect(cache.size).toBe(0);
    expect(get()).toEqual({ title: 'Studio' });
    expect(reads()).toBe(2);
  });

  it('drops what a rolled-back write touched (dropping needlessly, never keeping a stale row)', () => {
    const { cache, get } = countingCache();
    get();
    expect(cache.size).toBe(1);
    expect(() =>
      db.transaction(() => {
        db.prepare("UPDATE channels SET title = 'Undone' WHERE id = 'c1'").run();
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    expect(cache.size).toBe(0);
    expect(get()).toEqual({ title: 'Studio' });
  });

  it('keeps rows frozen, so no reader can change what the next one reads', () => {
    const { get } = countingCache();
    get();
    const kept = get() as { title: string };
    expect(() => {
      kept.title = 'Changed in place';
    }).toThrow(TypeError);
  });

  it('holds at most its bound, the oldest going first', () => {
    const cache = new RowCache<string>(db, 'bounded', [{ table: 'channels', keyColumn: 'id' }], 2);
    cache.get('a', () => 'A');
    cache.get('b', () => 'B');
    cache.get('c', () => 'C');
    expect(cache.size).toBe(2);
    expect(cache.get('a', () => 'A again')).toBe('A again');
    expect(cache.get('c', () => 'C again')).toBe('C');
  });
});

describe('the kept channels and accounts', () => {
  it('drop a channel when a member joins or leaves, by any statement', () => {
    expect(repos.channels.get('c1')?.members).toEqual([]);
    repos.channels.addMember('c1', 'guest', NOW);
    expect(repos.channels.get('c1')?.members).toEqual(['guest']);
    db.prepare("DELETE FROM channel_members WHERE uid = 'guest'").run();
    expect(repos.channels.get('c1')?.members).toEqual([]);
  });

  it('drop a channel whose member’s account is deleted (the foreign key’s cascade)', () => {
    repos.channels.addMember('c1', 'guest', NOW);
    expect(repos.channels.get('c1')?.members).toEqual(['guest']);
    db.prepare("DELETE FROM users WHERE uid = 'guest'").run();
    expect(repos.channels.get('c1')?.members).toEqual([]);
  });

  it('drop every channel when anyone’s photo changes (the channels carry their people’s faces)', () => {
    repos.channels.addMember('c1', 'guest', NOW);
    expect(repos.channels.get('c1')?.photos).toBeUndefined();
    repos.photos.put({
      id: 'p1',
      uid: 'guest',
      contentType: 'image/png',
      bytes: Buffer.from('png'),
      createdAt: NOW,
    });
    expect(repos.channels.get('c1')?.photos).toEqual({ guest: expect.stringContaining('p1') });
  });

  it('forget an account the moment its row goes', () => {
    expect(repos.users.exists('guest')).toBe(true);
    db.prepare("DELETE FROM users WHERE uid = 'guest'").run();
    expect(repos.users.exists('guest')).toBe(false);
    expect(repos.users.exists('nobody')).toBe(false);
    addUser('nobody');
    expect(repos.users.exists('nobody')).toBe(true);
  });
});

describe('the kept newest page of a channel', () => {
  const send = (n: number, channelId = 'c1'): void =>
    repos.messages.insert({
      id: `m${String(n).padStart(3, '0')}`,
      channelId,
      senderId: 'owner',
      senderName: 'Dana',
      text: `message ${n}`,
      createdAt: NOW + n,
    });
  const texts = (limit: number, channelId = 'c1'): string[] =>
    repos.messages.list(channelId, { limit }).map((message) => message.text);
  /** The page read anew, as the statement answers it (a repository of its own has nothing kept). */
  const fresh = (limit: number): string[] =>
    createRepos(db)
      .messages.list('c1', { limit, before: { createdAt: NOW + 1_000, id: 'z' } })
      .map((message) => message.text);

  beforeEach(() => {
    for (let n = 1; n <= 8; n += 1) send(n);
  });

  it('answers a smaller page as the newest end of the kept one, and a larger one anew', () => {
    expect(texts(5)).toEqual(fresh(5));
    expect(texts(3)).toEqual(['message 6', 'message 7', 'message 8']);
    expect(texts(8)).toEqual(fresh(8));
    expect(texts(20)).toHaveLength(8);
  });

  it('drops the page at a message sent, edited or deleted, by any statement', () => {
    expect(texts(3)).toEqual(['message 6', 'message 7', 'message 8']);
    send(9);
    expect(texts(3)).toEqual(['message 7', 'message 8', 'message 9']);
    db.prepare("UPDATE messages SET text = 'changed' WHERE id = 'm009'").run();
    expect(texts(1)).toEqual(['changed']);
    db.prepare("DELETE FROM messages WHERE id = 'm009'").run();
    expect(texts(1)).toEqual(['message 8']);
  });

  it('drops the page at a reaction given or taken back, though reactions name only their message', () => {
    expect(repos.messages.list('c1', { limit: 2 }).map((message) => message.reactions)).toEqual([
      undefined,
      undefined,
    ]);
    db.prepare("INSERT INTO message_reactions (message_id, uid, emoji) VALUES ('m008', 'guest', '👍')").run();
    expect(repos.messages.list('c1', { limit: 1 })[0]?.reactions).toEqual({ guest: '👍' });
    db.prepare("DELETE FROM message_reactions WHERE message_id = 'm008'").run();
    expect(repos.messages.list('c1', { limit: 1 })[0]?.reactions).toBeUndefined();
  });

  it("keeps one channel's page when another channel's messages change", () => {
    repos.channels.insert({
      id: 'c2',
      channelId: 'other',
      ownerId: 'owner',
      title: 'Other',
      description: '',
      createdAt: NOW,
    });
    const before = repos.messages.list('c1', { limit: 3 });
    send(100, 'c2');
    expect(texts(1, 'c2')).toEqual(['message 100']);
    // The same frozen rows: nothing of c1 was read again.
    expect(repos.messages.list('c1', { limit: 3 })[0]).toBe(before[0]);
  });

  it('never keeps a page holding a message of a transaction that is then undone', () => {
    expect(() =>
      db.transaction(() => {
        send(9);
        expect(texts(1)).toEqual(['message 9']);
        throw new Error('undone');
      })(),
    ).toThrow('undone');
    expect(texts(1)).toEqual(['message 8']);
  });
});

describe('through the server', () => {
  let server: TestServer;
  let ids: DemoIds;
  withDemoServer((world) => ({ server, ids } = world));

  const permissions = (token: string) =>
    server.request('POST', '/api/callable/check_channel_permissions', {
      token,
      body: { data: { channel_id: ids.strategy } },
    });

  it('refuses a removed member at once, though their channel was kept for them a moment before', async () => {
    for (let i = 0; i < 2; i += 1) {
      expect((await permissions(ids.token.member)).json()).toEqual({
        result: { permissions: { canMessage: true, isOwner: false } },
      });
      expect(
        (await server.request('GET', `/api/channels/${ids.strategy}/messages`, { token: ids.token.member }))
          .statusCode,
      ).toBe(200);
    }
    const removed = await server.request(
      'DELETE',
      `/api/channels/${ids.strategy}/members/${ids.uid.member}`,
      {
        token: ids.token.consultant,
      },
    );
    expect(removed.statusCode).toBe(200);
    expect((await permissions(ids.token.member)).json()).toEqual({
      result: { permissions: { canMessage: false, isOwner: false } },
    });
    expectError(
      await server.request('GET', `/api/channels/${ids.strategy}/messages`, { token: ids.token.member }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('answers the newest page as it is after each send, edit, reaction and deletion, read twice between', async () => {
    const page = async (token = ids.token.member) => {
      const res = await server.request('GET', `/api/channels/${ids.strategy}/messages?limit=5`, { token });
      expect(res.statusCode).toBe(200);
      return (res.json() as { messages: Array<{ text: string; deleted?: true; reactions?: object }> })
        .messages;
    };
    const newest = async () => {
      const [first, second] = [await page(), await page(ids.token.consultant)];
      expect(second).toEqual(first);
      return first[first.length - 1];
    };
    const at = (path = '') => `/api/channels/${ids.strategy}/messages${path}`;
    await newest();
    const sent = await server.request('POST', at(), {
      token: ids.token.member,
      body: { text: 'Kept? Not yet.' },
    });
    const { id } = sent.json() as { id: string };
    expect(await newest()).toMatchObject({ text: 'Kept? Not yet.' });
    await server.request('PATCH', at(`/${id}`), { token: ids.token.member, body: { text: 'Edited.' } });
    expect(await newest()).toMatchObject({ text: 'Edited.' });
    await server.request('PUT', at(`/${id}/reaction`), {
      token: ids.token.consultant,
      body: { emoji: '👍' },
    });
    expect((await newest())?.reactions).toEqual({ [ids.uid.consultant]: '👍' });
    await server.request('DELETE', at(`/${id}`), { token: ids.token.member });
    expect(await newest()).toMatchObject({ text: '', deleted: true });
  });

  it('pages back from the newest to the first message, whichever page sizes were kept before', async () => {
    type Page = { messages: Array<{ id: string; createdAt: number }> };
    const at = `/api/channels/${ids.strategy}/messages`;
    const read = async (query: string): Promise<Page['messages']> =>
      ((await server.request('GET', `${at}?${query}`, { token: ids.token.consultant })).json() as Page)
        .messages;
    await read('limit=60');
    for (let i = 0; i < 46; i += 1) {
      const sent = await server.request('POST', at, {
        token: ids.token.consultant,
        body: { text: `Filler ${i}` },
      });
      expect(sent.statusCode).toBe(200);
      // Read between the sends, at both sizes, as open windows and a warm start do.
      if (i % 10 === 0) await read(i % 20 === 0 ? 'limit=60' : 'limit=30');
    }
    // Every message, before a time past them all (a bare time is a cursor); fewer than the largest page.
    const everything = await read(`limit=100&before=${Date.now() + 60_000}`);
    expect(everything.length).toBeGreaterThan(46);
    expect(everything.length).toBeLessThan(100);
    expect(await read('limit=60')).toEqual(everything.slice(-60));
    const newest = await read('limit=30');
    expect(newest).toEqual(everything.slice(-30));
    let shown = newest;
    for (let pages = 0; pages < 10 && shown.length < everything.length; pages += 1) {
      const oldest = shown[0]!;
      const older = await read(`limit=30&before=${encodeURIComponent(`${oldest.createdAt}_${oldest.id}`)}`);
      expect(older.length).toBeGreaterThan(0);
      shown = [...older, ...shown];
    }
    expect(shown).toEqual(everything);
  });

  it('refuses a deleted account’s token at once, though the account was kept a moment before', async () => {
    const me = () => server.request('GET', `/api/users/${ids.uid.visitor}`, { token: ids.token.visitor });
    expect((await me()).statusCode).toBe(200);
    expect((await me()).statusCode).toBe(200);
    const deleted = await server.request('DELETE', `/api/users/${ids.uid.visitor}`, {
      token: ids.token.visitor,
      body: { password: DEMO_PASSWORD },
    });
    expect(deleted.statusCode).toBe(200);
    expectError(await me(), 401, 'UNAUTHENTICATED');
  });
});
