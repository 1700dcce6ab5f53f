// Service-worker health (spec §4): counts controller changes and worker errors, asks the worker
// HEALTH_CHECK every minute (and on request), and when it does not answer restarts it — at most once per spec §9's
// 30 s cooldown. The assessment itself is derived from the counts (assessHealth in the slice).
import { call, delay, fork, put, select, take, takeLeading } from 'redux-saga/effects';
import { superviseQuietly } from './supervise';
import type { EventChannel } from 'redux-saga';
import type { WorkerToPageMessage } from '@/protocol/messages';
import { selectServiceWorker } from '@/store/appSlice';
import type { AppState } from '@/store/appSlice';
import {
  controllerChanged,
  healthCheckAnswered,
  healthCheckFailed,
  healthCheckRequested,
  healthCheckStarted,
  monitorStarted,
  restartCooldownRemaining,
  selectSwHealth,
  workerErrorRecorded,
  workerRestartFailed,
  workerRestartSkipped,
  workerRestartStarted,
} from '@/store/swHealthSlice';
import type { SwHealthState } from '@/store/swHealthSlice';
import { now } from '@/platform/browser';
import {
  createWorkerLifecycleChannel,
  restartServiceWorker,
  ServiceWorkerProtocolError,
} from '@/platform/serviceWorker';
import type { WorkerLifecycleEvent } from '@/platform/serviceWorker';
import { errorMessage } from './serviceWorkerSaga';
import { requestFromWorker } from './serviceWorkerProtocol';
import { SW_HEALTH_CHECK_INTERVAL_MS, SW_RESTART_COOLDOWN_MS } from '@/timings';

/** A worker restart the app triggers, unless one was triggered within the last 30 s (spec §9). */
export function* handleRestart() {
  const at: number = yield call(now);
  const health: SwHealthState = yield select(selectSwHealth);
  const remainingMs = restartCooldownRemaining(health, at, SW_RESTART_COOLDOWN_MS);
  if (remainingMs > 0) {
    yield put(workerRestartSkipped({ at, remainingMs }));
    return;
  }
  yield put(workerRestartStarted({ at }));
  try {
    yield call(restartServiceWorker);
  } catch (error) {
    console.warn('Restarting the service worker failed', error);
    yield put(workerRestartFailed({ error: errorMessage(error) }));
  }
}

/** One HEALTH_CHECK {timestamp}; the answer must echo the timestamp. No answer in 5 s restarts the worker. */
export function* handleHealthCheck() {
  const sentAt: number = yield call(now);
  yield put(healthCheckStarted());
  try {
    const answer: Extract<WorkerToPageMessage, { type: 'HEALTH_CHECK' }> = yield call(
      requestFromWorker,
      { type: 'HEALTH_CHECK', timestamp: sentAt },
      'HEALTH_CHECK',
    );
    if (answer.timestamp !== sentAt) {
      throw new ServiceWorkerProtocolError('The service worker answered another health check');
    }
    const at: number = yield call(now);
    yield put(
      healthCheckAnswered({
        at,
        roundTripMs: Math.max(0, at - sentAt),
        worker: { pushes: answer.pushes ?? null, ignoredMessages: answer.ignoredMessages ?? null },
      }),
    );
  } catch (error) {
    const at: number = yield call(now);
    yield put(healthCheckFailed({ at, error: errorMessage(error) }));
    yield call(handleRestart);
  }
}

/** Every minute while the app runs, once a worker is registered (none in the dev server, none unsupported). */
export function* checkPeriodically() {
  while (true) {
    yield delay(SW_HEALTH_CHECK_INTERVAL_MS);
    const sw: AppState['serviceWorker'] = yield select(selectServiceWorker);
    if (sw.status === 'ready') yield put(healthCheckRequested());
  }
}

export function* watchWorkerLifecycle(channel: EventChannel<WorkerLifecycleEvent>) {
  try {
    while (true) {
      const event: WorkerLifecycleEvent = yield take(channel);
      if (event.type === 'controllerchange') yield put(controllerChanged());
      else yield put(workerErrorRecorded({ error: 'A message from the service worker could not be read' }));
    }
  } finally {
    channel.close();
  }
}

/** The worker's lifecycle events, from a channel of their own (a restart after a crash opens a new one). */
export function* followWorkerLifecycle() {
  const channel: EventChannel<WorkerLifecycleEvent> = yield call(createWorkerLifecycleChannel);
  yield call(watchWorkerLifecycle, channel);
}

export function* swHealthSaga(enabled: boolean = __SERVICE_WORKER__) {
  const at: number = yield call(now);
  yield put(monitorStarted({ at }));
  yield takeLeading(healthCheckRequested.type, handleHealthCheck);
  if (!enabled) return;
  yield fork(superviseQuietly, 'service worker lifecycle', followWorkerLifecycle);
  yield fork(superviseQuietly, 'service worker health', checkPeriodically);
}
