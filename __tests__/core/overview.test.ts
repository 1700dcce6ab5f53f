// The channel list's order (docs/decisions/channels.md), written once in core/overview.ts: the backends
// sort the overview with it and the client's channels slice keeps its live list in it.
import fc from 'fast-check';
import { compareOverview, lastActivity, sortOverview } from '@core/overview';
import type { ChannelOverview, ChatMessage } from '@core/model';
import { channelChanged, overviewLoaded, selectOverview } from '@/store/channelsSlice';
import { messagesArrived } from '@/store/messages';
import { rootReducer } from '@/app/rootReducer';

const overview = (id: string, createdAt: number, lastAt: number | null): ChannelOverview => ({
  channel: {
    id,
    channelId: id.toLowerCase(),
    ownerId: 'o',
    title: id,
    description: '',
    members: [],
    createdAt,
  },
  lastMessage:
    lastAt === null
      ? null
      : { id: `m${id}`, channelId: id, senderId: 'o', senderName: 'O', text: 't', createdAt: lastAt },
  unread: 0,
});
const ids = (list: readonly ChannelOverview[]): string[] => list.map((o) => o.channel.id);

describe('lastActivity', () => {
  it('is the last message’s time, else the channel’s creation', () => {
    expect(lastActivity(overview('A', 10, 50))).toBe(50);
    expect(lastActivity(overview('A', 10, null))).toBe(10);
  });
});

describe('compareOverview', () => {
  it.each([
    ['newer activity first', overview('A', 0, 20), overview('B', 0, 10), -1],
    ['a new channel before an older conversation', overview('A', 30, null), overview('B', 0, 20), -1],
    ['ties by id', overview('A', 5, null), overview('B', 0, 5), -1],
    // By code unit, as SQLite and Firestore compare ids: 'Z' (90) before 'a' (97). localeCompare says otherwise.
    ['ties by code unit, upper case first', overview('Zed', 5, null), overview('abc', 5, null), -1],
    ['the same channel', overview('A', 5, null), overview('A', 5, null), 0],
  ])('%s', (_label, a, b, sign) => {
    expect(Math.sign(compareOverview(a, b))).toBe(sign);
    expect(Math.sign(compareOverview(b, a))).toBe(-sign || 0);
  });
});

describe('sortOverview', () => {
  it('leaves its input alone', () => {
    const list = [overview('A', 0, null), overview('B', 0, 9)];
    expect(ids(sortOverview(list))).toEqual(['B', 'A']);
    expect(ids(list)).toEqual(['A', 'B']);
  });
});

describe('the client keeps the backend’s order', () => {
  const channelIds = fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9]{1,3}$/), { minLength: 1, maxLength: 8 });

  it('after a load, live messages and channel changes', () => {
    fc.assert(
      fc.property(
        channelIds,
        fc.array(fc.tuple(fc.nat(7), fc.integer({ min: 0, max: 20 })), { maxLength: 20 }),
        (idList, arrivals) => {
          const loaded = idList.map((id, i) => overview(id, i % 3, null));
          let state = rootReducer(undefined, overviewLoaded({ items: loaded }));
          const expected = new Map(loaded.map((o) => [o.channel.id, o]));
          arrivals.forEach(([which, at], n) => {
            const id = idList[which % idList.length] ?? '';
            const message: ChatMessage = {
              id: `msg${String(n).padStart(17, '0')}`,
              channelId: id,
              senderId: 'x',
              senderName: 'X',
              text: 't',
              createdAt: 100 + at,
            };
            state = rootReducer(state, messagesArrived({ messages: [message], ownUid: 'me' }));
            const known = expected.get(id);
            if (known && (known.lastMessage === null || known.lastMessage.createdAt < message.createdAt))
              expected.set(id, { ...known, lastMessage: message });
          });
          state = rootReducer(state, channelChanged({ channel: overview('new', 0, null).channel }));
          expected.set('new', overview('new', 0, null));
          expect(ids(selectOverview(state))).toEqual(ids(sortOverview([...expected.values()])));
        },
      ),
    );
  });
});
