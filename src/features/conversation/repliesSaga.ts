// Reactions and the jump to a quoted message. A reaction goes to the backend (the latest choice per message wins:
// takeLatest by message would need a map, and a person taps one chip at a time), and its answer joins the
// conversation like any arriving message. A jump looks for the quoted message among those loaded, paging back
// (olderRequested, the conversation's own paging) until it is there or the channel's start is reached.
import { call, put, select, take, takeEvery, takeLatest } from 'redux-saga/effects';
import type { Backend } from '@/backend/ports';
import type { ChatMessage } from '@core/model';
import { toFailure } from '@/backend/errors';
import { messagesArrived } from '@/store/messages';
import { selectUid } from '@/store/userSlice';
import { olderFailed, olderLoaded, olderRequested, selectConversation } from '@/store/conversationSlice';
import type { Conversation } from '@/store/conversationSlice';
import { quoteJumpRequested, quoteJumpSettled, reactionFailed, reactionRequested } from './repliesSlice';

/** At most this many pages back for one jump (30 messages each): far enough for any quote a person follows. */
export const QUOTE_JUMP_MAX_PAGES = 40;

export function* handleReactionRequested(backend: Backend, action: ReturnType<typeof reactionRequested>) {
  const { channelId, messageId, emoji } = action.payload;
  try {
    const message: ChatMessage = yield call(
      [backend.messages, backend.messages.reactToMessage],
      channelId,
      messageId,
      emoji,
    );
    const ownUid: string | null = yield select(selectUid);
    yield put(messagesArrived({ messages: [message], ownUid: ownUid ?? '' }));
  } catch (error) {
    yield put(reactionFailed({ messageId, message: toFailure(error).message }));
  }
}

const holds = (conversation: Conversation | undefined, messageId: string): boolean =>
  conversation?.messages.some((message) => message.id === messageId) === true;

export function* handleQuoteJumpRequested(action: ReturnType<typeof quoteJumpRequested>) {
  const { channelId, messageId } = action.payload;
  for (let page = 0; page <= QUOTE_JUMP_MAX_PAGES; page += 1) {
    const conversation: Conversation | undefined = yield select(selectConversation, channelId);
    if (holds(conversation, messageId)) {
      yield put(quoteJumpSettled({ messageId, found: true }));
      return;
    }
    if (!conversation?.hasMore || page === QUOTE_JUMP_MAX_PAGES) break;
    if (!conversation.loadingOlder) yield put(olderRequested({ channelId }));
    const ended: ReturnType<typeof olderLoaded> | ReturnType<typeof olderFailed> = yield take(
      (candidate: { type: string; payload?: { channelId?: string } }) =>
        (olderLoaded.match(candidate) || olderFailed.match(candidate)) &&
        candidate.payload.channelId === channelId,
    );
    if (olderFailed.match(ended)) break;
  }
  yield put(quoteJumpSettled({ messageId, found: false }));
}

export function* watchReplies(backend: Backend) {
  yield takeEvery(reactionRequested.type, handleReactionRequested, backend);
  yield takeLatest(quoteJumpRequested.type, handleQuoteJumpRequested);
}
