// The overview's unread counts are kept (migration 015's triggers) rather than counted per request: after every
// kind of write that touches messages or read marks they equal what a COUNT over the messages says (core/channels.ts
// isUnread, written out again here), for every person and every channel, and the overview answers them.
import type { ChannelOverview, ChatMessage } from '../../core/model';
import { deleteChannel, removeMember } from '../../server/services/housekeeping';
import { callerOf, contextOf } from './support/practice';
import { expectError, withDemoServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

let server: TestServer;
let ids: DemoIds;
withDemoServer((world) => ({ server, ids } = world));

type Role = 'consultant' | 'member' | 'visitor' | 'admin';

/** Unread by counting, as the overview did before: messages by others after the mark, all of them without one. */
function counted(uid: string, channelId: string): number {
  const [mark] = server.query<{ at: number; id: string }>(
    'SELECT last_read_at AS at, last_read_id AS id FROM channel_reads WHERE uid = ? AND channel_id = ?',
    uid,
    channelId,
  );
  const messages = server.query<{ id: string; created_at: number; sender_id: string }>(
    'SELECT id, created_at, sender_id FROM messages WHERE channel_id = ?',
    channelId,
  );
  return messages.filter(
    (m) =>
      m.sender_id !== uid &&
      (mark === undefined ||
        m.created_at > mark.at ||
        (mark.id !== '' && m.created_at === mark.at && m.id > mark.id)),
  ).length;
}

/** Kept and counted agree for every account and every channel (and a channel no longer there reads 0). */
function expectCountsKept(channels: string[] = [ids.strategy, ids.growth]): void {
  const { repos } = contextOf(server);
  const uids = server.query<{ uid: string }>('SELECT uid FROM users').map((row) => row.uid);
  const pairs = uids.flatMap((uid) => channels.map((channelId) => ({ uid, channelId })));
  const kept = pairs.map(({ uid, channelId }) => repos.messages.countUnread(channelId, uid));
  expect(kept).toEqual(pairs.map(({ uid, channelId }) => counted(uid, channelId)));
}

async function send(who: Role, channel: string, text: string): Promise<ChatMessage> {
  const res = await server.request('POST', `/api/channels/${channel}/messages`, {
    token: ids.token[who],
    body: { text },
  });
  expect(res.statusCode).toBe(200);
  return res.json<ChatMessage>();
}

async function overviewUnread(who: Role, channel: string): Promise<number | undefined> {
  const res = await server.request('GET', '/api/channels/overview', { token: ids.token[who] });
  expect(res.statusCode).toBe(200);
  return res.json<{ channels: ChannelOverview[] }>().channels.find((c) => c.channel.id === channel)?.unread;
}

describe('kept unread counts', () => {
  it('equal a COUNT through sends, read marks, edits and deletes', async () => {
    expectCountsKept();
    const sent: ChatMessage[] = [];
    // Each a millisecond after the last, so a mark in the middle has messages after it whatever their random ids.
    for (let i = 0; i < 4; i += 1) {
      server.clock.advance(1);
      sent.push(await send(i % 2 ? 'consultant' : 'member', ids.strategy, `m${i}`));
    }
    server.clock.advance(1);
    // Several at once share a commit (server/db/groupCommit.ts).
    await Promise.all(['a', 'b', 'c'].map((text) => send('consultant', ids.strategy, text)));
    expectCountsKept();
    expect(await overviewUnread('member', ids.strategy)).toBe(counted(ids.uid.member, ids.strategy));

    // A mark in the middle, then forward to the newest.
    const read = (who: Role, messageId: string) =>
      server.request('POST', `/api/channels/${ids.strategy}/read`, {
        token: ids.token[who],
        body: { messageId },
      });
    expect((await read('member', sent[1]?.id ?? '')).statusCode).toBe(200);
    expectCountsKept();
    expect(await overviewUnread('member', ids.strategy)).toBeGreaterThan(0);
    server.clock.advance(1); // after every message so far
    const newest = await send('consultant', ids.strategy, 'newest');
    expect((await read('member', newest.id)).statusCode).toBe(200);
    expectCountsKept();
    expect(await overviewUnread('member', ids.strategy)).toBe(0);

    // Messages in the same millisecond as a mark of a whole millisecond (written before migration 003).
    const twins = await Promise.all(['t1', 't2'].map((text) => send('consultant', ids.strategy, text)));
    // A mark as a server before migration 003 wrote it: the whole millisecond of the first.
    contextOf(server)
      .db.prepare(
        'UPDATE channel_reads SET last_read_at = ?, last_read_id = ? WHERE uid = ? AND channel_id = ?',
      )
      .run(twins[0]?.createdAt, '', ids.uid.member, ids.strategy);
    expectCountsKept();

    const edited = await server.request('PATCH', `/api/channels/${ids.strategy}/messages/${sent[1]?.id}`, {
      token: ids.token.consultant,
      body: { text: 'changed' },
    });
    expect(edited.statusCode).toBe(200);
    const deleted = await server.request('DELETE', `/api/channels/${ids.strategy}/messages/${sent[2]?.id}`, {
      token: ids.token.member,
    });
    expect(deleted.statusCode).toBe(200);
    expectCountsKept();
  });

  it('equal a COUNT through leaving, housekeeping and a deleted channel', async () => {
    await send('member', ids.strategy, 'before leaving');
    await send('consultant', ids.strategy, 'for the member');
    await send('consultant', ids.growth, 'in growth');
    expectCountsKept();

    // A client removed from a channel by its consultant, then the member's account deleted: their messages
    // become the former member's.
    const ctx = contextOf(server);
    const [client] = server.query<{ uid: string }>(
      'SELECT uid FROM channel_members WHERE channel_id = ? ORDER BY uid',
      ids.growth,
    );
    removeMember(ctx, callerOf(ids, 'consultant'), { channelId: ids.growth, userId: client?.uid ?? '' });
    expectCountsKept();
    const left = await server.request('DELETE', `/api/users/${ids.uid.member}`, {
      token: ids.token.member,
      body: { password: 'qupm-demo' },
    });
    expect(left.statusCode).toBe(200);
    expectCountsKept();

    await deleteChannel(ctx, callerOf(ids, 'consultant'), ids.strategy);
    expectCountsKept();
    expect(server.query('SELECT * FROM message_counts WHERE channel_id = ?', ids.strategy)).toEqual([]);
    expectError(
      await server.request('GET', `/api/channels/${ids.strategy}`, { token: ids.token.consultant }),
      404,
      'NOT_FOUND',
    );
  });
});
