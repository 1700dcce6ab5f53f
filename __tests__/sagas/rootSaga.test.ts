import { put, take } from 'redux-saga/effects';
import { createRootSaga } from '@/sagas/rootSaga';
import { createAppStore } from '@/store';
import { connectivityChanged } from '@/store/appSlice';

describe('rootSaga', () => {
  it('keeps the other sagas running when one of them fails', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    function* failing() {
      yield take('test/boom');
      throw new Error('boom');
    }
    function* echo() {
      while (true) {
        yield take('test/ping');
        yield put(connectivityChanged({ online: false }));
      }
    }
    const store = createAppStore({ rootSaga: createRootSaga({ failing, echo }) });
    store.dispatch({ type: 'test/boom' });
    expect(errors).toHaveBeenCalled();
    store.dispatch({ type: 'test/ping' });
    expect(store.getState().app.online).toBe(false);
  });

  it('starts a failed saga again after a wait, quietly (it is not a live watcher)', async () => {
    jest.useFakeTimers();
    try {
      jest.spyOn(console, 'error').mockImplementation(() => undefined);
      let starts = 0;
      function* flaky() {
        starts += 1;
        yield take('test/boom');
        throw new Error('boom');
      }
      const store = createAppStore({ rootSaga: createRootSaga({ flaky }) });
      store.dispatch({ type: 'test/boom' });
      expect(store.getState().live.watchers.flaky).toMatchObject({ live: false, restarting: true });
      await jest.advanceTimersByTimeAsync(1_000);
      expect(starts).toBe(2);
      expect(store.getState().live.watchers.flaky).toMatchObject({ restarting: false, restarts: 1 });
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('createAppStore with deferSagas', () => {
  it('starts the sagas in a task after the current one, not during store creation', async () => {
    function* echo() {
      while (true) {
        yield take('test/ping');
        yield put(connectivityChanged({ online: false }));
      }
    }
    const store = createAppStore({ rootSaga: createRootSaga({ echo }), deferSagas: true });
    store.dispatch({ type: 'test/ping' });
    expect(store.getState().app.online).toBe(true); // nobody listened yet
    await new Promise((resolve) => setTimeout(resolve, 0));
    store.dispatch({ type: 'test/ping' });
    expect(store.getState().app.online).toBe(false);
  });
});
