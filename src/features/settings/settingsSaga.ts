// Settings requests against the users and push-token ports; saved documents flow back into the user slice.
import { call, put, select, takeEvery, takeLatest } from 'redux-saga/effects';
import { loadBackend } from '@/backend';
import type { Backend } from '@/backend/ports';
import type { PushTokenDoc, UserDoc } from '@core/model';
import { docChanged, selectUid } from '@/store/userSlice';
import { toFailure } from '@/sagas/errors';
import {
  deviceRemoveFailed,
  deviceRemoveRequested,
  deviceRemoved,
  devicesLoadFailed,
  devicesLoaded,
  devicesRequested,
  notificationsSaveFailed,
  notificationsSaveRequested,
  notificationsSaved,
  profileSaveFailed,
  profileSaveRequested,
  profileSaved,
} from './settingsSlice';

const NOT_SIGNED_IN = 'Please sign in first.';

export function* handleProfileSave(action: ReturnType<typeof profileSaveRequested>) {
  const uid: string | null = yield select(selectUid);
  if (!uid) {
    yield put(profileSaveFailed({ message: NOT_SIGNED_IN }));
    return;
  }
  try {
    const backend: Backend = yield call(loadBackend);
    const doc: UserDoc = yield call([backend.users, backend.users.updateProfile], uid, {
      nickname: action.payload.nickname,
    });
    yield put(docChanged({ doc }));
    yield put(profileSaved());
  } catch (error) {
    yield put(profileSaveFailed({ message: toFailure(error).message }));
  }
}

export function* handleNotificationsSave(action: ReturnType<typeof notificationsSaveRequested>) {
  const uid: string | null = yield select(selectUid);
  if (!uid) {
    yield put(notificationsSaveFailed({ message: NOT_SIGNED_IN }));
    return;
  }
  try {
    const backend: Backend = yield call(loadBackend);
    const doc: UserDoc = yield call([backend.users, backend.users.updateProfile], uid, {
      notificationSettings: action.payload.settings,
    });
    yield put(docChanged({ doc }));
    yield put(notificationsSaved());
  } catch (error) {
    yield put(notificationsSaveFailed({ message: toFailure(error).message }));
  }
}

export function* handleDevicesRequested() {
  const uid: string | null = yield select(selectUid);
  if (!uid) {
    yield put(devicesLoadFailed({ message: NOT_SIGNED_IN }));
    return;
  }
  try {
    const backend: Backend = yield call(loadBackend);
    const items: PushTokenDoc[] = yield call([backend.pushTokens, backend.pushTokens.listMyTokens], uid);
    yield put(devicesLoaded({ items: [...items].sort((a, b) => b.lastUsed - a.lastUsed) }));
  } catch (error) {
    yield put(devicesLoadFailed({ message: toFailure(error).message }));
  }
}

export function* handleDeviceRemove(action: ReturnType<typeof deviceRemoveRequested>) {
  const { id } = action.payload;
  const uid: string | null = yield select(selectUid);
  if (!uid) {
    yield put(deviceRemoveFailed({ id, message: NOT_SIGNED_IN }));
    return;
  }
  try {
    const backend: Backend = yield call(loadBackend);
    yield call([backend.pushTokens, backend.pushTokens.deleteToken], uid, id);
    yield put(deviceRemoved({ id }));
  } catch (error) {
    yield put(deviceRemoveFailed({ id, message: toFailure(error).message }));
  }
}

export function* settingsSaga() {
  yield takeLatest(profileSaveRequested.type, handleProfileSave);
  yield takeLatest(notificationsSaveRequested.type, handleNotificationsSave);
  yield takeLatest(devicesRequested.type, handleDevicesRequested);
  yield takeEvery(deviceRemoveRequested.type, handleDeviceRemove);
}
