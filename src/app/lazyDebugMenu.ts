// The iOS debug menu (issue #5) is for iOS only, so its saga loads in its own chunk, and only on iOS: the rest of
// the world never downloads it. Its button's actions that arrive while the chunk loads are kept and replayed.
import { actionChannel, call, flush, fork, put, select, take } from 'redux-saga/effects';
import type { Channel } from 'redux-saga';
import type { Action } from '@reduxjs/toolkit';
import { selectApp, started } from '@/store/appSlice';
import type { AppState } from '@/store/appSlice';
import { debugButtonShown, debugMenuOpened } from '@/store/debugSlice';
import { chunkLoadFailed } from '@/store/versionSlice';
import { isChunkLoadError } from '@/platform/chunks';

export function loadDebugMenu() {
  return import(/* webpackChunkName: "ios-debug" */ '@/sagas/debugMenuSaga');
}

export function* lazyDebugMenuSaga() {
  const early: Channel<Action> = yield actionChannel([debugButtonShown.type, debugMenuOpened.type]);
  let app: AppState = yield select(selectApp);
  if (!app.started) {
    yield take(started.type);
    app = yield select(selectApp);
  }
  if (app.platform !== 'ios') {
    early.close();
    return;
  }
  try {
    const { debugMenuSaga }: Awaited<ReturnType<typeof loadDebugMenu>> = yield call(loadDebugMenu);
    yield fork(debugMenuSaga);
  } catch (error) {
    console.warn('The debug menu could not be loaded', error);
    early.close();
    // A chunk of an older build, or offline before it was ever cached: the recovery of spec §4 (reload once,
    // then the error screen), as for every lazy chunk (issue #14 part 6).
    if (isChunkLoadError(error)) yield put(chunkLoadFailed());
    return;
  }
  const missed: Action[] = yield flush(early);
  early.close();
  for (const action of missed) yield put(action);
}
