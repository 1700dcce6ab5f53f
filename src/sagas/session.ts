// Helpers for sagas that live as long as a signed-in session, and for live sources that burst.
import { buffers, eventChannel } from 'redux-saga';
import type { Buffer, Channel, EventChannel, Task } from 'redux-saga';
import { cancel, delay, flush, fork, select, take } from 'redux-saga/effects';
import type { Effect } from 'redux-saga/effects';
import type { Unsubscribe } from '@/backend/ports';
import { accountLoaded, selectAuthStatus, selectUid, signedOut } from '@/store/userSlice';
import type { AuthStatus } from '@/store/userSlice';

/**
 * Runs `worker(uid, ...args)` for each signed-in session (user/accountLoaded) and cancels it when the session ends or the
 * next one starts. A session already under way when this starts (a supervised restart after a crash) is resumed.
 */
export function* forEachSession(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as redux-saga's own Saga type: any arguments.
  worker: (uid: string, ...args: any[]) => Iterator<unknown>,
  ...args: unknown[]
) {
  let task: Task | undefined;
  const status: AuthStatus = yield select(selectAuthStatus);
  const current: string | null = yield select(selectUid);
  if (status === 'signedIn' && current !== null) task = yield fork(worker, current, ...args);
  while (true) {
    const action: { type: string } = yield take([accountLoaded.type, signedOut.type]);
    if (task) yield cancel(task);
    task = undefined;
    const uid: string | null = yield select(selectUid);
    if (action.type === accountLoaded.type && uid !== null) task = yield fork(worker, uid, ...args);
  }
}

/**
 * An eventChannel that keeps what arrives while its saga is busy (a burst must never be dropped): redux-saga's
 * default for eventChannel keeps nothing.
 */
export function keepingChannel<T extends NonNullable<unknown>>(
  subscribe: (emit: (value: T) => void) => Unsubscribe,
  buffer: Buffer<T> = buffers.expanding<T>(64),
): EventChannel<T> {
  return eventChannel<T>(subscribe, buffer);
}

/**
 * The next item and everything else that arrives with it: waits one task after the first, so that events a
 * browser delivers together (one network chunk of a stream) become one batch — one action, one render.
 */
export function* takeBatch<T extends NonNullable<unknown>>(
  channel: EventChannel<T> | Channel<T>,
): Generator<Effect, T[], unknown> {
  const first = (yield take(channel)) as T;
  yield delay(0);
  const rest = (yield flush(channel)) as T[];
  return [first, ...rest];
}
