// Messages on the real server over a temporary SQLite file: the client's message id is the send's
// idempotency key (stored once, a repeat changes nothing), createdAt never goes back within a channel, and pages
// by (createdAt, id) cursors return every message once, in order, whatever timestamps messages share.
import { newDocumentId } from '../../core/ids';
import { compareMessages, cursorOf, encodeCursor } from '../../core/messages';
import type { MessageCursor } from '../../core/messages';
import type { ChatMessage } from '../../core/model';
import { pushToken } from '../../drivers/webPushTokens';
import { openStream, waitFor } from './support/sse';
import { demoIds, expectError, startTestServer, withDemoServer, pendingCount } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

const HALF_HOUR = 30 * 60 * 1000;

let server: TestServer;
let ids: DemoIds;
withDemoServer((world) => ({ server, ids } = world));

const send = (token: string, channel: string, body: unknown) =>
  server.request('POST', `/api/channels/${channel}/messages`, { token, body });
const sent = async (token: string, channel: string, body: unknown): Promise<ChatMessage> => {
  const res = await send(token, channel, body);
  expect({ code: res.statusCode, body: res.body }).toEqual({ code: 200, body: expect.any(String) });
  return res.json<ChatMessage>();
};
const list = async (token: string, channel: string, query = ''): Promise<ChatMessage[]> => {
  const res = await server.request('GET', `/api/channels/${channel}/messages${query}`, { token });
  expect({ code: res.statusCode, body: res.body }).toEqual({ code: 200, body: expect.any(String) });
  return res.json<{ messages: ChatMessage[] }>().messages;
};
const count = (sql: string, ...params: unknown[]): number =>
  server.query<{ n: number }>(sql, ...params)[0]?.n ?? -1;
const rowsWithId = (id: string) => count('SELECT COUNT(*) AS n FROM messages WHERE id = ?', id);
const pendingOf = (uid: string, channel: string) => pendingCount(server, uid, channel);
const pushJobsOf = (messageId: string) =>
  count('SELECT COUNT(*) AS n FROM push_jobs WHERE message_id = ?', messageId);

/** Gives the member a browser that wants push, so that a message from someone else queues a push job. */
async function memberWantsPush(): Promise<void> {
  const res = await server.request('POST', `/api/users/${ids.uid.member}/tokens`, {
    token: ids.token.member,
    body: { token: pushToken('messages-member'), deviceId: 'phone', platform: 'web', userAgent: 'test' },
  });
  expect(res.statusCode).toBe(200);
}

describe('a message under the id the client chose', () => {
  it('is stored and answered under that id', async () => {
    const id = newDocumentId();
    const message = await sent(ids.token.member, ids.strategy, { id, text: '  Named by my outbox  ' });
    expect(message).toEqual({
      id,
      channelId: ids.strategy,
      senderId: ids.uid.member,
      senderName: 'Morgan',
      text: 'Named by my outbox',
      createdAt: server.clock.now(),
    });
    expect((await list(ids.token.consultant, ids.strategy)).at(-1)).toEqual(message);
  });

  it('is named by the server when the client sends no id', async () => {
    const message = await sent(ids.token.member, ids.strategy, { text: 'No id of my own' });
    expect(message.id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(rowsWithId(message.id)).toBe(1);
  });

  it('repeated by its sender, answers the stored message and changes nothing, whatever the text', async () => {
    await memberWantsPush();
    const stream = await openStream(server, ids.token.member);
    try {
      const id = newDocumentId();
      const stored = await sent(ids.token.consultant, ids.strategy, { id, text: 'The real text' });
      const pending = pendingOf(ids.uid.member, ids.strategy);
      const jobs = pushJobsOf(id);
      expect(jobs).toBe(1);
      const messages = count('SELECT COUNT(*) AS n FROM messages');

      server.clock.advance(5000);
      // An outbox retrying after a lost answer, from another session of the same person, with other words.
      const again = await send((await server.signIn('consultant')).accessToken, ids.strategy, {
        id,
        text: 'Something else entirely',
      });
      expect({ code: again.statusCode, body: again.json() }).toEqual({ code: 200, body: stored });

      expect(count('SELECT COUNT(*) AS n FROM messages')).toBe(messages);
      expect(pendingOf(ids.uid.member, ids.strategy)).toBe(pending);
      expect(pushJobsOf(id)).toBe(jobs);
      expect((await list(ids.token.member, ids.strategy)).filter((m) => m.id === id)).toEqual([stored]);
      // Nothing was streamed for the repeat: the next message comes right after the first.
      const next = await sent(ids.token.consultant, ids.strategy, { text: 'And a new one' });
      const streamed = () => stream.events.filter((e) => e.event === 'message').map((e) => e.data);
      await waitFor(() => (streamed().length >= 2 ? true : undefined));
      expect(streamed()).toEqual([{ message: stored }, { message: next }]);
    } finally {
      stream.close();
    }
  });

  it('sent many times at once makes one message, counted and pushed once', async () => {
    await memberWantsPush();
    const id = newDocumentId();
    const pending = pendingOf(ids.uid.member, ids.strategy);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send(ids.token.consultant, ids.strategy, { id, text: `try ${i}` }),
      ),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(Array.from({ length: 20 }, () => 200));
    const bodies = answers.map((res) => res.json<ChatMessage>());
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    expect(rowsWithId(id)).toBe(1);
    expect(pendingOf(ids.uid.member, ids.strategy)).toBe(pending + 1);
    expect(pushJobsOf(id)).toBe(1);
  });

  it('already used by someone else is ALREADY_EXISTS, and their message stays as it was', async () => {
    const id = newDocumentId();
    const theirs = await sent(ids.token.member, ids.strategy, { id, text: 'Mine' });
    const pending = pendingOf(ids.uid.member, ids.strategy);
    const error = expectError(
      await send(ids.token.consultant, ids.strategy, { id, text: 'Theirs' }),
      409,
      'ALREADY_EXISTS',
    );
    expect(error.message).toMatch(/id/);
    expect(pendingOf(ids.uid.member, ids.strategy)).toBe(pending);
    expect((await list(ids.token.consultant, ids.strategy)).filter((m) => m.id === id)).toEqual([theirs]);
  });

  it('already used by the caller in another channel is ALREADY_EXISTS there, and nothing is stored', async () => {
    const id = newDocumentId();
    const first = await sent(ids.token.consultant, ids.strategy, { id, text: 'In the studio' });
    const before = await list(ids.token.consultant, ids.growth);
    expectError(
      await send(ids.token.consultant, ids.growth, { id, text: 'In the clinic' }),
      409,
      'ALREADY_EXISTS',
    );
    expect(await list(ids.token.consultant, ids.growth)).toEqual(before);
    expect(server.query('SELECT channel_id FROM messages WHERE id = ?', id)).toEqual([
      { channel_id: first.channelId },
    ]);
  });

  it.each([
    ['too short', 'abc'],
    ['too long', 'A'.repeat(21)],
    ['with a dash', 'AAAAAAAAAA-AAAAAAAAA'],
    ['empty', ''],
    ['a number', 1234567890],
    ['null', null],
  ])('refuses an id that is %s, and stores nothing', async (_label, id) => {
    const messages = count('SELECT COUNT(*) AS n FROM messages');
    const error = expectError(
      await send(ids.token.member, ids.strategy, { id, text: 'hi' }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(error.message).toMatch(/^id: /);
    expect(count('SELECT COUNT(*) AS n FROM messages')).toBe(messages);
  });

  it('is checked for the channel before the id: an outsider learns nothing about it', async () => {
    const id = newDocumentId();
    await sent(ids.token.member, ids.strategy, { id, text: 'Private' });
    expectError(await send(ids.token.visitor, ids.strategy, { id, text: 'Guess' }), 403, 'PERMISSION_DENIED');
  });
});

describe('createdAt', () => {
  it('never goes back in a channel, even when the server clock does; other channels keep their own time', async () => {
    const first = await sent(ids.token.member, ids.strategy, { text: 'Now' });
    // Back 30 minutes: behind the studio's newest message, still ahead of the clinic's (40 minutes old).
    server.clock.advance(-HALF_HOUR);
    try {
      const second = await sent(ids.token.consultant, ids.strategy, { text: 'Earlier by the clock' });
      expect(second.createdAt).toBe(first.createdAt);
      // What a client that holds `first` catches up with (everything from its millisecond on) includes it.
      const caughtUp = await list(ids.token.member, ids.strategy, `?after=${first.createdAt}`);
      expect(caughtUp.map((m) => m.id).sort()).toEqual([first.id, second.id].sort());
      const elsewhere = await sent(ids.token.consultant, ids.growth, { text: 'Clinic' });
      expect(elsewhere.createdAt).toBe(server.clock.now());
    } finally {
      server.clock.advance(HALF_HOUR);
    }
  });

  it('moves on with the clock once it is ahead of the channel again', async () => {
    const first = await sent(ids.token.member, ids.strategy, { text: 'One' });
    server.clock.advance(7);
    expect((await sent(ids.token.member, ids.strategy, { text: 'Two' })).createdAt).toBe(first.createdAt + 7);
  });
});

describe('pages of a channel’s messages', () => {
  const page = (channel: string, query: string) => list(ids.token.member, channel, query);

  it('answers the newest first page, then older ones with before, each oldest first', async () => {
    const all = await page(ids.strategy, '');
    expect(all.length).toBeGreaterThanOrEqual(4);
    const last2 = await page(ids.strategy, '?limit=2');
    expect(last2).toEqual(all.slice(-2));
    const oldest = last2[0];
    if (!oldest) throw new Error('no page');
    expect(await page(ids.strategy, `?before=${encodeCursor(cursorOf(oldest))}&limit=1`)).toEqual(
      all.slice(-3, -2),
    );
    // A bare time stands for "before that millisecond".
    expect(await page(ids.strategy, `?before=${oldest.createdAt}&limit=1`)).toEqual(all.slice(-3, -2));
  });

  it('answers the oldest after a cursor, oldest first, and nothing after the newest', async () => {
    const all = await page(ids.strategy, '');
    const first = all[0];
    const newest = all.at(-1);
    if (!first || !newest) throw new Error('no messages');
    expect(await page(ids.strategy, `?after=${encodeCursor(cursorOf(first))}&limit=2`)).toEqual(
      all.slice(1, 3),
    );
    expect(await page(ids.strategy, `?after=0&limit=100`)).toEqual(all);
    expect(await page(ids.strategy, `?after=${encodeCursor(cursorOf(newest))}`)).toEqual([]);
  });

  it.each([
    ['a word as cursor', '?before=yesterday', /^before: /],
    ['a negative time', '?before=-5', /^before: /],
    ['a fraction', '?after=1.5', /^after: /],
    ['an empty cursor', '?after=', /^after: /],
    ['a time of 17 digits', '?after=12345678901234567', /^after: /],
    ['a malformed id', '?before=1768046400000_short', /^before: /],
    ['an id with a dash', '?before=1768046400000_AAAAAAAAAA-AAAAAAAAA', /^before: /],
    ['a trailing part', '?before=1768046400000_AAAAAAAAAAAAAAAAAAAA_x', /^before: /],
    ['two cursors of one kind', '?before=1&before=2', /^before: /],
    ['both before and after', '?before=2&after=1', /before or after, not both/],
    ['a limit of 0', '?limit=0', /^limit: /],
    ['a limit over 100', '?limit=101', /^limit: /],
    ['a limit that is a word', '?limit=ten', /^limit: /],
    ['an unknown parameter', '?since=1', /since/],
  ])('refuses %s as INVALID_ARGUMENT with a clear message', async (_label, query, message) => {
    const res = await server.request('GET', `/api/channels/${ids.strategy}/messages${query}`, {
      token: ids.token.member,
    });
    expect(expectError(res, 400, 'INVALID_ARGUMENT').message).toMatch(message);
  });
});

describe('300 messages posted at once, many sharing a millisecond', () => {
  let busy: TestServer;
  let busyIds: DemoIds;
  beforeAll(async () => {
    // The clock moves 1 ms every 10 readings: concurrent sends land several to a millisecond, and some pages end
    // inside a millisecond, whatever order the requests run in.
    let readings = 0;
    const start = Date.UTC(2026, 0, 15, 12);
    busy = await startTestServer({ now: () => start + Math.floor(readings++ / 10) });
    busyIds = await demoIds(busy);
  });
  afterAll(() => busy.close());

  const listAs = async (query: string): Promise<ChatMessage[]> => {
    const res = await busy.request('GET', `/api/channels/${busyIds.strategy}/messages${query}`, {
      token: busyIds.token.member,
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ messages: ChatMessage[] }>().messages;
  };

  it('are each paged through once, in (createdAt, id) order, back with before and forward with after', async () => {
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        busy.request('POST', `/api/channels/${busyIds.strategy}/messages`, {
          token: i % 2 === 0 ? busyIds.token.consultant : busyIds.token.member,
          // Half name their messages, half leave it to the server.
          body: i % 3 === 0 ? { text: `burst ${i}` } : { id: newDocumentId(), text: `burst ${i}` },
        }),
      ),
    );
    expect(answers.filter((res) => res.statusCode !== 200)).toEqual([]);

    const stored = busy
      .query<{ id: string; created_at: number }>(
        'SELECT id, created_at FROM messages WHERE channel_id = ?',
        busyIds.strategy,
      )
      .map((row) => ({ id: row.id, createdAt: row.created_at }))
      .sort(compareMessages);
    expect(stored.length).toBeGreaterThanOrEqual(300);
    const perMillisecond = new Map<number, number>();
    for (const m of stored) perMillisecond.set(m.createdAt, (perMillisecond.get(m.createdAt) ?? 0) + 1);
    const shared = [...perMillisecond.values()].filter((n) => n > 1);
    // Many share a millisecond, and there is more than one millisecond (so pages also cross them).
    expect(shared.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(100);
    expect(perMillisecond.size).toBeGreaterThan(1);
    const expected = stored.map((m) => m.id);

    const back: ChatMessage[] = [];
    let pageBack = await listAs('?limit=7');
    while (pageBack.length > 0) {
      back.unshift(...pageBack);
      const oldest = pageBack[0];
      if (!oldest) break;
      pageBack = await listAs(`?before=${encodeCursor(cursorOf(oldest))}&limit=7`);
    }
    expect(back.map((m) => m.id)).toEqual(expected);

    const forward: ChatMessage[] = [];
    let cursor: MessageCursor = { createdAt: 0, id: '' };
    for (;;) {
      const next = await listAs(`?after=${encodeCursor(cursor)}&limit=11`);
      const newest = next.at(-1);
      if (!newest) break;
      forward.push(...next);
      cursor = cursorOf(newest);
    }
    expect(forward.map((m) => m.id)).toEqual(expected);
    expect(forward).toEqual(back);
  });
});
