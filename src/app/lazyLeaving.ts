// Loads the saga of Settings → Your data (issue #15 part 7: download my data, delete my account) once a session
// starts, in its own chunk, so the shell stays within its budget and a signed-out visitor never downloads it.
import { call, select, take } from 'redux-saga/effects';
import type { Backend } from '@/backend/ports';
import { accountLoaded, selectAuthStatus } from '@/store/userSlice';
import type { AuthStatus } from '@/store/userSlice';

export function loadLeavingSaga() {
  return import(/* webpackChunkName: "leaving" */ '@/features/settings/leavingSaga');
}

export function* lazyLeavingSaga(backend: Backend) {
  const status: AuthStatus = yield select(selectAuthStatus);
  if (status !== 'signedIn') yield take(accountLoaded.type);
  const module: Awaited<ReturnType<typeof loadLeavingSaga>> = yield call(loadLeavingSaga);
  yield call(module.leavingSaga, backend);
}
