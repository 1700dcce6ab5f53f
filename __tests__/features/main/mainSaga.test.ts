import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import {
  handleChannelCreate,
  handleMembersRequested,
  handleMessagesRequested,
  handleOlderRequested,
} from '@/features/main/mainSaga';
import conversation, {
  MESSAGES_PAGE,
  messagesLoaded,
  messagesRequested,
  olderRequested,
} from '@/store/conversationSlice';
import manage, { channelCreateRequested, membersRequested } from '@/features/main/manageSlice';
import channels from '@/store/channelsSlice';
import user from '@/store/userSlice';
import type { Channel, ChatMessage } from '@core/model';
import { createFakeBackend } from '../../support/fakeBackend';

const reducer = combineReducers({ user, channels, conversation, manage });
type State = ReturnType<typeof reducer>;
const A = 'chanA000000000000001';
const msg = (n: number): ChatMessage => ({
  id: `m${String(n).padStart(19, '0')}`,
  channelId: A,
  senderId: 'uidDana0000000000001',
  senderName: 'Dana',
  text: `message ${n}`,
  createdAt: 1_000 * n,
});
const backend = createFakeBackend() as unknown as Backend;
const channelA: Channel = {
  id: A,
  channelId: 'strategy',
  ownerId: 'o',
  title: 'Strategy',
  description: '',
  members: [],
  createdAt: 5,
};

describe('conversation', () => {
  it('loads the newest page and knows more may be older when the page was full', async () => {
    const page = Array.from({ length: MESSAGES_PAGE }, (_, i) => msg(100 + i));
    const { storeState } = await expectSaga(
      handleMessagesRequested,
      backend,
      messagesRequested({ channelId: A }),
    )
      .withReducer(reducer, reducer(undefined, messagesRequested({ channelId: A })))
      .provide([[matchers.call.fn(backend.messages.listMessages), page]])
      .call([backend.messages, backend.messages.listMessages], A, { limit: MESSAGES_PAGE })
      .run();
    expect((storeState as State).conversation.byChannel[A]).toMatchObject({
      status: 'loaded',
      hasMore: true,
    });
  });

  it('pages back from the oldest loaded message by its (createdAt, id), keeping order and each message once', async () => {
    let state = reducer(undefined, messagesRequested({ channelId: A }));
    state = reducer(state, messagesLoaded({ channelId: A, messages: [msg(50), msg(51)] }));
    const { storeState } = await expectSaga(handleOlderRequested, backend, olderRequested({ channelId: A }))
      .withReducer(reducer, reducer(state, olderRequested({ channelId: A })))
      .provide([[matchers.call.fn(backend.messages.listMessages), [msg(48), msg(49), msg(50)]]])
      .call([backend.messages, backend.messages.listMessages], A, {
        before: { createdAt: 50_000, id: msg(50).id },
        limit: MESSAGES_PAGE,
      })
      .run();
    const loaded = (storeState as State).conversation.byChannel[A];
    expect(loaded?.messages.map((m) => m.text)).toEqual([
      'message 48',
      'message 49',
      'message 50',
      'message 51',
    ]);
    expect(loaded).toMatchObject({ hasMore: false, loadingOlder: false });
  });

  it('says why when the first load fails', async () => {
    const { storeState } = await expectSaga(
      handleMessagesRequested,
      backend,
      messagesRequested({ channelId: A }),
    )
      .withReducer(reducer, reducer(undefined, messagesRequested({ channelId: A })))
      .provide([
        [
          matchers.call.fn(backend.messages.listMessages),
          throwError(new BackendError('PERMISSION_DENIED', 'You are not a member of this channel.')),
        ],
      ])
      .run();
    expect((storeState as State).conversation.byChannel[A]).toMatchObject({
      status: 'failed',
      error: 'You are not a member of this channel.',
    });
  });
});

describe('consultant tools', () => {
  it('creates a channel, adds it to the list and names it as saved', async () => {
    const input = { channelId: 'strategy', title: 'Strategy', description: '' };
    const { storeState } = await expectSaga(handleChannelCreate, backend, channelCreateRequested(input))
      .withReducer(reducer)
      .provide([[matchers.call.fn(backend.channels.createChannel), channelA]])
      .call([backend.channels, backend.channels.createChannel], input)
      .run();
    expect((storeState as State).channels.items.map((o) => o.channel.title)).toEqual(['Strategy']);
    expect((storeState as State).manage.save).toEqual({ status: 'saved', error: null, channelId: A });
  });

  it('says a taken handle is taken', async () => {
    const { storeState } = await expectSaga(
      handleChannelCreate,
      backend,
      channelCreateRequested({ channelId: 'taken', title: 'T', description: '' }),
    )
      .withReducer(reducer)
      .provide([
        [
          matchers.call.fn(backend.channels.createChannel),
          throwError(new BackendError('ALREADY_EXISTS', 'That handle is taken.')),
        ],
      ])
      .run();
    expect((storeState as State).manage.save).toMatchObject({
      status: 'failed',
      error: 'That handle is taken.',
    });
  });

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
    expect((storeState as State).manage.members[A]).toEqual({
      status: 'loaded',
      items: members,
      error: null,
    });
  });
});
