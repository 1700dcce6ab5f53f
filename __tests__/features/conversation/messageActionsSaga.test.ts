import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import {
  handleMessageDeleteRequested,
  handleMessageEditRequested,
} from '@/features/conversation/messageActionsSaga';
import messageActions, {
  messageDeleteRequested,
  messageEditOpened,
  messageEditRequested,
} from '@/features/conversation/messageActionsSlice';
import conversation, { messagesLoaded, messagesRequested } from '@/store/conversationSlice';
import channels, { overviewLoaded, selectOverview } from '@/store/channelsSlice';
import user, { signedIn } from '@/store/userSlice';
import type { ChatMessage } from '@core/model';
import { createFakeBackend } from '../../support/fakeBackend';

const reducer = combineReducers({ user, channels, conversation, messageActions });
type State = ReturnType<typeof reducer>;
const A = 'chanA000000000000001';
const ME = 'uidMorgan00000000001';
const original: ChatMessage = {
  id: 'm1000000000000000001',
  channelId: A,
  senderId: ME,
  senderName: 'Morgan',
  text: 'Helo',
  createdAt: 1_000,
};
const backend = createFakeBackend() as unknown as Backend;

function start(): State {
  let state = reducer(
    undefined,
    signedIn({ authUser: { uid: ME, email: 'm@qupm.test', displayName: null } }),
  );
  state = reducer(
    state,
    overviewLoaded({
      items: [
        {
          channel: {
            id: A,
            channelId: 'studio',
            ownerId: 'o',
            title: 'Studio',
            description: '',
            members: [ME],
            createdAt: 1,
          },
          lastMessage: original,
          unread: 0,
        },
      ],
    }),
  );
  state = reducer(state, messagesRequested({ channelId: A }));
  state = reducer(state, messagesLoaded({ channelId: A, messages: [original] }));
  return reducer(state, messageEditOpened({ channelId: A, messageId: original.id }));
}

describe('handleMessageEditRequested', () => {
  it('puts the edited message in place in the conversation and the channel list, and closes the editor', async () => {
    const edited = { ...original, text: 'Hello', editedAt: 2_000, updatedAt: 2_000 };
    const action = messageEditRequested({ channelId: A, messageId: original.id, text: 'Hello' });
    const { storeState } = await expectSaga(handleMessageEditRequested, backend, action)
      .withReducer(reducer, reducer(start(), action))
      .provide([[matchers.call.fn(backend.messages.editMessage), edited]])
      .call([backend.messages, backend.messages.editMessage], A, original.id, 'Hello')
      .run();
    const state = storeState as State;
    expect(state.conversation.byChannel[A]?.messages).toEqual([edited]);
    expect(selectOverview(state)[0]?.lastMessage).toEqual(edited);
    expect(selectOverview(state)[0]?.unread).toBe(0);
    expect(state.messageActions).toEqual({ editing: null, requests: {} });
  });

  it('keeps the editor open with the backend’s words when the edit is refused, and the message as it was', async () => {
    const action = messageEditRequested({ channelId: A, messageId: original.id, text: 'Hello' });
    const refusal = 'A message can only be edited in the first 24 hours after it was sent.';
    const { storeState } = await expectSaga(handleMessageEditRequested, backend, action)
      .withReducer(reducer, reducer(start(), action))
      .provide([
        [
          matchers.call.fn(backend.messages.editMessage),
          throwError(new BackendError('FAILED_PRECONDITION', refusal)),
        ],
      ])
      .run();
    const state = storeState as State;
    expect(state.conversation.byChannel[A]?.messages).toEqual([original]);
    expect(state.messageActions.editing).toEqual({ channelId: A, messageId: original.id });
    expect(state.messageActions.requests[original.id]).toEqual({
      kind: 'edit',
      status: 'failed',
      error: refusal,
    });
  });
});

describe('handleMessageDeleteRequested', () => {
  it('puts the tombstone in place of the message', async () => {
    const tombstone: ChatMessage = { ...original, text: '', deleted: true, updatedAt: 3_000 };
    const action = messageDeleteRequested({ channelId: A, messageId: original.id });
    const { storeState } = await expectSaga(handleMessageDeleteRequested, backend, action)
      .withReducer(reducer, reducer(start(), action))
      .provide([[matchers.call.fn(backend.messages.deleteMessage), tombstone]])
      .call([backend.messages, backend.messages.deleteMessage], A, original.id)
      .run();
    const state = storeState as State;
    expect(state.conversation.byChannel[A]?.messages).toEqual([tombstone]);
    expect(selectOverview(state)[0]?.lastMessage?.deleted).toBe(true);
  });

  it('says why a deletion was refused, in words, and keeps the message', async () => {
    const action = messageDeleteRequested({ channelId: A, messageId: original.id });
    const { storeState } = await expectSaga(handleMessageDeleteRequested, backend, action)
      .withReducer(reducer, reducer(start(), action))
      .provide([[matchers.call.fn(backend.messages.deleteMessage), throwError(new Error('socket hang up'))]])
      .run();
    const state = storeState as State;
    expect(state.conversation.byChannel[A]?.messages).toEqual([original]);
    expect(state.messageActions.requests[original.id]).toEqual({
      kind: 'delete',
      status: 'failed',
      error: 'Something went wrong. Please try again.',
    });
  });
});
