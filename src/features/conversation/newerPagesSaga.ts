// Pages forward: once the person has paged back past the window and scrolls down again, the
// page after the newest message held, until a short page reaches the channel's newest. In the conversation chunk
// (sessionSagas.ts, loaded once a session starts) with the window's rules, so the shell carries
// neither; only the conversation view, which loads after the session starts, asks for a page forward.
import { call, put, select, takeLeading } from 'redux-saga/effects';
import type { Backend } from '@/backend/ports';
import type { ChatMessage } from '@core/model';
import { cursorOf } from '@core/messages';
import { toFailure } from '@/backend/errors';
import { MESSAGES_PAGE, selectConversation } from '@/store/conversationSlice';
import type { Conversation } from '@/store/conversationSlice';
import { newerFailed, newerLoaded, newerRequested } from './conversationWindow';

/** A page forward from the newest message held, while the window does not reach the channel's newest. */
export function* handleNewerRequested(backend: Backend, action: ReturnType<typeof newerRequested>) {
  const { channelId } = action.payload;
  const conversation: Conversation | undefined = yield select(selectConversation, channelId);
  const newest = conversation?.messages.at(-1);
  if (!newest || !conversation?.hasNewer) return;
  try {
    const messages: ChatMessage[] = yield call([backend.messages, backend.messages.listMessages], channelId, {
      after: cursorOf(newest),
      limit: MESSAGES_PAGE,
    });
    yield put(newerLoaded({ channelId, messages, after: newest.id }));
  } catch (error) {
    yield put(newerFailed({ channelId, message: toFailure(error).message }));
  }
}

export function* newerPagesSaga(backend: Backend) {
  yield takeLeading(newerRequested.type, handleNewerRequested, backend);
}
