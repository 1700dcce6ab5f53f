// Supervision of the long-lived watchers: a watcher that crashes is reported (the console and
// live/watcherCrashed, which the page shows as "Reconnecting…") and started again after a growing wait, so one
// failure never silently stops live updates. A watcher that ran for a while before crashing starts again at once
// next time; one that keeps crashing waits up to half a minute between tries. Cancellation (sign-out, a new
// session) passes straight through: a cancelled watcher is not restarted.
import { call, delay, put } from 'redux-saga/effects';
import type { Saga } from 'redux-saga';
import { watcherCrashed, watcherRestarted } from '@/store/liveSlice';
import { now } from '@/platform/browser';
import {
  SUPERVISOR_BACKOFF_MAX_MS,
  SUPERVISOR_BACKOFF_START_MS,
  SUPERVISOR_STABLE_AFTER_MS,
} from '@/timings';

/** The wait before the n-th restart in a row (n from 1): 1 s, 2 s, 4 s … up to 30 s. */
export function restartDelay(crashesInARow: number): number {
  return Math.min(
    SUPERVISOR_BACKOFF_MAX_MS,
    SUPERVISOR_BACKOFF_START_MS * 2 ** Math.max(0, crashesInARow - 1),
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Runs `saga(...args)` as `name`, restarting it after each crash; returns when it returns. `live`: it carries
 * live data, so while it is down the page says "Reconnecting…".
 */
function* run(name: string, live: boolean, saga: Saga, args: unknown[]) {
  let crashesInARow = 0;
  while (true) {
    const startedAt: number = yield call(now);
    try {
      yield call(saga, ...args);
      return;
    } catch (error) {
      const ranFor = ((yield call(now)) as number) - startedAt;
      crashesInARow = ranFor >= SUPERVISOR_STABLE_AFTER_MS ? 1 : crashesInARow + 1;
      console.error(`The ${name} watcher failed; it starts again shortly`, error);
      yield put(watcherCrashed({ name, live, message: describe(error) }));
      yield delay(restartDelay(crashesInARow));
      yield put(watcherRestarted({ name }));
    }
  }
}

/** A long-lived watcher of live data: while it is down after a crash, the page says "Reconnecting…". */
export function* supervise(name: string, saga: Saga, ...args: unknown[]) {
  yield* run(name, true, saga, args);
}

/**
 * A watcher of something other than live data (push, the service worker), or a feature's whole saga as the root
 * runs it: restarted after a crash the same way, without "Reconnecting…".
 */
export function* superviseQuietly(name: string, saga: Saga, ...args: unknown[]) {
  yield* run(name, false, saga, args);
}
