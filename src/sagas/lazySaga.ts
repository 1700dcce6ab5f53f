// The one way a saga loads on demand, in a chunk of its own (the composition root, src/app/lazySagas.ts, names
// each): wait for its moment, import its chunk, start what the chunk holds. spec §4: a chunk that fails to load — a
// page of a replaced build asking for files that are gone, or offline before it was ever cached — is the chunk
// recovery's (chunkLoadFailed: reload once, then the error screen with Try again), and this saga ends there. It is
// not thrown for the supervisor: a retry would fail the same way, and once the recovery has given up (the session
// flag removed) each failure would reload the page again, a loop. Any other failure is thrown for the supervisor.
import { call, put, select, take } from 'redux-saga/effects';
import type { Saga, SagaIterator } from 'redux-saga';
import type { Action, UnknownAction } from '@reduxjs/toolkit';
import { isChunkLoadError } from '@/platform/chunks';
import { accountLoaded, selectAuthStatus } from '@/store/userSlice';
import type { AuthStatus } from '@/store/userSlice';
import { chunkLoadFailed } from '@/store/versionSlice';

/** What `when` answers: load now (true, or the action that asked for it), or never (false). */
export type LazyTrigger = UnknownAction | boolean;

export interface LazySaga<M> {
  /** What the chunk is, for the console when it fails. */
  name: string;
  /** The chunk: a dynamic import, with its webpackChunkName where it is written. */
  load: () => Promise<M>;
  /** Waits for the moment to load (see the triggers below). */
  when: Saga<[]>;
  /**
   * Starts what the chunk holds. `first`: the action that asked for the chunk, for the saga to handle first, so
   * nothing is lost while the chunk loads.
   */
  start: (module: M, first: UnknownAction | undefined) => unknown;
}

export function* lazySaga<M>(spec: LazySaga<M>): SagaIterator<void> {
  const trigger: LazyTrigger = yield call(spec.when);
  if (trigger === false) return;
  let module: M;
  try {
    module = yield call(spec.load);
  } catch (error) {
    if (!isChunkLoadError(error)) throw error;
    console.warn(`The ${spec.name} chunk could not be loaded`, error);
    yield put(chunkLoadFailed());
    return;
  }
  yield call(spec.start, module, trigger === true ? undefined : trigger);
}

/** Trigger: once a session starts (at once when one is under way). A signed-out visitor never loads the chunk. */
export function* whenSignedIn() {
  const status: AuthStatus = yield select(selectAuthStatus);
  if (status !== 'signedIn') yield take(accountLoaded.type);
  return true;
}

/** Trigger: the first action of a slice (`domain/…`), handed to the saga; the shell needs only the slice's name. */
export function whenFirstOf(domain: string): Saga<[]> {
  const isOfSlice = (action: Action): boolean => action.type.startsWith(`${domain}/`);
  return function* firstActionOf() {
    const first: UnknownAction = yield take(isOfSlice);
    return first;
  };
}
