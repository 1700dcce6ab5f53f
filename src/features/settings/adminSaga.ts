// The admin section's requests against the admin port.
import { call, put, takeEvery, takeLatest } from 'redux-saga/effects';
import { loadBackend } from '@/backend';
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

export function* handleUsersRequested() {
  try {
    const backend: Backend = yield call(loadBackend);
    const items: AdminUser[] = yield call([backend.admin, backend.admin.listUsers]);
    yield put(adminUsersLoaded({ items }));
  } catch (error) {
    yield put(adminUsersFailed({ message: toFailure(error).message }));
  }
}

export function* handleChannelsRequested() {
  try {
    const backend: Backend = yield call(loadBackend);
    const items: AdminChannel[] = yield call([backend.admin, backend.admin.listChannels]);
    yield put(adminChannelsLoaded({ items }));
  } catch (error) {
    yield put(adminChannelsFailed({ message: toFailure(error).message }));
  }
}

export function* handleRoleChange(action: ReturnType<typeof roleChangeRequested>) {
  const { uid, isOwner } = action.payload;
  try {
    const backend: Backend = yield call(loadBackend);
    const user: AdminUser = yield call([backend.admin, backend.admin.setConsultant], uid, isOwner);
    yield put(roleChanged({ user }));
  } catch (error) {
    yield put(roleChangeFailed({ uid, message: toFailure(error).message }));
  }
}

export function* adminSaga() {
  yield takeLatest(adminUsersRequested.type, handleUsersRequested);
  yield takeLatest(adminChannelsRequested.type, handleChannelsRequested);
  yield takeEvery(roleChangeRequested.type, handleRoleChange);
}
