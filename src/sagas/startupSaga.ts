// Start-up of this page (spec §4): more than 60 s since last_app_start counts as a restart (in
// the service-worker health's restart window), otherwise as a quick resume; legacy messaging workers are unregistered (a failure is only a warning). After a
// restart the worker is health-checked as soon as it is registered; a quick resume (iOS relaunching the app a few
// seconds after it went away) trusts the check of a moment ago. A force_version_check left by an older build asks
// the browser for a new worker once.
import { call, put, race, select, take } from 'redux-saga/effects';
import { browserLocalStorage, LOCAL_STORAGE_KEYS, readString, removeKey, writeString } from '@/platform';
import type { KeyValueStore } from '@/platform';
import {
  selectServiceWorker,
  serviceWorkerRegistered,
  serviceWorkerRegistrationFailed,
  serviceWorkerUnsupported,
} from '@/store/appSlice';
import type { AppState } from '@/store/appSlice';
import { appRestartsCounted, healthCheckRequested, startupClassified } from '@/store/swHealthSlice';
import type { StartupKind } from '@/store/swHealthSlice';
import { now } from '@/platform/browser';
import { checkForNewVersion, unregisterLegacyWorkers } from '@/platform/serviceWorker';
import type { LegacyCleanup } from '@/platform/serviceWorker';
import { STARTUP_RESTART_THRESHOLD_MS, SW_RESTART_WINDOW_MS } from '@/timings';

/** The previous start, or null when none is stored or the stored value is not a time. */
export function readLastStart(store: KeyValueStore | null): number | null {
  const raw = readString(store, LOCAL_STORAGE_KEYS.lastAppStart);
  if (raw === null || !/^\d{1,16}$/.test(raw)) return null;
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : null;
}

/** spec §4: a restart after more than 60 s (or with no earlier start, or a clock that went back). */
export function classifyStartup(at: number, lastStart: number | null) {
  const sinceLastStartMs = lastStart !== null && lastStart <= at ? at - lastStart : null;
  const kind: StartupKind =
    sinceLastStartMs !== null && sinceLastStartMs <= STARTUP_RESTART_THRESHOLD_MS ? 'quickResume' : 'restart';
  return { kind, at, sinceLastStartMs };
}

/** The app's restarts stored by earlier page loads that are still inside the 5-minute window at `at`. */
export function readRecentRestarts(store: KeyValueStore | null, at: number): number[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readString(store, LOCAL_STORAGE_KEYS.appRestarts) ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed
    .filter(
      (time): time is number => Number.isSafeInteger(time) && time <= at && at - time < SW_RESTART_WINDOW_MS,
    )
    .slice(-20);
}

/**
 * spec §4: a start more than 60 s after the last one "counts as a restart": in the service-worker health's
 * restart window, across page loads (kept in app_restarts). A first start (no earlier one, or a clock that went
 * back) is no restart of anything, and a quick resume is not one either.
 */
export function* countAppRestart(store: KeyValueStore | null, startup: ReturnType<typeof classifyStartup>) {
  const recent = readRecentRestarts(store, startup.at);
  const counted = startup.kind === 'restart' && startup.sinceLastStartMs !== null;
  const times = counted ? [...recent, startup.at] : recent;
  if (counted) yield call(writeString, store, LOCAL_STORAGE_KEYS.appRestarts, JSON.stringify(times));
  if (times.length > 0) yield put(appRestartsCounted({ times }));
}

export function* removeLegacyWorkers() {
  try {
    const result: LegacyCleanup = yield call(unregisterLegacyWorkers);
    for (const failure of result.failed) {
      console.warn(
        `A legacy messaging worker (${failure.scope}) could not be unregistered: ${failure.error}`,
      );
    }
  } catch (error) {
    console.warn('Looking for legacy messaging workers failed', error);
  }
}

/** Resolves true once the app's worker is registered, false when it never will be. */
export function* workerRegistered() {
  const sw: AppState['serviceWorker'] = yield select(selectServiceWorker);
  if (sw.status === 'ready') return true;
  if (sw.status === 'failed' || sw.status === 'unsupported') return false;
  const { registered }: { registered?: unknown } = yield race({
    registered: take(serviceWorkerRegistered.type),
    failed: take(serviceWorkerRegistrationFailed.type),
    unsupported: take(serviceWorkerUnsupported.type),
  });
  return registered !== undefined;
}

export function* startupSaga(enabled: boolean = __SERVICE_WORKER__) {
  const store: KeyValueStore | null = yield call(browserLocalStorage);
  const at: number = yield call(now);
  const startup = classifyStartup(at, readLastStart(store));
  yield call(writeString, store, LOCAL_STORAGE_KEYS.lastAppStart, String(at));
  yield put(startupClassified(startup));
  yield call(countAppRestart, store, startup);
  if (!enabled) return;
  yield call(removeLegacyWorkers);
  const forceVersionCheck = readString(store, LOCAL_STORAGE_KEYS.forceVersionCheck) === 'true';
  if (startup.kind === 'quickResume' && !forceVersionCheck) return;
  const registered: boolean = yield call(workerRegistered);
  if (!registered) return;
  if (startup.kind === 'restart') yield put(healthCheckRequested());
  if (forceVersionCheck) {
    yield call(removeKey, store, LOCAL_STORAGE_KEYS.forceVersionCheck);
    try {
      yield call(checkForNewVersion);
    } catch (error) {
      console.warn('Checking for a new version failed', error);
    }
  }
}
