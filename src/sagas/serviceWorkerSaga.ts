// Registers the service worker from the page and follows its lifecycle into the store: the worker taking control,
// and a new version installed and waiting (the update banner's cue), including one that already waited when the
// page loaded (a pending update is not forgotten on reload).
import { call, put, take } from 'redux-saga/effects';
import type { EventChannel } from 'redux-saga';
import {
  serviceWorkerTookControl,
  serviceWorkerRegistered,
  serviceWorkerRegistrationFailed,
  serviceWorkerRegistrationStarted,
  serviceWorkerUnsupported,
} from '@/store/appSlice';
import { chunkLoadFailed, updateInstalled } from '@/store/versionSlice';
import { isChunkLoadError } from '@/platform/chunks';
import {
  createServiceWorkerChannel,
  getWorkbox,
  hasWaitingWorker,
  isPageControlled,
  isServiceWorkerSupported,
  registerServiceWorker,
} from '@/platform/serviceWorker';
import type { ServiceWorkerEvent, Workbox } from '@/platform/serviceWorker';

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function* serviceWorkerSaga(enabled: boolean = __SERVICE_WORKER__) {
  // The dev server builds no worker: hot reload and a precache would fight over the same files.
  if (!enabled) return;
  const supported: boolean = yield call(isServiceWorkerSupported);
  if (!supported) {
    yield put(serviceWorkerUnsupported());
    return;
  }
  yield put(serviceWorkerRegistrationStarted());
  let wb: Workbox;
  try {
    wb = yield call(getWorkbox);
  } catch (error) {
    // The Workbox chunk did not load: a chunk of an older build, as for every lazy chunk (spec §4),
    // is recovered by a reload; the page keeps working without its worker meanwhile.
    if (isChunkLoadError(error)) yield put(chunkLoadFailed());
    yield put(serviceWorkerRegistrationFailed({ message: errorMessage(error) }));
    return;
  }
  // Subscribe before registering so the first install's 'controlling' is not missed.
  const channel: EventChannel<ServiceWorkerEvent> = yield call(createServiceWorkerChannel, wb);
  try {
    yield call(registerServiceWorker, wb);
    yield put(serviceWorkerRegistered());
    const controlled: boolean = yield call(isPageControlled);
    if (controlled) yield put(serviceWorkerTookControl({ isUpdate: false }));
    // A new version found before this page loaded still waits: remember it (Settings → About offers the restart).
    const waiting: boolean = yield call(hasWaitingWorker);
    if (waiting) yield put(updateInstalled());
    while (true) {
      const event: ServiceWorkerEvent = yield take(channel);
      if (event.type === 'controlling') yield put(serviceWorkerTookControl({ isUpdate: event.isUpdate }));
      else if (event.type === 'waiting') yield put(updateInstalled());
    }
  } catch (error) {
    yield put(serviceWorkerRegistrationFailed({ message: errorMessage(error) }));
  } finally {
    channel.close();
  }
}
