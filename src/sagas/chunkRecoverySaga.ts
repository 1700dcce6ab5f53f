// A route chunk that fails to load (spec §4; usually an old page asking for the files of a build
// that was replaced). The first failure of a session clears the caches and the two version flags, sets
// chunk_error_reloaded in session storage and reloads once; a failure with the flag already set only removes it and
// shows the error screen with a retry. Never a loop: where session storage cannot be written, no reload happens.
import { call, fork, put, select, take, takeLeading } from 'redux-saga/effects';
import type { EventChannel } from 'redux-saga';
import {
  browserLocalStorage,
  browserSessionStorage,
  LOCAL_STORAGE_KEYS,
  readString,
  removeKey,
  SESSION_STORAGE_KEYS,
  writeString,
} from '@/platform';
import type { KeyValueStore } from '@/platform';
import {
  chunkLoadFailed,
  chunkRecoveryExhausted,
  chunkReloadStarted,
  chunkRetryRequested,
  selectChunkRecovery,
} from '@/store/versionSlice';
import type { ChunkRecoveryStatus } from '@/store/versionSlice';
import { clearAllCaches, reloadPage } from '@/platform/browser';
import { createChunkFailureChannel } from '@/platform/browserEvents';

export function* handleChunkLoadFailed() {
  // A page already reloading can still see more chunks fail before it unloads (several of the SDK's at once):
  // those must not take the flag away again, or the next page would reload once more.
  const status: ChunkRecoveryStatus = yield select(selectChunkRecovery);
  if (status === 'reloading') return;
  const session: KeyValueStore | null = yield call(browserSessionStorage);
  if (readString(session, SESSION_STORAGE_KEYS.chunkErrorReloaded) !== null) {
    yield call(removeKey, session, SESSION_STORAGE_KEYS.chunkErrorReloaded);
    yield put(chunkRecoveryExhausted());
    return;
  }
  const guarded: boolean = yield call(writeString, session, SESSION_STORAGE_KEYS.chunkErrorReloaded, 'true');
  if (!guarded) {
    // Without the flag a reload could fail the same way and reload again: show the error instead.
    yield put(chunkRecoveryExhausted());
    return;
  }
  yield put(chunkReloadStarted());
  try {
    yield call(clearAllCaches);
  } catch (error) {
    console.warn('Clearing the caches failed', error);
  }
  const local: KeyValueStore | null = yield call(browserLocalStorage);
  yield call(removeKey, local, LOCAL_STORAGE_KEYS.versionUpdatePending);
  yield call(removeKey, local, LOCAL_STORAGE_KEYS.forceVersionCheck);
  yield call(reloadPage);
}

/** Failures the adapter reports from the Firebase SDK's own chunks become the same event as a route's. */
export function* watchReportedChunkFailures() {
  const channel: EventChannel<{ failed: true }> = yield call(createChunkFailureChannel);
  try {
    for (;;) {
      yield take(channel);
      yield put(chunkLoadFailed());
    }
  } finally {
    channel.close();
  }
}

export function* chunkRecoverySaga() {
  yield fork(watchReportedChunkFailures);
  yield takeLeading(chunkLoadFailed.type, handleChunkLoadFailed);
  yield takeLeading(chunkRetryRequested.type, function* retry() {
    yield call(reloadPage);
  });
}
