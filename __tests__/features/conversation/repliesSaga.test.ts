import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import { handleQuoteJumpRequested, handleReactionRequested } from '@/features/conversation/repliesSaga';
import replies, {
  quoteJumpRequested,
  quoteJumpSettled,
  reactionFailed,
  reactionRequested,
  selectReactionError,
} from '@/features/conversation/repliesSlice';
import conversation, {
  messagesLoaded,
  messagesRequested,
  olderFailed,
  olderLoaded,
  olderRequested,
} from '@/store/conversationSlice';
import { messagesArrived } from '@/store/messages';
import user, { signedIn } from '@/store/userSlice';
import type { ChatMessage } from '@core/model';
import { createFakeBackend } from '../../support/fakeBackend';

const reducer = combineReducers({ user, conversation, replies });
type State = ReturnType<typeof reducer>;
const A = 'chanA000000000000001';
const ME = 'uidMorgan00000000001';
const message = (n: number): ChatMessage => ({
  id: `m${String(n).padStart(19, '0')}`,
  channelId: A,
  senderId: 'uidDana0000000000001',
  senderName: 'Dana',
  text: `Message ${n}`,
  createdAt: 1_000 + n,
});
const backend = createFakeBackend() as unknown as Backend;

/** Messages from..to, oldest first. */
const range = (from: number, to: number): ChatMessage[] =>
  Array.from({ length: to - from + 1 }, (_, i) => message(from + i));

/** Signed in, the channel open with `held` loaded (a full page of 30 says there may be more before it). */
function start(held: ChatMessage[]): State {
  let state = reducer(
    undefined,
    signedIn({ authUser: { uid: ME, email: 'm@qupm.test', displayName: null } }),
  );
  state = reducer(state, messagesRequested({ channelId: A }));
  return reducer(state, messagesLoaded({ channelId: A, messages: held }));
}

describe('handleQuoteJumpRequested', () => {
  it('settles at once when the quoted message is loaded', async () => {
    await expectSaga(handleQuoteJumpRequested, quoteJumpRequested({ channelId: A, messageId: message(2).id }))
      .withReducer(reducer, start([message(1), message(2)]))
      .not.put(olderRequested({ channelId: A }))
      .put(quoteJumpSettled({ messageId: message(2).id, found: true }))
      .run();
  });

  it('pages back until the quoted message is loaded', async () => {
    const jump = expectSaga(
      handleQuoteJumpRequested,
      quoteJumpRequested({ channelId: A, messageId: message(1).id }),
    )
      .withReducer(reducer, start(range(61, 90)))
      .put(olderRequested({ channelId: A }))
      .put(olderRequested({ channelId: A }))
      .put(quoteJumpSettled({ messageId: message(1).id, found: true }))
      .delay(5)
      .dispatch(olderLoaded({ channelId: A, messages: range(31, 60), before: message(61).id }))
      .delay(5)
      .dispatch(olderLoaded({ channelId: A, messages: range(1, 30), before: message(31).id }));
    await jump.run();
  });

  it('gives up at the channel’s start, or when a page fails, and says it was not found', async () => {
    await expectSaga(
      handleQuoteJumpRequested,
      quoteJumpRequested({ channelId: A, messageId: 'gone00000000000000001' }),
    )
      .withReducer(reducer, start([message(3)]))
      .put(quoteJumpSettled({ messageId: 'gone00000000000000001', found: false }))
      .run();
    await expectSaga(handleQuoteJumpRequested, quoteJumpRequested({ channelId: A, messageId: message(1).id }))
      .withReducer(reducer, start(range(61, 90)))
      .delay(5)
      .dispatch(olderFailed({ channelId: A, message: 'Offline' }))
      .put(quoteJumpSettled({ messageId: message(1).id, found: false }))
      .run();
  });
});

describe('handleReactionRequested', () => {
  it('puts the message as the backend answers it into the conversation', async () => {
    const reacted = { ...message(1), reactions: { [ME]: '👍' as const }, updatedAt: 5_000 };
    await expectSaga(
      handleReactionRequested,
      backend,
      reactionRequested({ channelId: A, messageId: reacted.id, emoji: '👍' }),
    )
      .withReducer(reducer, start([message(1)]))
      .provide([[matchers.call.fn(backend.messages.reactToMessage), reacted]])
      .put(messagesArrived({ messages: [reacted], ownUid: ME }))
      .run();
  });

  it('keeps a refusal’s words for the bubble', async () => {
    const result = await expectSaga(
      handleReactionRequested,
      backend,
      reactionRequested({ channelId: A, messageId: message(1).id, emoji: '👍' }),
    )
      .withReducer(reducer, start([message(1)]))
      .provide([
        [
          matchers.call.fn(backend.messages.reactToMessage),
          throwError(new BackendError('FAILED_PRECONDITION', 'This message was deleted.')),
        ],
      ])
      .put(reactionFailed({ messageId: message(1).id, message: 'This message was deleted.' }))
      .run();
    expect(selectReactionError(result.storeState as State, message(1).id)).toBe('This message was deleted.');
  });
});
