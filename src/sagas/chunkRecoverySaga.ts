// A route chunk that fails to load (spec §4, issue #5 part 6; usually an old page asking for the files of a build
// that was replaced). The first failure of a session clears the caches and the two version flags, sets
// chunk_error_reloaded in session storage and reloads once; a failure with the flag already set only removes it and
// shows the error screen with a retry. Never a loop: where session storage cannot be written, no reload happens.
import { call, put, takeLeading } from 'redux-saga/effects';
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
} from '@/store/versionSlice';
import { clearAllCaches, reloadPage } from '@/platform/browser';

export function* handleChunkLoadFailed() {
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

export function* chunkRecoverySaga() {
  yield takeLeading(chunkLoadFailed.type, handleChunkLoadFailed);
  yield takeLeading(chunkRetryRequested.type, function* retry() {
    yield call(reloadPage);
  });
}
