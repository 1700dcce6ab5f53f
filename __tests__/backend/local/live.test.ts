import { CATCH_UP_PAGE, createLiveMessages } from '@/backend/local/live';
import { createLiveStream } from '@/backend/local/stream';
import { BackendError } from '@/backend/ports';
import type { LiveStatus } from '@/backend/ports';
import { compareMessages, isAfter, isChanged, versionOf } from '@core/messages';
import type { MessageCursor } from '@core/messages';
import type { ChatMessage } from '@core/model';
import { FakeSource } from './support/liveBackend';

const CHANNEL = 'ChannelLive000000001';
const OTHER = 'ChannelLive000000002';

const msg = (n: number, createdAt = 1_000 + n, channelId = CHANNEL): ChatMessage => ({
  id: `Msg${String(n).padStart(17, '0')}`,
  channelId,
  senderId: 'uidDana0000000000001',
  senderName: 'Dana',
  text: `message ${n}`,
  createdAt,
});

/** A server's messages and the local adapter's live parts on fake sources and timers. */
function setup(server: ChatMessage[] = []) {
  const sources: FakeSource[] = [];
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const fetches: Array<{
    channelId: string;
    after: MessageCursor;
    limit: number;
    answer: (fail?: boolean | Error) => void;
  }> = [];
  let autoAnswer = true;
  const stream = createLiveStream({
    getTicket: async () => 'ticket',
    url: (t) => t,
    open: () => {
      const source = new FakeSource();
      sources.push(source);
      return source;
    },
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    clearTimer: () => undefined,
  });
  const answerFor = (channelId: string, after: MessageCursor, limit: number) =>
    server
      .filter((m) => m.channelId === channelId && isAfter(m, after))
      .sort(compareMessages)
      .slice(0, limit);
  const live = createLiveMessages({
    stream,
    listAfter: (channelId, after, limit) =>
      new Promise((resolve, reject) => {
        const fetch = {
          channelId,
          after,
          limit,
          answer: (fail: boolean | Error = false) =>
            fail instanceof Error
              ? reject(fail)
              : fail
                ? reject(new Error('offline'))
                : resolve(answerFor(channelId, after, limit)),
        };
        fetches.push(fetch);
        if (autoAnswer) fetch.answer();
      }),
    // The changes the server holds after a (version, id) cursor, answered at once.
    listChangedAfter: (channelId, after, limit) =>
      Promise.resolve(
        server
          .filter((m) => m.channelId === channelId && isChanged(m))
          .filter(
            (m) => versionOf(m) > after.createdAt || (versionOf(m) === after.createdAt && m.id > after.id),
          )
          .sort((a, b) => versionOf(a) - versionOf(b) || (a.id < b.id ? -1 : 1))
          .slice(0, limit),
      ),
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    clearTimer: () => undefined,
  });
  const statuses: LiveStatus[] = [];
  live.subscribeStatus((status) => statuses.push(status));
  return {
    live,
    sources,
    timers,
    fetches,
    statuses,
    server,
    manual: () => (autoAnswer = false),
    source: () => sources[sources.length - 1] as FakeSource,
    push: (m: ChatMessage) => {
      server.push(m);
      (sources[sources.length - 1] as FakeSource).emit('message', JSON.stringify({ message: m }));
    },
  };
}
const flush = async () => {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
};

describe('createLiveMessages', () => {
  it('catches up on open from what the subscriber holds (the whole millisecond), then delivers live, once each', async () => {
    const t = setup([msg(1, 500), msg(2, 500), msg(3, 600)]);
    const got: ChatMessage[][] = [];
    t.live.subscribeMessages(CHANNEL, { createdAt: 500, ids: [msg(1).id] }, (batch) => got.push(batch));
    await flush();
    t.source().emit('open', '');
    await flush();
    expect(t.fetches.map((f) => f.after)).toEqual([{ createdAt: 500, id: '' }]);
    expect(got).toEqual([[msg(2, 500), msg(3, 600)]]);
    t.push(msg(4, 700));
    t.push(msg(4, 700));
    expect(got).toEqual([[msg(2, 500), msg(3, 600)], [msg(4, 700)]]);
    expect(t.statuses).toEqual(['connecting', 'live']);
  });

  it('holds what arrives live during a catch-up and delivers both as one batch, in order, without repeats', async () => {
    const t = setup([msg(1), msg(2)]);
    t.manual();
    const got: ChatMessage[][] = [];
    t.live.subscribeMessages(CHANNEL, { createdAt: 0, ids: [] }, (batch) => got.push(batch));
    await flush();
    t.source().emit('open', '');
    t.push(msg(3));
    t.push(msg(2));
    expect(got).toEqual([]);
    expect(t.statuses.at(-1)).toBe('connecting');
    t.fetches[0]?.answer();
    await flush();
    expect(got).toEqual([[msg(1), msg(2), msg(3)]]);
    expect(t.statuses.at(-1)).toBe('live');
  });

  it('pages forward while catching up until it has everything', async () => {
    const server = Array.from({ length: CATCH_UP_PAGE * 2 + 5 }, (_, i) => msg(i, 900 + (i >> 3)));
    const t = setup(server);
    const got: ChatMessage[] = [];
    t.live.subscribeMessages(CHANNEL, { createdAt: 0, ids: [] }, (batch) => got.push(...batch));
    await flush();
    t.source().emit('open', '');
    await flush();
    expect(t.fetches).toHaveLength(3);
    expect(got).toEqual(server);
  });

  it('delivers changes of messages older than it holds, live and after a drop, each version once (issue #13)', async () => {
    const t = setup([msg(1, 500), msg(2, 600)]);
    const got: ChatMessage[] = [];
    const held = { createdAt: 600, ids: [msg(2).id], changes: { at: 600, ids: [msg(2).id] } };
    t.live.subscribeMessages(CHANNEL, held, (batch) => got.push(...batch));
    await flush();
    t.source().emit('open', '');
    await flush();
    expect(got).toEqual([]);
    const edited = { ...msg(1, 500), text: 'edited', editedAt: 650, updatedAt: 650 };
    t.push(edited);
    t.push(edited);
    expect(got).toEqual([edited]);

    t.source().onerror?.(new Event('error'));
    // While it is down: the newer message is deleted, and the older one edited again in the same millisecond.
    const tombstone = { ...msg(2, 600), text: '', deleted: true as const, updatedAt: 700 };
    const again = { ...msg(1, 500), text: 'edited again', editedAt: 700, updatedAt: 700 };
    t.server.push(tombstone, again);
    t.timers[0]?.fn();
    await flush();
    t.source().emit('open', '');
    await flush();
    expect(got).toEqual([edited, again, tombstone]);
    t.push(tombstone);
    expect(got).toHaveLength(3);
  });

  it('after a drop, catches up from the newest it delivered, ties of a millisecond included', async () => {
    const t = setup([msg(1, 500)]);
    const got: ChatMessage[] = [];
    t.live.subscribeMessages(CHANNEL, { createdAt: 500, ids: [msg(1).id] }, (batch) => got.push(...batch));
    await flush();
    t.source().emit('open', '');
    await flush();
    t.push(msg(2, 800));
    t.source().onerror?.(new Event('error'));
    expect(t.statuses.at(-1)).toBe('interrupted');
    // Meanwhile, on the server: one more in the same millisecond (its id sorts before), and a later one.
    t.server.push(msg(0, 800), msg(5, 900));
    t.timers[0]?.fn();
    await flush();
    t.source().emit('open', '');
    await flush();
    expect(t.fetches.at(-1)?.after).toEqual({ createdAt: 800, id: '' });
    expect(got).toEqual([msg(2, 800), msg(0, 800), msg(5, 900)]);
    expect(t.statuses).toEqual(['connecting', 'live', 'interrupted', 'live']);
  });

  it('retries a catch-up that failed while connected, and is not live until it succeeds', async () => {
    const t = setup([msg(1)]);
    t.manual();
    const got: ChatMessage[] = [];
    t.live.subscribeMessages(CHANNEL, { createdAt: 0, ids: [] }, (batch) => got.push(...batch));
    await flush();
    t.source().emit('open', '');
    t.fetches[0]?.answer(true);
    await flush();
    expect(t.statuses.at(-1)).toBe('connecting');
    expect(t.timers.map((x) => x.ms)).toEqual([1000]);
    t.timers[0]?.fn();
    await flush();
    t.fetches[1]?.answer();
    await flush();
    expect(got).toEqual([msg(1)]);
    expect(t.statuses.at(-1)).toBe('live');
  });

  it.each([
    ['deleted', new BackendError('NOT_FOUND', 'There is no such channel.')],
    ['left', new BackendError('PERMISSION_DENIED', 'You are not a member of this channel.')],
  ])('stops catching up a channel that is %s for good, and the others go live', async (_, gone) => {
    const t = setup([msg(1), msg(2, 1_002, OTHER)]);
    t.manual();
    const got: ChatMessage[] = [];
    t.live.subscribeMessages(CHANNEL, { createdAt: 0, ids: [] }, (batch) => got.push(...batch));
    t.live.subscribeMessages(OTHER, { createdAt: 0, ids: [] }, (batch) => got.push(...batch));
    await flush();
    t.source().emit('open', '');
    t.fetches[0]?.answer(gone);
    t.fetches[1]?.answer();
    await flush();
    expect(t.timers).toEqual([]);
    expect(got).toEqual([msg(2, 1_002, OTHER)]);
    expect(t.statuses.at(-1)).toBe('live');
  });

  it('never lets an older catch-up end the holding of a newer one (no gap when the connection reopens mid-way)', async () => {
    const t = setup([msg(1, 500)]);
    t.manual();
    const got: ChatMessage[] = [];
    t.live.subscribeMessages(CHANNEL, { createdAt: 0, ids: [] }, (batch) => got.push(...batch));
    await flush();
    t.source().emit('open', '');
    const first = t.fetches[0];
    // The connection drops and reopens before the first catch-up answers.
    t.source().onerror?.(new Event('error'));
    t.server.push(msg(2, 600));
    t.timers[0]?.fn();
    await flush();
    t.source().emit('open', '');
    first?.answer(); // the older one answers first: only msg 1 is known to it
    await flush();
    t.push(msg(3, 700)); // live, while the newer catch-up is still under way
    expect(got).toEqual([]);
    t.fetches[1]?.answer();
    await flush();
    expect(got).toEqual([msg(1, 500), msg(2, 600), msg(3, 700)]);
  });

  it('drops a malformed message event and one for another channel', async () => {
    const t = setup();
    const got: ChatMessage[] = [];
    t.live.subscribeMessages(CHANNEL, { createdAt: 0, ids: [] }, (batch) => got.push(...batch));
    await flush();
    t.source().emit('open', '');
    await flush();
    t.source().emit('message', JSON.stringify({ message: { ...msg(1), id: 'short' } }));
    t.source().emit('message', JSON.stringify({ message: { ...msg(1), createdAt: 'soon' } }));
    t.source().emit('message', JSON.stringify({ nothing: true }));
    t.push(msg(2, 1_002, OTHER));
    expect(got).toEqual([]);
  });

  it('stops delivering and closes the connection when the last subscription ends', async () => {
    const t = setup();
    const got: ChatMessage[] = [];
    const stop = t.live.subscribeMessages(CHANNEL, { createdAt: 0, ids: [] }, (batch) => got.push(...batch));
    await flush();
    t.source().emit('open', '');
    await flush();
    stop();
    expect(t.source().closed).toBe(true);
    expect(got).toEqual([]);
  });
});
