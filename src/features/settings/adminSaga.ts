// The admin section's requests against the admin port.
import { call, fork, put, takeEvery, takeLatest } from 'redux-saga/effects';
import type { UnknownAction } from '@reduxjs/toolkit';
import type { Backend } from '@/backend/ports';
import type { AdminChannel, AdminUser } from '@core/model';
import { toFailure } from '@/backend/errors';
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
 * Handles each request; `first` is the request that loaded this chunk (src/app/lazySagas.ts), handled before
 * the others are awaited.
 */
export function* adminSaga(backend: Backend, first?: UnknownAction) {
  if (first && adminUsersRequested.match(first)) yield fork(handleUsersRequested, backend);
  if (first && adminChannelsRequested.match(first)) yield fork(handleChannelsRequested, backend);
  if (first && roleChangeRequested.match(first)) yield fork(handleRoleChange, backend, first);
  yield takeLatest(adminUsersRequested.type, handleUsersRequested, backend);
  yield takeLatest(adminChannelsRequested.type, handleChannelsRequested, backend);
  yield takeEvery(roleChangeRequested.type, handleRoleChange, backend);
}
