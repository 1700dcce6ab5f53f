// A channel gone for the person, live: out of the list at once; a member is told why once; their own delete or
// hand-over tells them nothing; a channel event that no longer names them takes it out too.
import { expectSaga } from 'redux-saga-test-plan';
import { combineReducers } from '@reduxjs/toolkit';
import { handleChannelGone, isStillIn } from '@/sagas/channelRemovalsSaga';
import channels, { channelChanged, selectOverview } from '@/store/channelsSlice';
import inbox, { selectNotices } from '@/store/inboxSlice';
import housekeeping, { channelDeleteRequested, selectChannelGone } from '@/store/housekeepingSlice';
import type { Channel } from '@core/model';

const reducer = combineReducers({ channels, inbox, housekeeping });
type State = ReturnType<typeof reducer>;
const A = 'chanA000000000000001';
const B = 'chanB000000000000002';
const channel = (id: string, title: string, ownerId = 'consultant'): Channel => ({
  id,
  channelId: title.toLowerCase(),
  ownerId,
  title,
  description: '',
  members: ['me'],
  createdAt: 5,
});
const start = (...list: Channel[]): State =>
  list.reduce(
    (state, c) => reducer(state, channelChanged({ channel: c })),
    reducer(undefined, { type: '@@INIT' }),
  );

describe('handleChannelGone', () => {
  it('takes the channel out of a member’s list, marks it gone and says why', async () => {
    const { storeState } = await expectSaga(handleChannelGone, 'me', A)
      .withReducer(reducer, start(channel(A, 'Growth'), channel(B, 'Other')))
      .silentRun(20);
    const state = storeState as State;
    expect(selectOverview(state).map((o) => o.channel.id)).toEqual([B]);
    expect(selectChannelGone(state, A)).toBe(true);
    expect(selectNotices(state)).toEqual([
      {
        id: `channel-gone:${A}`,
        title: 'You are no longer in “Growth”',
        body: 'Its consultant took you out of it or deleted it. Your other channels are as they were.',
        path: '/',
      },
    ]);
  });

  it('says it once, when the removal and the channel without them both arrive', async () => {
    const first = await expectSaga(handleChannelGone, 'me', A)
      .withReducer(reducer, start(channel(A, 'Growth')))
      .silentRun(20);
    // The embedded server's channel event puts it back for a moment; it goes again, without a second notice.
    const again = reducer(first.storeState as State, channelChanged({ channel: channel(A, 'Growth') }));
    const { storeState } = await expectSaga(handleChannelGone, 'me', A)
      .withReducer(reducer, again)
      .silentRun(20);
    expect(selectOverview(storeState as State)).toEqual([]);
    expect((storeState as State).inbox.noticedIds.filter((id) => id === `channel-gone:${A}`)).toHaveLength(1);
  });

  it('tells the owner nothing about their own delete', async () => {
    const deleting = reducer(start(channel(A, 'Mine', 'me')), channelDeleteRequested({ channelId: A }));
    const { storeState } = await expectSaga(handleChannelGone, 'me', A)
      .withReducer(reducer, deleting)
      .silentRun(20);
    expect(selectOverview(storeState as State)).toEqual([]);
    expect(selectNotices(storeState as State)).toEqual([]);
  });

  it('a channel this window never listed changes nothing and says nothing', async () => {
    const { storeState } = await expectSaga(handleChannelGone, 'me', A)
      .withReducer(reducer, start(channel(B, 'Other')))
      .silentRun(20);
    expect(selectOverview(storeState as State)).toHaveLength(1);
    expect(selectNotices(storeState as State)).toEqual([]);
  });
});

describe('isStillIn', () => {
  it('is the owner or a member, nobody else', () => {
    expect(isStillIn(channel(A, 'A'), 'me')).toBe(true);
    expect(isStillIn(channel(A, 'A', 'me'), 'me')).toBe(true);
    expect(isStillIn({ ...channel(A, 'A'), members: [] }, 'me')).toBe(false);
  });
});
