// Start-up of the app's environment: reads platform, install state, device id and push support once, then
// follows connectivity, display-mode changes and the install prompt for as long as the app runs.
import { all, call, fork, put, take, takeLeading } from 'redux-saga/effects';
import type { EventChannel } from 'redux-saga';
import { browserDeviceIdSource, browserInstallEnv, browserPlatform, isInstalledApp } from '@/platform';
import {
  connectivityChanged,
  displayModeChanged,
  installPromptCaptured,
  installPromptUsed,
  installRequested,
  started,
} from '@/store/appSlice';
import type { AppStartedPayload } from '@/store/appSlice';
import {
  createConnectivityChannel,
  createDisplayModeChannel,
  createInstallPromptChannel,
  showInstallPrompt,
} from '@/platform/browserEvents';
import type { ConnectivityEvent, InstallPromptEvent } from '@/platform/browserEvents';

/** Reads the environment from the browser; the one place start-up touches globals. */
export function readEnvironment(): AppStartedPayload {
  const platform = browserPlatform();
  return {
    platform,
    installed: isInstalledApp(browserInstallEnv()),
    online: typeof navigator === 'undefined' ? true : navigator.onLine,
    deviceId: browserDeviceIdSource()(),
  };
}

export function readInstalled(): boolean {
  return isInstalledApp(browserInstallEnv());
}

export function* watchConnectivity(channel: EventChannel<ConnectivityEvent>) {
  try {
    while (true) {
      const event: ConnectivityEvent = yield take(channel);
      yield put(connectivityChanged(event));
    }
  } finally {
    channel.close();
  }
}

export function* watchDisplayMode(channel: EventChannel<{ changed: true }>) {
  try {
    while (true) {
      yield take(channel);
      const installed: boolean = yield call(readInstalled);
      yield put(displayModeChanged({ installed }));
    }
  } finally {
    channel.close();
  }
}

export function* watchInstallPrompt(channel: EventChannel<InstallPromptEvent>) {
  try {
    while (true) {
      const event: InstallPromptEvent = yield take(channel);
      if (event.type === 'captured') yield put(installPromptCaptured());
      else {
        yield put(installPromptUsed());
        yield put(displayModeChanged({ installed: true }));
      }
    }
  } finally {
    channel.close();
  }
}

export function* handleInstallRequested() {
  try {
    yield put(installPromptUsed());
    yield call(showInstallPrompt);
  } catch (error) {
    console.warn('The install prompt failed', error);
  }
}

export function* appSaga() {
  const environment: AppStartedPayload = yield call(readEnvironment);
  yield put(started(environment));
  yield takeLeading(installRequested.type, handleInstallRequested);
  if (typeof window === 'undefined') return;
  const connectivity: EventChannel<ConnectivityEvent> = yield call(createConnectivityChannel, window);
  const displayMode: EventChannel<{ changed: true }> = yield call(createDisplayModeChannel, (q: string) =>
    window.matchMedia(q),
  );
  const installPrompt: EventChannel<InstallPromptEvent> = yield call(createInstallPromptChannel, window);
  yield all([
    fork(watchConnectivity, connectivity),
    fork(watchDisplayMode, displayMode),
    fork(watchInstallPrompt, installPrompt),
  ]);
}
