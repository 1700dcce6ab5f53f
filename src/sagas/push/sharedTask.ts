// spec §4: "a global lock allows one token creation at a time; concurrent callers share its result". A shared task
// runs one saga at a time; whoever calls while it runs joins the running one and gets the same result. The run
// is spawned (detached) so that cancelling the caller who started it does not cancel it for the others; it is
// cancelled on purpose only through cancelShared (sign-out, permission revoked).
import { cancel, join, spawn } from 'redux-saga/effects';
import type { Saga, Task } from 'redux-saga';

export interface SharedTask {
  task: Task | null;
}

export function createSharedTask(): SharedTask {
  return { task: null };
}

/** Runs `saga` under the lock, or joins the run in progress. The saga must return its failures, not throw. */
export function* runShared(shared: SharedTask, saga: Saga, ...args: unknown[]) {
  const running = shared.task;
  if (running !== null && running.isRunning()) return (yield join(running)) as unknown;
  const task: Task = yield spawn(saga, ...args);
  shared.task = task;
  return (yield join(task)) as unknown;
}

/** Cancels the run in progress, if any, so no lock outlives the session or permission it was taken under. */
export function* cancelShared(shared: SharedTask) {
  const running = shared.task;
  shared.task = null;
  if (running !== null && running.isRunning()) yield cancel(running);
}
