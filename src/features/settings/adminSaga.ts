// The admin section's requests against the admin port.
import { call, fork, put, takeEvery, takeLatest } from 'redux-saga/effects';
import type { UnknownAction } from '@reduxjs/toolkit';
import type { Backend } from '@/backend/ports';
import type { AdminChannel, AdminUser } from '@core/model';
import { toFailure } from '@/backend/errors';
import { everyOf, latestOf } from '@/sagas/lazySaga';
import {
  adminChannelsFailed,
  adminChannelsLoaded,
  adminChannelsRequested,
  adminUsersFailed,
  adminUsersLoaded,
  adminUsersRequested,
  roleChanged,
  roleChangeFailed,
  roleChangeRequested,
} from './adminSlice';

export function* handleUsersRequested(backend: Backend) {
  try {
    const items: AdminUser[] = yield call([backend.admin, backend.admin.listUsers]);
    yield put(adminUsersLoaded({ items }));
  } catch (error) {
    yield put(adminUsersFailed({ message: toFailure(error).message }));
  }
}

export function* handleChannelsRequested(backend: Backend) {
  try {
    const items: AdminChannel[] = yield call([backend.admin, backend.admin.listChannels]);
    yield put(adminChannelsLoaded({ items }));
  } catch (error) {
    yield put(adminChannelsFailed({ message: toFailure(error).message }));
  }
}

export function* handleRoleChange(backend: Backend, action: ReturnType<typeof roleChangeRequested>) {
  const { uid, isOwner } = action.payload;
  try {
    const user: AdminUser = yield call([backend.admin, backend.admin.setConsultant], uid, isOwner);
    yield put(roleChanged({ user }));
  } catch (error) {
    yield put(roleChangeFailed({ uid, message: toFailure(error).message }));
  }
}

/**
 * Handles each request; `early`: the requests that came while this chunk loaded (src/app/lazySagas.ts), the one
 * that loaded it first, handled as the watchers would have before the next ones are awaited.
 */
export function* adminSaga(backend: Backend, early: readonly UnknownAction[] = []) {
  if (latestOf(early, adminUsersRequested)) yield fork(handleUsersRequested, backend);
  if (latestOf(early, adminChannelsRequested)) yield fork(handleChannelsRequested, backend);
  for (const action of everyOf(early, roleChangeRequested)) yield fork(handleRoleChange, backend, action);
  yield takeLatest(adminUsersRequested.type, handleUsersRequested, backend);
  yield takeLatest(adminChannelsRequested.type, handleChannelsRequested, backend);
  yield takeEvery(roleChangeRequested.type, handleRoleChange, backend);
}
