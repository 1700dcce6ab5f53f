// Loads the outbox and read-mark sagas (src/sagas/conversationSagas.ts) once a session starts, in their own
// chunk: a signed-out visitor never downloads them, and the shell stays within its budget. Nothing is lost while
// the chunk loads: a message sent meanwhile is already in the store's outbox, and the outbox saga keeps and
// sends what it finds there when it starts. A failed load (offline before the chunk was ever cached) is retried
// by the supervisor that runs this saga.
import { all, call, fork, put, select, take } from 'redux-saga/effects';
import { isChunkLoadError } from '@/platform/chunks';
import { chunkLoadFailed } from '@/store/versionSlice';
import { accountLoaded, selectAuthStatus } from '@/store/userSlice';
import type { AuthStatus } from '@/store/userSlice';
import type { Backend } from '@/backend/ports';
import { superviseQuietly } from '@/sagas/supervise';

export function loadConversationSagas() {
  return import(/* webpackChunkName: "conversation" */ '@/features/conversation/sessionSagas');
}

export function* lazyConversationSaga(backend: Backend) {
  const status: AuthStatus = yield select(selectAuthStatus);
  if (status !== 'signedIn') yield take(accountLoaded.type);
  let sagas: Awaited<ReturnType<typeof loadConversationSagas>>;
  try {
    sagas = yield call(loadConversationSagas);
  } catch (error) {
    // spec §4's recovery, as for every lazy chunk (issue #14 part 6); the supervisor still tries again.
    if (isChunkLoadError(error)) yield put(chunkLoadFailed());
    throw error;
  }
  yield all([
    fork(superviseQuietly, 'outbox', sagas.outboxSaga, backend),
    fork(superviseQuietly, 'read marks', sagas.readMarksSaga, backend),
    fork(superviseQuietly, 'message actions', sagas.messageActionsSaga, backend),
    fork(superviseQuietly, 'attachments', sagas.attachmentsSaga, backend),
    fork(superviseQuietly, 'newer pages', sagas.newerPagesSaga, backend),
  ]);
}
