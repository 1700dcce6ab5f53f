// A channel's people: reading its members, and opening a private consultation from the screen, which asks the
// backend, puts the channel into the list and hands the screen its id, or a refusal in words.
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import { handleMembersRequested, handlePrivateChannelRequested, membersSaga } from '@/sagas/membersSaga';
import members, {
  membersRequested,
  privateChannelOpened,
  privateChannelRequested,
} from '@/store/membersSlice';
import channels, { selectOverview } from '@/store/channelsSlice';
import user from '@/store/userSlice';
import type { Channel } from '@core/model';
import { createFakeBackend } from '../support/fakeBackend';

const reducer = combineReducers({ user, channels, members });
type State = ReturnType<typeof reducer>;
const backend = createFakeBackend() as unknown as Backend;
const request = { withUid: 'DanaUid0000000000001', viaChannelId: 'ChannelStudio0000001' };
const opened: Channel = {
  id: 'PrivateChannel000001',
  channelId: 'private-privatechannel000001',
  ownerId: 'DanaUid0000000000001',
  title: 'Dana and Morgan',
  description: '',
  members: ['MorganUid00000000001'],
  createdAt: 5,
  kind: 'private',
  names: { DanaUid0000000000001: 'Dana', MorganUid00000000001: 'Morgan' },
};

describe('handlePrivateChannelRequested', () => {
  it('asks the backend, lists the channel at once, and hands the screen its id', async () => {
    const { storeState } = await expectSaga(
      handlePrivateChannelRequested,
      backend,
      privateChannelRequested(request),
    )
      .withReducer(reducer, reducer(undefined, privateChannelRequested(request)))
      .provide([[matchers.call.fn(backend.channels.openPrivateChannel), opened]])
      .call([backend.channels, backend.channels.openPrivateChannel], request)
      .put(privateChannelOpened({ channelId: opened.id }))
      .run();
    const state = storeState as State;
    expect(selectOverview(state).map((o) => o.channel)).toEqual([opened]);
    expect(state.members.privateChat).toMatchObject({ status: 'opened', channelId: opened.id });
  });

  it('puts a refusal in the backend’s words for a person', async () => {
    const refusal = new BackendError(
      'PERMISSION_DENIED',
      'You can talk privately with the consultant of a channel you are in, or with a member of your own channel.',
    );
    const { storeState } = await expectSaga(
      handlePrivateChannelRequested,
      backend,
      privateChannelRequested(request),
    )
      .withReducer(reducer, reducer(undefined, privateChannelRequested(request)))
      .provide([[matchers.call.fn(backend.channels.openPrivateChannel), throwError(refusal)]])
      .run();
    const state = storeState as State;
    expect(state.members.privateChat).toMatchObject({ status: 'failed', error: refusal.message });
    expect(selectOverview(state)).toEqual([]);
  });
});

describe('handleMembersRequested', () => {
  const A = 'chanA000000000000001';
  it('loads a channel’s members', async () => {
    const members = [{ uid: 'o', name: 'Dana', role: 'owner' as const, joinedAt: 1 }];
    const { storeState } = await expectSaga(
      handleMembersRequested,
      backend,
      membersRequested({ channelId: A }),
    )
      .withReducer(reducer)
      .provide([[matchers.call.fn(backend.channels.listMembers), members]])
      .run();
    expect((storeState as State).members.byChannel[A]).toEqual({
      status: 'loaded',
      items: members,
      error: null,
    });
  });
});

describe('membersSaga', () => {
  it('handles the request that loaded its chunk, then the next ones', async () => {
    const { effects } = await expectSaga(membersSaga, backend, [privateChannelRequested(request)])
      .withReducer(reducer)
      .provide([
        [matchers.call.fn(backend.channels.openPrivateChannel), opened],
        [matchers.call.fn(backend.channels.listMembers), []],
      ])
      .dispatch(membersRequested({ channelId: opened.id }))
      .silentRun(50);
    expect(effects.call?.filter((e) => e.payload.fn === backend.channels.openPrivateChannel)).toHaveLength(1);
    expect(effects.call?.filter((e) => e.payload.fn === backend.channels.listMembers)).toHaveLength(1);
  });
});
