import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { combineReducers } from '@reduxjs/toolkit';
import { call, takeEvery } from 'redux-saga/effects';
import { lazyDebugMenuSaga, loadDebugMenu } from '@/app/lazyDebugMenu';
import app, { started } from '@/store/appSlice';
import { debugButtonShown } from '@/store/debugSlice';
import { chunkLoadFailed } from '@/store/versionSlice';

const reducer = combineReducers({ app });
const environment = (platform: 'ios' | 'web') => ({
  platform,
  installed: false,
  online: true,
  deviceId: '0b6c2d2e-1f7a-4b8e-9a51-3f0f6a0f9d11',
});

describe('lazyDebugMenuSaga', () => {
  it('runs the chunk recovery of spec §4 when its chunk cannot be loaded (issue #14 part 6)', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const chunkError = Object.assign(new Error('Loading chunk ios-debug failed.'), {
      name: 'ChunkLoadError',
    });
    await expectSaga(lazyDebugMenuSaga)
      .withReducer(reducer, reducer(undefined, started(environment('ios'))))
      .provide([[matchers.call.fn(loadDebugMenu), Promise.reject(chunkError)]])
      .put(chunkLoadFailed())
      .silentRun(20);
    // Any other failure is only logged.
    await expectSaga(lazyDebugMenuSaga)
      .withReducer(reducer, reducer(undefined, started(environment('ios'))))
      .provide([[matchers.call.fn(loadDebugMenu), Promise.reject(new Error('boom'))]])
      .not.put(chunkLoadFailed())
      .silentRun(20);
  });

  it('never loads the menu off iOS', async () => {
    const load = jest.fn();
    await expectSaga(lazyDebugMenuSaga)
      .withReducer(reducer, reducer(undefined, started(environment('web'))))
      .provide([[matchers.call.fn(loadDebugMenu), load]])
      .not.call.fn(loadDebugMenu)
      .silentRun(20);
  });

  it('on iOS loads it and replays the button’s actions that came while it loaded', async () => {
    const seen: string[] = [];
    function* fakeMenu() {
      yield takeEvery(debugButtonShown.type, function* record() {
        yield call(() => seen.push('shown'));
      });
    }
    let release!: () => void;
    const loading = new Promise<{ debugMenuSaga: typeof fakeMenu }>(
      (resolve) => (release = () => resolve({ debugMenuSaga: fakeMenu })),
    );
    const saga = expectSaga(lazyDebugMenuSaga)
      .withReducer(reducer, reducer(undefined, started(environment('ios'))))
      .provide([[matchers.call.fn(loadDebugMenu), loading]]);
    const run = saga.silentRun(50);
    saga.dispatch(debugButtonShown());
    release();
    await run;
    expect(seen).toEqual(['shown']);
  });
});
