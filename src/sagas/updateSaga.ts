// A new version (spec §2): when a new worker is installed and waits, version_update_pending is
// set and — only when the local setting enable_update_notifications is 'true' — the banner 'App update available
// - restart app to apply' shows top right for 5 s. Restarting sends SKIP_WAITING to the waiting worker and reloads
// once it controls the page. While a tab stays open the app asks for a new worker every hour.
import { call, delay, fork, put, race, take, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects';
import { browserLocalStorage, LOCAL_STORAGE_KEYS, readString, removeKey, writeString } from '@/platform';
import type { KeyValueStore } from '@/platform';
import { serviceWorkerTookControl } from '@/store/appSlice';
import {
  updateBannerHidden,
  updateBannerShown,
  updateNotificationsRead,
  updateNotificationsToggled,
  updateRestartRequested,
  updateInstalled,
} from '@/store/versionSlice';
import { reloadPage } from '@/platform/browser';
import { activateWaitingWorker, checkForNewVersion } from '@/platform/serviceWorker';
import { SW_MESSAGE_TIMEOUT_MS, UPDATE_BANNER_MS, UPDATE_CHECK_INTERVAL_MS } from '@/timings';

/** spec §2: the banner shows only if the local setting equals 'true' (exactly). */
export function updateNotificationsEnabled(store: KeyValueStore | null): boolean {
  return readString(store, LOCAL_STORAGE_KEYS.enableUpdateNotifications) === 'true';
}

export function* handleUpdateInstalled() {
  const store: KeyValueStore | null = yield call(browserLocalStorage);
  yield call(writeString, store, LOCAL_STORAGE_KEYS.versionUpdatePending, 'true');
  if (!updateNotificationsEnabled(store)) return;
  yield put(updateBannerShown());
  yield delay(UPDATE_BANNER_MS);
  yield put(updateBannerHidden());
}

/**
 * The restart: SKIP_WAITING to the waiting worker, then reload when it controls the page. Without a waiting
 * worker (another tab already applied it) or without an answer in 5 s, reload all the same: the page then runs
 * whichever version controls it.
 */
export function* handleRestartRequested() {
  const store: KeyValueStore | null = yield call(browserLocalStorage);
  yield call(removeKey, store, LOCAL_STORAGE_KEYS.versionUpdatePending);
  try {
    const waiting: boolean = yield call(activateWaitingWorker);
    if (waiting) {
      yield race({ controlling: take(serviceWorkerTookControl.type), timeout: delay(SW_MESSAGE_TIMEOUT_MS) });
    }
  } catch (error) {
    console.warn('Activating the new version failed', error);
  }
  yield call(reloadPage);
}

/** 'true' when on; the key is removed when off, so only the exact string 'true' ever turns the banner on. */
export function* handleNotificationsToggled(action: ReturnType<typeof updateNotificationsToggled>) {
  const store: KeyValueStore | null = yield call(browserLocalStorage);
  if (action.payload.enabled)
    yield call(writeString, store, LOCAL_STORAGE_KEYS.enableUpdateNotifications, 'true');
  else yield call(removeKey, store, LOCAL_STORAGE_KEYS.enableUpdateNotifications);
}

export function* checkForUpdatesPeriodically() {
  while (true) {
    yield delay(UPDATE_CHECK_INTERVAL_MS);
    try {
      yield call(checkForNewVersion);
    } catch (error) {
      console.warn('Checking for a new version failed', error);
    }
  }
}

export function* updateSaga(enabled: boolean = __SERVICE_WORKER__) {
  const store: KeyValueStore | null = yield call(browserLocalStorage);
  yield put(updateNotificationsRead({ enabled: updateNotificationsEnabled(store) }));
  yield takeEvery(updateNotificationsToggled.type, handleNotificationsToggled);
  yield takeLatest(updateInstalled.type, handleUpdateInstalled);
  yield takeLeading(updateRestartRequested.type, handleRestartRequested);
  if (enabled) yield fork(checkForUpdatesPeriodically);
}
