// On the real server over a temporary SQLite file: POST /api/search over migration 018's FTS5 index. What both
// backends answer is the port contract's (__tests__/contract/searchContract.ts); here, what only the embedded
// server has: the index kept by triggers whatever writes the messages, the query joined on membership in SQL (a
// person taken out of a channel finds nothing of it), the rowid guard, and bad bodies over HTTP.
import Database from 'better-sqlite3';
import { newDocumentId } from '../../core/ids';
import type { ChatMessage } from '../../core/model';
import { SEARCH_MESSAGES } from '../../core/search';
import type { SearchPage } from '../../core/search';
import { expectError, withDemoServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

let server: TestServer;
let ids: DemoIds;
withDemoServer((world) => ({ server, ids } = world));

const search = (token: string, body: unknown) => server.request('POST', '/api/search', { token, body });
const hitsOf = async (token: string, body: unknown): Promise<string[]> => {
  const res = await search(token, body);
  expect(res.statusCode).toBe(200);
  return res.json<SearchPage>().hits.map((hit) => hit.text);
};
const send = async (token: string, channelId: string, text: string): Promise<ChatMessage> => {
  const res = await server.request('POST', `/api/channels/${channelId}/messages`, {
    token,
    body: { id: newDocumentId(), text },
  });
  expect(res.statusCode).toBe(200);
  server.clock.advance(10);
  return res.json<ChatMessage>();
};
const indexed = () => server.query<{ n: number }>('SELECT COUNT(*) AS n FROM message_search')[0]?.n ?? -1;
const withText = () =>
  server.query<{ n: number }>("SELECT COUNT(*) AS n FROM messages WHERE text != '' AND deleted_at IS NULL")[0]
    ?.n ?? -2;

describe('the search index (migration 018)', () => {
  it('holds every message with text, and follows sends, edits and deletions', async () => {
    expect(indexed()).toBe(withText());
    const sent = await send(ids.token.member, ids.strategy, 'persimmon jam');
    expect(indexed()).toBe(withText());
    await server.request('PATCH', `/api/channels/${ids.strategy}/messages/${sent.id}`, {
      token: ids.token.member,
      body: { text: 'quince jam' },
    });
    expect(await hitsOf(ids.token.member, { text: 'persimmon' })).toEqual([]);
    expect(await hitsOf(ids.token.member, { text: 'quince' })).toEqual(['quince jam']);
    await server.request('DELETE', `/api/channels/${ids.strategy}/messages/${sent.id}`, {
      token: ids.token.member,
    });
    expect(await hitsOf(ids.token.member, { text: 'quince' })).toEqual([]);
    expect(indexed()).toBe(withText());
  });

  it('lets a channel deleted with its messages take its entries along', async () => {
    await send(ids.token.consultant, ids.growth, 'tangerine notes');
    const before = indexed();
    const inGrowth = server.query<{ n: number }>(
      "SELECT COUNT(*) AS n FROM messages WHERE channel_id = ? AND text != ''",
      ids.growth,
    )[0]?.n;
    const res = await server.request('DELETE', `/api/channels/${ids.growth}`, {
      token: ids.token.consultant,
    });
    expect(res.statusCode).toBe(200);
    expect(indexed()).toBe(before - (inGrowth ?? 0));
    expect(await hitsOf(ids.token.consultant, { text: 'tangerine' })).toEqual([]);
  });

  it('never answers an entry whose rowid names another message (a rowid VACUUM renumbered)', async () => {
    const sent = await send(ids.token.member, ids.strategy, 'elderflower cordial');
    const db = new Database(server.dbFile);
    try {
      db.prepare("UPDATE message_search SET message_id = 'SomeOtherMessage0001' WHERE message_id = ?").run(
        sent.id,
      );
    } finally {
      db.close();
    }
    expect(await hitsOf(ids.token.member, { text: 'elderflower' })).toEqual([]);
  });
});

describe('who finds what', () => {
  it('finds nothing of a channel once the person is taken out of it', async () => {
    await send(ids.token.member, ids.strategy, 'gooseberry fool');
    expect(await hitsOf(ids.token.member, { text: 'gooseberry' })).toEqual(['gooseberry fool']);
    const res = await server.request('DELETE', `/api/channels/${ids.strategy}/members/${ids.uid.member}`, {
      token: ids.token.consultant,
    });
    expect(res.statusCode).toBe(200);
    expect(await hitsOf(ids.token.member, { text: 'gooseberry' })).toEqual([]);
  });

  it("gives an admin only their own channels' messages", async () => {
    await send(ids.token.member, ids.strategy, 'blackcurrant');
    expect(await hitsOf(ids.token.admin, { text: 'blackcurrant' })).toEqual([]);
    expectError(
      await search(ids.token.admin, { text: 'blackcurrant', channelId: ids.strategy }),
      403,
      'PERMISSION_DENIED',
    );
  });
});

describe('bad requests', () => {
  it('refuses no session, a text too long, a body of the wrong shape and an unknown channel, in words', async () => {
    expectError(
      await server.request('POST', '/api/search', { body: { text: 'plan' } }),
      401,
      'UNAUTHENTICATED',
    );
    const long = expectError(
      await search(ids.token.member, { text: 'é'.repeat(10_000) }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(long.message).toBe(SEARCH_MESSAGES.tooLong);
    expectError(await search(ids.token.member, { text: 'x'.repeat(100_000) }), 400, 'INVALID_ARGUMENT');
    expectError(await search(ids.token.member, { text: 42 }), 400, 'INVALID_ARGUMENT');
    expectError(await search(ids.token.member, { text: 'plan', extra: true }), 400, 'INVALID_ARGUMENT');
    expectError(await search(ids.token.member, { text: 'plan', limit: 0 }), 400, 'INVALID_ARGUMENT');
    expectError(
      await search(ids.token.member, { text: 'plan', channelId: 'NoSuchChannel0000001' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await search(ids.token.member, { text: 'plan', channelId: "x' OR 1=1 --" }),
      400,
      'INVALID_ARGUMENT',
    );
  });

  it('reads FTS5 syntax as words, and leaves the messages as they were', async () => {
    await send(ids.token.member, ids.strategy, 'column filters are words');
    const before = server.query<{ n: number }>('SELECT COUNT(*) AS n FROM messages')[0]?.n;
    for (const text of [
      'text:column',
      '{text}:column',
      'column NOT words',
      'NEAR(column words, 1)',
      '"column*',
    ]) {
      expect((await search(ids.token.member, { text })).statusCode).toBe(200);
    }
    expect(await hitsOf(ids.token.member, { text: "'; DELETE FROM messages; --" })).toEqual([]);
    expect(server.query<{ n: number }>('SELECT COUNT(*) AS n FROM messages')[0]?.n).toBe(before);
    expect(await hitsOf(ids.token.member, { text: 'filters column' })).toEqual(['column filters are words']);
  });
});
