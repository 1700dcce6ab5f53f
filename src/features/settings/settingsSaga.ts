// Settings requests against the users and push-token ports; saved documents flow back into the user slice.
import { call, put, select, takeEvery, takeLatest } from 'redux-saga/effects';
import type { Backend, ProfilePatch } from '@/backend/ports';
import type { PushTokenDoc, UserDoc } from '@core/model';
import { docChanged, selectUid } from '@/store/userSlice';
import { toFailure } from '@/backend/errors';
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

/** Saves a patch of the user's own document; the saved document flows back into the user slice. */
function* saveOwnProfile(
  backend: Backend,
  patch: ProfilePatch,
  saved: () => { type: string },
  failed: (payload: { message: string }) => { type: string },
) {
  const uid: string | null = yield select(selectUid);
  if (!uid) {
    yield put(failed({ message: NOT_SIGNED_IN }));
    return;
  }
  try {
    const doc: UserDoc = yield call([backend.users, backend.users.updateProfile], uid, patch);
    yield put(docChanged({ doc }));
    yield put(saved());
  } catch (error) {
    yield put(failed({ message: toFailure(error).message }));
  }
}

export function* handleProfileSave(backend: Backend, action: ReturnType<typeof profileSaveRequested>) {
  yield call(saveOwnProfile, backend, { nickname: action.payload.nickname }, profileSaved, profileSaveFailed);
}

export function* handleNotificationsSave(
  backend: Backend,
  action: ReturnType<typeof notificationsSaveRequested>,
) {
  yield call(
    saveOwnProfile,
    backend,
    { notificationSettings: action.payload.settings },
    notificationsSaved,
    notificationsSaveFailed,
  );
}

export function* handleDevicesRequested(backend: Backend) {
  const uid: string | null = yield select(selectUid);
  if (!uid) {
    yield put(devicesLoadFailed({ message: NOT_SIGNED_IN }));
    return;
  }
  try {
    const items: PushTokenDoc[] = yield call([backend.pushTokens, backend.pushTokens.listMyTokens], uid);
    yield put(devicesLoaded({ items: [...items].sort((a, b) => b.lastUsed - a.lastUsed) }));
  } catch (error) {
    yield put(devicesLoadFailed({ message: toFailure(error).message }));
  }
}

export function* handleDeviceRemove(backend: Backend, action: ReturnType<typeof deviceRemoveRequested>) {
  const { id } = action.payload;
  const uid: string | null = yield select(selectUid);
  if (!uid) {
    yield put(deviceRemoveFailed({ id, message: NOT_SIGNED_IN }));
    return;
  }
  try {
    yield call([backend.pushTokens, backend.pushTokens.deleteToken], uid, id);
    yield put(deviceRemoved({ id }));
  } catch (error) {
    yield put(deviceRemoveFailed({ id, message: toFailure(error).message }));
  }
}

export function* settingsSaga(backend: Backend) {
  yield takeLatest(profileSaveRequested.type, handleProfileSave, backend);
  yield takeLatest(notificationsSaveRequested.type, handleNotificationsSave, backend);
  yield takeLatest(devicesRequested.type, handleDevicesRequested, backend);
  yield takeEvery(deviceRemoveRequested.type, handleDeviceRemove, backend);
}
