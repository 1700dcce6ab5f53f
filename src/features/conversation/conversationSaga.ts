// A conversation's pages: its newest messages and older pages (a (createdAt, id) cursor, so messages sharing a
// millisecond are never skipped). Pages forward towards the newest are asked for by newerPagesSaga.ts, in the
// conversation's session chunk; sending goes through the outbox (outboxSaga.ts). This saga loads with the view, at
// its first request (src/app/lazySagas.ts), and first handles the requests that came while it loaded. Each worker
// catches its own failure and puts it as plain words.
import { call, fork, put, select, takeEvery, takeLeading } from 'redux-saga/effects';
import type { UnknownAction } from '@reduxjs/toolkit';
import type { Backend } from '@/backend/ports';
import type { ChatMessage } from '@core/model';
import { cursorOf } from '@core/messages';
import { toFailure } from '@/backend/errors';
import { everyOf, leadingOf } from '@/sagas/lazySaga';
import {
  MESSAGES_PAGE,
  messagesFailed,
  messagesLoaded,
  messagesRequested,
  olderFailed,
  olderLoaded,
  olderRequested,
  selectConversation,
} from '@/store/conversationSlice';
import type { Conversation } from '@/store/conversationSlice';
import { searchSaga } from './searchSaga';

const message = (error: unknown): string => toFailure(error).message;

export function* handleMessagesRequested(backend: Backend, action: ReturnType<typeof messagesRequested>) {
  const { channelId } = action.payload;
  try {
    const messages: ChatMessage[] = yield call([backend.messages, backend.messages.listMessages], channelId, {
      limit: MESSAGES_PAGE,
    });
    yield put(messagesLoaded({ channelId, messages }));
  } catch (error) {
    yield put(messagesFailed({ channelId, message: message(error) }));
  }
}

export function* handleOlderRequested(backend: Backend, action: ReturnType<typeof olderRequested>) {
  const { channelId } = action.payload;
  const conversation: Conversation | undefined = yield select(selectConversation, channelId);
  const oldest = conversation?.messages[0];
  if (!oldest) return;
  try {
    const messages: ChatMessage[] = yield call([backend.messages, backend.messages.listMessages], channelId, {
      before: cursorOf(oldest),
      limit: MESSAGES_PAGE,
    });
    yield put(olderLoaded({ channelId, messages, before: oldest.id }));
  } catch (error) {
    yield put(olderFailed({ channelId, message: message(error) }));
  }
}

/**
 * `early`: the requests that came while this saga's chunk loaded, the one that loaded it first, handled as the
 * watchers would have before the next ones are awaited.
 */
export function* conversationSaga(backend: Backend, early: readonly UnknownAction[] = []) {
  for (const action of everyOf(early, messagesRequested))
    yield fork(handleMessagesRequested, backend, action);
  const older = leadingOf(early, olderRequested);
  if (older) yield fork(handleOlderRequested, backend, older);
  yield takeEvery(messagesRequested.type, handleMessagesRequested, backend);
  yield takeLeading(olderRequested.type, handleOlderRequested, backend);
  // Search and opening at a hit: the same chunk, started by the same first request.
  yield fork(searchSaga, backend, early);
}
