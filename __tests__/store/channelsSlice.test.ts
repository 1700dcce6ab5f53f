import { findNonSerializableValue } from '@reduxjs/toolkit';
import type { Channel, ChannelOverview, ChatMessage } from '@core/model';
import reducer, {
  channelChanged,
  channelOpened,
  initialState,
  overviewFailed,
  overviewLoaded,
  overviewRequested,
  permissionsFailed,
  permissionsLoaded,
  permissionsRequested,
  selectChannelTitles,
  selectOpenedUnread,
  selectShowServiceBanner,
  selectOverview,
} from '@/store/channelsSlice';
import { messagesArrived } from '@/store/messages';
import type { ChannelsState } from '@/store/channelsSlice';
import { signedOut } from '@/store/userSlice';

const ME = 'uidMe';
const T0 = 1_700_000_000_000;

const channel = (id: string, createdAt = T0, title = `Channel ${id}`): Channel => ({
  id,
  channelId: `handle-${id}`,
  ownerId: 'uidOwner',
  title,
  description: '',
  members: [ME],
  createdAt,
});
const message = (channelId: string, id: string, createdAt: number, senderId = 'uidOther'): ChatMessage => ({
  id,
  channelId,
  senderId,
  senderName: senderId,
  text: `text ${id}`,
  createdAt,
});
const overview = (id: string, last: ChatMessage | null, unread = 0): ChannelOverview => ({
  channel: channel(id),
  lastMessage: last,
  unread,
});

const run = (...actions: Parameters<typeof reducer>[1][]): ChannelsState =>
  actions.reduce((state, action) => reducer(state, action), initialState);
const ids = (state: ChannelsState): string[] => selectOverview(wrap(state)).map((o) => o.channel.id);
const wrap = (channels: ChannelsState) => ({ channels });

/** Two channels: A last active at T0+10, B at T0+20 (so B is first). */
const loaded = () =>
  overviewLoaded({
    items: [overview('A', message('A', 'a1', T0 + 10)), overview('B', message('B', 'b1', T0 + 20))],
  });

describe('the overview', () => {
  it('loads, newest activity first, whatever order the backend answered', () => {
    const state = run(overviewRequested(), loaded());
    expect(state.status).toBe('loaded');
    expect(ids(state)).toEqual(['B', 'A']);
  });

  it('keeps a loaded list on screen while it reloads, and after a failed reload', () => {
    const reloading = run(loaded(), overviewRequested());
    expect(reloading.status).toBe('loaded');
    const failed = reducer(reloading, overviewFailed({ message: 'offline' }));
    expect(failed.status).toBe('loaded');
    expect(failed.error).toBe('offline');
    expect(ids(failed)).toEqual(['B', 'A']);
  });

  it('fails when there was nothing to keep', () => {
    const state = run(overviewRequested(), overviewFailed({ message: 'offline' }));
    expect(state.status).toBe('failed');
    expect(selectOverview(wrap(state))).toEqual([]);
  });

  it('reads the open channel as read when the list arrives', () => {
    const state = run(
      channelOpened({ id: 'A' }),
      overviewLoaded({ items: [overview('A', message('A', 'a1', T0), 3), overview('B', null, 2)] }),
    );
    expect(selectOverview(wrap(state)).find((o) => o.channel.id === 'A')?.unread).toBe(0);
    expect(selectOverview(wrap(state)).find((o) => o.channel.id === 'B')?.unread).toBe(2);
  });
});

describe('live messages', () => {
  it('makes the newest its channel’s last message, moves the channel up and counts others’ messages', () => {
    const state = run(loaded(), messagesArrived({ messages: [message('A', 'a2', T0 + 30)], ownUid: ME }));
    expect(ids(state)).toEqual(['A', 'B']);
    const a = selectOverview(wrap(state))[0]!;
    expect(a.lastMessage?.id).toBe('a2');
    expect(a.unread).toBe(1);
  });

  it('does not count one’s own messages, nor those of the open channel', () => {
    const state = run(
      loaded(),
      channelOpened({ id: 'B' }),
      messagesArrived({
        messages: [message('A', 'a2', T0 + 30, ME), message('B', 'b2', T0 + 31)],
        ownUid: ME,
      }),
    );
    expect(selectOverview(wrap(state)).map((o) => [o.channel.id, o.unread])).toEqual([
      ['B', 0],
      ['A', 0],
    ]);
  });

  it('counts a repeated or older message once at most, in a burst or across batches', () => {
    const a2 = message('A', 'a2', T0 + 30);
    const a3 = message('A', 'a3', T0 + 40);
    const state = run(
      loaded(),
      messagesArrived({ messages: [a3, a2, a3], ownUid: ME }),
      messagesArrived({ messages: [a2, message('A', 'old', T0 + 1)], ownUid: ME }),
    );
    const a = selectOverview(wrap(state)).find((o) => o.channel.id === 'A')!;
    expect(a.unread).toBe(2);
    expect(a.lastMessage?.id).toBe('a3');
  });

  it('orders messages of one millisecond by id, so the last message is the same on every device', () => {
    const state = run(
      loaded(),
      messagesArrived({ messages: [message('A', 'm2', T0 + 30), message('A', 'm1', T0 + 30)], ownUid: ME }),
    );
    expect(selectOverview(wrap(state)).find((o) => o.channel.id === 'A')?.lastMessage?.id).toBe('m2');
  });

  it('ignores messages of a channel it does not list', () => {
    const before = run(loaded());
    const after = reducer(before, messagesArrived({ messages: [message('Z', 'z1', T0 + 99)], ownUid: ME }));
    expect(selectOverview(wrap(after))).toEqual(selectOverview(wrap(before)));
  });
});

describe('channels and the open channel', () => {
  it('adds a new channel by its activity and updates a known one in place', () => {
    const added = run(loaded(), channelChanged({ channel: channel('C', T0 + 15) }));
    expect(ids(added)).toEqual(['B', 'C', 'A']);
    const renamed = reducer(added, channelChanged({ channel: channel('A', T0, 'Renamed') }));
    expect(selectOverview(wrap(renamed)).filter((o) => o.channel.id === 'A')).toHaveLength(1);
    expect(selectChannelTitles(wrap(renamed))).toEqual({ A: 'Renamed', B: 'Channel B', C: 'Channel C' });
  });

  it('opening a channel clears its unread count; closing keeps the others', () => {
    const state = run(
      overviewLoaded({ items: [overview('A', null, 4), overview('B', null, 1)] }),
      channelOpened({ id: 'A' }),
      channelOpened({ id: null }),
    );
    expect(state.openId).toBeNull();
    expect(
      selectOverview(wrap(state))
        .map((o) => o.unread)
        .sort(),
    ).toEqual([0, 1]);
  });
});

describe('how many were unread when the channel opened (the "New messages" divider)', () => {
  const openedUnread = (state: ChannelsState, id: string) => selectOpenedUnread(wrap(state), id);

  it('keeps the count the open channel had, while the list shows it as read', () => {
    const state = run(
      overviewLoaded({ items: [overview('A', null, 4), overview('B', null, 1)] }),
      channelOpened({ id: 'A' }),
    );
    expect(selectOverview(wrap(state)).find((o) => o.channel.id === 'A')?.unread).toBe(0);
    expect(openedUnread(state, 'A')).toBe(4);
    expect(openedUnread(state, 'B')).toBeNull();
  });

  it('takes it from the overview when the channel was opened before the overview arrived (a direct link)', () => {
    const opened = run(channelOpened({ id: 'A' }));
    expect(openedUnread(opened, 'A')).toBeNull();
    const state = reducer(opened, overviewLoaded({ items: [overview('A', null, 3)] }));
    expect(openedUnread(state, 'A')).toBe(3);
    // A later reload of the overview (a resync) does not move it: the channel was read meanwhile.
    const reloaded = reducer(state, overviewLoaded({ items: [overview('A', null, 0)] }));
    expect(openedUnread(reloaded, 'A')).toBe(3);
  });

  it('starts again for the next channel, and for the same one opened again', () => {
    const state = run(
      overviewLoaded({ items: [overview('A', null, 4), overview('B', null, 2)] }),
      channelOpened({ id: 'A' }),
      channelOpened({ id: 'B' }),
    );
    expect(openedUnread(state, 'A')).toBeNull();
    expect(openedUnread(state, 'B')).toBe(2);
    const again = run(
      overviewLoaded({ items: [overview('A', null, 4)] }),
      channelOpened({ id: 'A' }),
      channelOpened({ id: null }),
      channelOpened({ id: 'A' }),
    );
    expect(openedUnread(again, 'A')).toBe(0);
  });
});

describe('permissions and the service banner (spec §2, §7)', () => {
  const banner = (state: ChannelsState) => selectShowServiceBanner(wrap(state), 'A');

  it('shows the banner only once the backend said neither message nor own', () => {
    expect(banner(run(permissionsRequested({ channelId: 'A' })))).toBe(false);
    expect(
      banner(
        run(
          permissionsLoaded({
            channelId: 'A',
            result: { permissions: { canMessage: false, isOwner: false } },
          }),
        ),
      ),
    ).toBe(true);
    expect(
      banner(
        run(
          permissionsLoaded({
            channelId: 'A',
            result: { permissions: { canMessage: false, isOwner: true } },
          }),
        ),
      ),
    ).toBe(false);
    expect(banner(run(permissionsFailed({ channelId: 'A', message: 'offline' })))).toBe(false);
  });

  it('keeps what it knew while it asks again', () => {
    const state = run(
      permissionsLoaded({ channelId: 'A', result: { permissions: { canMessage: true, isOwner: false } } }),
      permissionsRequested({ channelId: 'A' }),
    );
    expect(state.permissions.A).toEqual({ status: 'loading', canMessage: true, isOwner: false, error: null });
  });
});

it('forgets everything when the person signs out', () => {
  const state = run(
    loaded(),
    channelOpened({ id: 'A' }),
    permissionsRequested({ channelId: 'A' }),
    signedOut(),
  );
  expect(state).toEqual(initialState);
});

it('stays serializable', () => {
  const state = run(loaded(), messagesArrived({ messages: [message('A', 'a2', T0 + 30)], ownUid: ME }));
  expect(findNonSerializableValue(state)).toBe(false);
});

describe('a changed message (issue #13)', () => {
  it('replaces the last message with its newer version, counting nothing unread, and never with an older copy', () => {
    const last = message('A', 'a1', T0 + 10);
    const tombstone = { ...last, text: '', deleted: true as const, updatedAt: T0 + 50 };
    const state = run(
      loaded(),
      messagesArrived({ messages: [tombstone], ownUid: ME }),
      messagesArrived({
        messages: [{ ...last, text: 'edited', editedAt: T0 + 40, updatedAt: T0 + 40 }],
        ownUid: ME,
      }),
    );
    const a = selectOverview(wrap(state)).find((o) => o.channel.id === 'A');
    expect(a?.lastMessage).toEqual(tombstone);
    expect(a?.unread).toBe(0);
  });
});
