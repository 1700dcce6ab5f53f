// Loads the sagas of mute and attention (issue #13 part 6: the person's mutes, the tab title's count, in-app
// notices of live messages off the home screen) once a session starts, in their own chunk, so the shell stays
// within its budget and a signed-out visitor never downloads them. Nothing is missed while the chunk loads: the
// mutes are read when the mutes saga starts, and the title is computed from the store when the title saga does.
// A failed load (offline before the chunk was ever cached) runs spec §4's chunk recovery and is retried by the
// supervisor that runs this saga.
import { all, call, fork, put, select, take } from 'redux-saga/effects';
import type { Backend } from '@/backend/ports';
import { isChunkLoadError } from '@/platform/chunks';
import { chunkLoadFailed } from '@/store/versionSlice';
import { accountLoaded, selectAuthStatus } from '@/store/userSlice';
import type { AuthStatus } from '@/store/userSlice';
import { superviseQuietly } from '@/sagas/supervise';

export function loadAttentionSagas() {
  return import(/* webpackChunkName: "attention" */ './attentionSagas');
}

export function* lazyAttentionSaga(backend: Backend) {
  const status: AuthStatus = yield select(selectAuthStatus);
  if (status !== 'signedIn') yield take(accountLoaded.type);
  let sagas: Awaited<ReturnType<typeof loadAttentionSagas>>;
  try {
    sagas = yield call(loadAttentionSagas);
  } catch (error) {
    if (isChunkLoadError(error)) yield put(chunkLoadFailed());
    throw error;
  }
  yield all([
    fork(superviseQuietly, 'mutes', sagas.mutesSaga, backend),
    fork(superviseQuietly, 'tab title', sagas.titleSaga),
    fork(superviseQuietly, 'live notices', sagas.liveNoticesSaga),
    fork(superviseQuietly, 'sessions', sagas.sessionsSaga, backend),
  ]);
}
