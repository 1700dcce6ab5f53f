// Loads the outbox and read-mark sagas (src/sagas/conversationSagas.ts) once a session starts, in their own
// chunk: a signed-out visitor never downloads them, and the shell stays within its budget. Nothing is lost while
// the chunk loads: a message sent meanwhile is already in the store's outbox, and the outbox saga keeps and
// sends what it finds there when it starts. A failed load (offline before the chunk was ever cached) is retried
// by the supervisor that runs this saga.
import { all, call, fork, select, take } from 'redux-saga/effects';
import { accountLoaded, selectAuthStatus } from '@/store/userSlice';
import type { AuthStatus } from '@/store/userSlice';
import type { Backend } from '@/backend/ports';
import { superviseQuietly } from './supervise';

export function loadConversationSagas() {
  return import(/* webpackChunkName: "conversation" */ './conversationSagas');
}

export function* lazyConversationSaga(backend: Backend) {
  const status: AuthStatus = yield select(selectAuthStatus);
  if (status !== 'signedIn') yield take(accountLoaded.type);
  const sagas: Awaited<ReturnType<typeof loadConversationSagas>> = yield call(loadConversationSagas);
  yield all([
    fork(superviseQuietly, 'outbox', sagas.outboxSaga, backend),
    fork(superviseQuietly, 'read marks', sagas.readMarksSaga, backend),
    fork(superviseQuietly, 'attachments', sagas.attachmentsSaga, backend),
  ]);
}
