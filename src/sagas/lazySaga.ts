// The one way a saga loads on demand, in a chunk of its own (the composition root, src/app/lazySagas.ts, names
// each): wait for its moment, import its chunk, start what the chunk holds. A chunk loaded at a slice's first action
// is handed that action and every other of the slice that came while it loaded: its saga's watchers were not there
// to take them, and a request lost there (the second of two dispatched in one render) would wait forever.
// spec §4: a chunk that fails to load — a page of a replaced build asking for files that are gone, or offline before
// it was ever cached — is the chunk recovery's (chunkLoadFailed: reload once, then the error screen with Try again),
// and this saga ends there. It is not thrown for the supervisor: a retry would fail the same way, and once the
// recovery has given up (the session flag removed) each failure would reload the page again, a loop. Any other
// failure is thrown for the supervisor.
import { actionChannel, call, flush, put, select, take } from 'redux-saga/effects';
import { buffers } from 'redux-saga';
import type { Channel, Saga, SagaIterator } from 'redux-saga';
import type { Action, UnknownAction } from '@reduxjs/toolkit';
import { isChunkLoadError } from '@/platform/chunks';
import { accountLoaded, selectAuthStatus } from '@/store/userSlice';
import type { AuthStatus } from '@/store/userSlice';
import { chunkLoadFailed } from '@/store/versionSlice';

/** A slice's actions that asked for a chunk: the first, and a channel keeping the ones after it. */
export interface SliceRequests {
  first: UnknownAction;
  meanwhile: Channel<UnknownAction>;
}

/** What `when` answers: load now (true, or the slice's requests that asked for it), or never (false). */
export type LazyTrigger = SliceRequests | boolean;

export interface LazySaga<M> {
  /** What the chunk is, for the console when it fails. */
  name: string;
  /** The chunk: a dynamic import, with its webpackChunkName where it is written. */
  load: () => Promise<M>;
  /** Waits for the moment to load (see the triggers below). */
  when: Saga<[]>;
  /**
   * Starts what the chunk holds. `early`: the slice's actions that came before the chunk's saga could take them
   * (the one that asked for the chunk first, in the order they came), for the saga to handle as its watchers would
   * have; none when the trigger was a moment.
   */
  start: (module: M, early: readonly UnknownAction[]) => unknown;
}

export function* lazySaga<M>(spec: LazySaga<M>): SagaIterator<void> {
  const trigger: LazyTrigger = yield call(spec.when);
  if (trigger === false) return;
  const requests = trigger === true ? undefined : trigger;
  try {
    let module: M;
    try {
      module = yield call(spec.load);
    } catch (error) {
      if (!isChunkLoadError(error)) throw error;
      console.warn(`The ${spec.name} chunk could not be loaded`, error);
      yield put(chunkLoadFailed());
      return;
    }
    const early: UnknownAction[] = [];
    if (requests) {
      const meanwhile: UnknownAction[] = yield flush(requests.meanwhile);
      requests.meanwhile.close();
      early.push(requests.first, ...meanwhile);
    }
    // Nothing can be dispatched between the flush and the saga's first take: both run in this one turn.
    yield call(spec.start, module, early);
  } finally {
    requests?.meanwhile.close();
  }
}

/** Trigger: once a session starts (at once when one is under way). A signed-out visitor never loads the chunk. */
export function* whenSignedIn() {
  const status: AuthStatus = yield select(selectAuthStatus);
  if (status !== 'signedIn') yield take(accountLoaded.type);
  return true;
}

/**
 * Trigger: the first action of a slice (`domain/…`); it and the slice's actions after it are kept for the saga.
 * The shell needs only the slice's name.
 */
export function whenFirstOf(domain: string): Saga<[]> {
  const isOfSlice = (action: Action): boolean => action.type.startsWith(`${domain}/`);
  return function* firstActionOf(): SagaIterator<SliceRequests> {
    const meanwhile: Channel<UnknownAction> = yield actionChannel(
      isOfSlice,
      buffers.expanding<UnknownAction>(),
    );
    const first: UnknownAction = yield take(meanwhile);
    return { first, meanwhile };
  };
}

/** What a takeLeading of `creator` would have handled of `early`: the first it matches (the rest came while busy). */
export function leadingOf<A extends UnknownAction>(
  early: readonly UnknownAction[],
  creator: { match: (action: unknown) => action is A },
): A | undefined {
  return early.find((action): action is A => creator.match(action));
}

/** What a takeLatest of `creator` would have ended with of `early`: the last it matches (it cancels the others). */
export function latestOf<A extends UnknownAction>(
  early: readonly UnknownAction[],
  creator: { match: (action: unknown) => action is A },
): A | undefined {
  return early.filter((action): action is A => creator.match(action)).at(-1);
}

/** What a takeEvery of `creator` would have handled of `early`: each it matches, in order. */
export function everyOf<A extends UnknownAction>(
  early: readonly UnknownAction[],
  creator: { match: (action: unknown) => action is A },
): A[] {
  return early.filter((action): action is A => creator.match(action));
}
