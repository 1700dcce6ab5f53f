// The edits and deletions the person asks for on the main screen: each goes to the backend
// once (a second request for the same message while one is under way is ignored), and its answer — the message
// as it now stands — joins the conversation and the channel list like any arriving message, so the newer version
// replaces the old in place here as it does in every other window (through the live subscription). A refusal is
// put as the backend's plain words.
import { call, fork, put, select, takeLeading } from 'redux-saga/effects';
import type { Backend } from '@/backend/ports';
import type { ChatMessage } from '@core/model';
import { toFailure } from '@/backend/errors';
import { messagesArrived } from '@/store/messages';
import { selectUid } from '@/store/userSlice';
import {
  messageChangeFailed,
  messageChangeSaved,
  messageDeleteRequested,
  messageEditRequested,
} from './messageActionsSlice';
import type { MessageChangeKind } from './messageActionsSlice';
import { watchReplies } from './repliesSaga';

function* saved(messageId: string, message: ChatMessage) {
  const ownUid: string | null = yield select(selectUid);
  yield put(messagesArrived({ messages: [message], ownUid: ownUid ?? '' }));
  yield put(messageChangeSaved({ messageId }));
}

function* failed(messageId: string, kind: MessageChangeKind, error: unknown) {
  yield put(messageChangeFailed({ messageId, kind, message: toFailure(error).message }));
}

export function* handleMessageEditRequested(
  backend: Backend,
  action: ReturnType<typeof messageEditRequested>,
) {
  const { channelId, messageId, text } = action.payload;
  try {
    const message: ChatMessage = yield call(
      [backend.messages, backend.messages.editMessage],
      channelId,
      messageId,
      text,
    );
    yield* saved(messageId, message);
  } catch (error) {
    yield* failed(messageId, 'edit', error);
  }
}

export function* handleMessageDeleteRequested(
  backend: Backend,
  action: ReturnType<typeof messageDeleteRequested>,
) {
  const { channelId, messageId } = action.payload;
  try {
    const message: ChatMessage = yield call(
      [backend.messages, backend.messages.deleteMessage],
      channelId,
      messageId,
    );
    yield* saved(messageId, message);
  } catch (error) {
    yield* failed(messageId, 'delete', error);
  }
}

export function* watchMessageActions(backend: Backend) {
  yield takeLeading(messageEditRequested.type, handleMessageEditRequested, backend);
  yield takeLeading(messageDeleteRequested.type, handleMessageDeleteRequested, backend);
  // Reactions and quote jumps are message actions too: they start with these, in the conversation's chunk.
  yield fork(watchReplies, backend);
}
