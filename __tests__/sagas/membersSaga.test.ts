// Opening a private consultation from the screen (issue #13 part 5): the manage slice's privateChat state and the
// saga that asks the backend, puts the channel into the list and hands the screen its id, or a refusal in words.
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import { handlePrivateChannelRequested } from '@/features/conversation/conversationSaga';
import manage, {
  initialState,
  privateChannelFailed,
  privateChannelOpened,
  privateChannelRequested,
  privateChannelShown,
  selectPrivateChat,
} from '@/features/consultantTools/manageSlice';
import channels from '@/store/channelsSlice';
import user, { signedOut } from '@/store/userSlice';
import type { Channel } from '@core/model';
import { createFakeBackend } from '../support/fakeBackend';

const reducer = combineReducers({ user, channels, manage });
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

describe('privateChat state', () => {
  it('goes opening → opened with the channel, and back to idle once shown', () => {
    const opening = manage(initialState, privateChannelRequested(request));
    expect(opening.privateChat).toEqual({
      status: 'opening',
      withUid: request.withUid,
      channelId: null,
      error: null,
    });
    const done = manage(opening, privateChannelOpened({ channelId: opened.id }));
    expect(selectPrivateChat({ manage: done })).toEqual({
      status: 'opened',
      withUid: request.withUid,
      channelId: opened.id,
      error: null,
    });
    expect(manage(done, privateChannelShown()).privateChat).toEqual(initialState.privateChat);
  });

  it('keeps a refusal’s words, with whom it was, until the next press', () => {
    const failed = manage(
      manage(initialState, privateChannelRequested(request)),
      privateChannelFailed({ message: 'You cannot.' }),
    );
    expect(failed.privateChat).toMatchObject({
      status: 'failed',
      withUid: request.withUid,
      error: 'You cannot.',
    });
    expect(manage(failed, privateChannelRequested(request)).privateChat.error).toBeNull();
    expect(manage(failed, signedOut()).privateChat).toEqual(initialState.privateChat);
  });
});

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
    expect(state.channels.items.map((o) => o.channel)).toEqual([opened]);
    expect(state.manage.privateChat).toMatchObject({ status: 'opened', channelId: opened.id });
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
    expect(state.manage.privateChat).toMatchObject({ status: 'failed', error: refusal.message });
    expect(state.channels.items).toEqual([]);
  });
});
