// On the real server over a temporary SQLite file: a sender edits their message for 24 hours and
// deletes it at any time (its text gone from the database, a tombstone left), the channel's owner deletes anyone's;
// each refusal writes nothing; a change is streamed to the channel's people but queues no push and counts nothing
// pending; and `changedAfter` pages through a channel's changes in version order, so a reader that was away
// catches up on changes of messages older than the ones it holds.
import { newDocumentId } from '../../core/ids';
import { encodeCursor, versionOf } from '../../core/messages';
import type { ChatMessage } from '../../core/model';
import { pushToken } from '../../drivers/webPushTokens';
import { openStream, waitFor } from './support/sse';
import { expectError, withDemoServer, pendingCount } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

const DAY = 24 * 60 * 60 * 1000;

let server: TestServer;
let ids: DemoIds;
withDemoServer((world) => ({ server, ids } = world));

/** A new access token (tokens last 15 minutes; these tests move the clock by days). */
const fresh = async (role: 'member' | 'consultant') => (await server.signIn(role)).accessToken;
const path = (channel: string, message: string) => `/api/channels/${channel}/messages/${message}`;
const edit = (token: string, channel: string, message: string, body: unknown) =>
  server.request('PATCH', path(channel, message), { token, body });
const remove = (token: string, channel: string, message: string) =>
  server.request('DELETE', path(channel, message), { token });
const ok = <T>(res: { statusCode: number; body: string; json: <U>() => U }): T => {
  expect({ code: res.statusCode, body: res.body }).toEqual({ code: 200, body: expect.any(String) });
  return res.json<T>();
};
const send = async (token: string, text: string): Promise<ChatMessage> =>
  ok<ChatMessage>(
    await server.request('POST', `/api/channels/${ids.strategy}/messages`, {
      token,
      body: { id: newDocumentId(), text },
    }),
  );
const row = (id: string) =>
  server.query<{
    text: string;
    edited_at: number | null;
    deleted_at: number | null;
    updated_at: number | null;
  }>('SELECT text, edited_at, deleted_at, updated_at FROM messages WHERE id = ?', id)[0];
const count = (sql: string, ...params: unknown[]) => server.query<{ n: number }>(sql, ...params)[0]?.n ?? -1;
const pendingOf = (uid: string) => pendingCount(server, uid, ids.strategy);

describe('editing a message', () => {
  it('changes its text (trimmed) and marks it edited; the channel lists it so', async () => {
    const sent = await send(ids.token.member, 'Helo');
    server.clock.advance(1000);
    const edited = ok<ChatMessage>(
      await edit(ids.token.member, ids.strategy, sent.id, { text: '  Hello  ' }),
    );
    expect(edited).toEqual({
      ...sent,
      text: 'Hello',
      editedAt: server.clock.now(),
      updatedAt: server.clock.now(),
    });
    const listed = ok<{ messages: ChatMessage[] }>(
      await server.request('GET', `/api/channels/${ids.strategy}/messages`, { token: ids.token.consultant }),
    ).messages;
    expect(listed.find((m) => m.id === sent.id)).toEqual(edited);
  });

  it.each([
    ['someone else’s message', 'consultant', 0, 403, 'PERMISSION_DENIED'],
    ['one sent 24 hours ago', 'member', DAY, 400, 'FAILED_PRECONDITION'],
  ] as const)('refuses %s and writes nothing', async (_what, who, wait, code, status) => {
    const sent = await send(ids.token.member, 'Original');
    server.clock.advance(wait);
    const error = expectError(
      await edit(await fresh(who), ids.strategy, sent.id, { text: 'Changed' }),
      code,
      status,
    );
    expect(error.message).not.toMatch(/Error|at \//);
    expect(row(sent.id)).toEqual({ text: 'Original', edited_at: null, deleted_at: null, updated_at: null });
  });

  it('refuses an empty or too long text, a stray field, an unknown message and someone outside the channel', async () => {
    const sent = await send(ids.token.member, 'Original');
    expectError(
      await edit(ids.token.member, ids.strategy, sent.id, { text: '   ' }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(
      await edit(ids.token.member, ids.strategy, sent.id, { text: 'x'.repeat(4001) }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(
      await edit(ids.token.member, ids.strategy, sent.id, { text: 'Hi', senderId: ids.uid.consultant }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(
      await edit(ids.token.member, ids.strategy, 'not-an-id', { text: 'Hi' }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(
      await edit(ids.token.member, ids.strategy, newDocumentId(), { text: 'Hi' }),
      404,
      'NOT_FOUND',
    );
    // The message exists, but in another channel than the one named.
    expectError(await edit(ids.token.consultant, ids.growth, sent.id, { text: 'Hi' }), 404, 'NOT_FOUND');
    expectError(
      await edit(ids.token.visitor, ids.strategy, sent.id, { text: 'Hi' }),
      403,
      'PERMISSION_DENIED',
    );
    expectError(await edit('', ids.strategy, sent.id, { text: 'Hi' }), 401, 'UNAUTHENTICATED');
    expect(row(sent.id)?.text).toBe('Original');
  });
});

describe('deleting a message', () => {
  it('removes its text from the database and leaves a tombstone, for its sender at any time', async () => {
    const sent = await send(ids.token.member, 'A secret I should not have posted');
    server.clock.advance(3 * DAY);
    const tombstone = ok<ChatMessage>(await remove(await fresh('member'), ids.strategy, sent.id));
    expect(tombstone).toEqual({ ...sent, text: '', deleted: true, updatedAt: server.clock.now() });
    expect(row(sent.id)).toEqual({
      text: '',
      edited_at: null,
      deleted_at: server.clock.now(),
      updated_at: server.clock.now(),
    });
    expect(count("SELECT COUNT(*) AS n FROM messages WHERE text LIKE '%secret%'")).toBe(0);
  });

  it("lets the channel's owner delete a member's message, and refuses a member the owner's", async () => {
    const mine = await send(ids.token.consultant, 'From the consultant');
    const theirs = await send(ids.token.member, 'From the member');
    expectError(await remove(ids.token.member, ids.strategy, mine.id), 403, 'PERMISSION_DENIED');
    expect(row(mine.id)?.text).toBe('From the consultant');
    expect(ok<ChatMessage>(await remove(ids.token.consultant, ids.strategy, theirs.id)).deleted).toBe(true);
  });

  it('refuses a deleted message a second time, and an edit of it, changing nothing', async () => {
    const sent = await send(ids.token.member, 'Gone soon');
    ok(await remove(ids.token.member, ids.strategy, sent.id));
    const before = row(sent.id);
    server.clock.advance(1000);
    const again = expectError(
      await remove(ids.token.member, ids.strategy, sent.id),
      400,
      'FAILED_PRECONDITION',
    );
    expect(again.message).toMatch(/deleted/);
    expectError(
      await edit(ids.token.member, ids.strategy, sent.id, { text: 'Back' }),
      400,
      'FAILED_PRECONDITION',
    );
    expect(row(sent.id)).toEqual(before);
  });
});

describe('a change, live', () => {
  it('is streamed to the channel’s people, with no push queued and nothing counted pending', async () => {
    const res = await server.request('POST', `/api/users/${ids.uid.member}/tokens`, {
      token: ids.token.member,
      body: { token: pushToken('edits-member'), deviceId: 'phone', platform: 'web', userAgent: 'test' },
    });
    expect(res.statusCode).toBe(200);
    const sent = await send(ids.token.consultant, 'Hello');
    const jobs = count('SELECT COUNT(*) AS n FROM push_jobs');
    const pending = pendingOf(ids.uid.member);
    expect(pending).toBeGreaterThan(0);
    const stream = await openStream(server, ids.token.member);
    try {
      server.clock.advance(1);
      const edited = ok<ChatMessage>(
        await edit(ids.token.consultant, ids.strategy, sent.id, { text: 'Hello!' }),
      );
      server.clock.advance(1);
      const tombstone = ok<ChatMessage>(await remove(ids.token.consultant, ids.strategy, sent.id));
      const streamed = () => stream.events.filter((e) => e.event === 'message').map((e) => e.data);
      await waitFor(() => (streamed().length >= 2 ? true : undefined));
      expect(streamed()).toEqual([{ message: edited }, { message: tombstone }]);
      expect(count('SELECT COUNT(*) AS n FROM push_jobs')).toBe(jobs);
      expect(pendingOf(ids.uid.member)).toBe(pending);
    } finally {
      stream.close();
    }
  });

  it('pages through the changes after a version, in order, each once, also of messages sent long before', async () => {
    const old = await send(ids.token.member, 'Old');
    server.clock.advance(DAY / 2);
    ids.token.member = await fresh('member');
    ids.token.consultant = await fresh('consultant');
    const recent = await send(ids.token.member, 'Recent');
    const held = versionOf(recent);
    // Two changes in one millisecond, and the second edit of one message a millisecond on.
    const first = ok<ChatMessage>(
      await edit(ids.token.member, ids.strategy, old.id, { text: 'Old, edited' }),
    );
    const second = ok<ChatMessage>(await remove(ids.token.member, ids.strategy, recent.id));
    const third = ok<ChatMessage>(await edit(ids.token.member, ids.strategy, old.id, { text: 'Old, again' }));
    expect(versionOf(first)).toBe(held);
    expect(versionOf(second)).toBe(held + 1);
    expect(versionOf(third)).toBe(held + 1);
    const changed = async (cursor: string, limit = 50) =>
      ok<{ messages: ChatMessage[] }>(
        await server.request(
          'GET',
          `/api/channels/${ids.strategy}/messages?changedAfter=${cursor}&limit=${limit}`,
          {
            token: ids.token.consultant,
          },
        ),
      ).messages;
    // Both now stand at held + 1 (the first edit was overtaken by the third): ordered by id within it.
    expect(await changed(String(held))).toEqual([second, third].sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect(await changed(String(held + 2))).toEqual([]);
    const page = await changed(String(held + 1), 1);
    expect(page).toHaveLength(1);
    const rest = await changed(encodeCursor({ createdAt: held + 1, id: page[0]?.id ?? '' }));
    expect([...page, ...rest].map((m) => m.id).sort()).toEqual([old.id, recent.id].sort());
    expectError(
      await server.request('GET', `/api/channels/${ids.strategy}/messages?changedAfter=1&after=1`, {
        token: ids.token.consultant,
      }),
      400,
      'INVALID_ARGUMENT',
    );
  });
});
