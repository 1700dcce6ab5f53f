import { call, put, take, takeEvery } from 'redux-saga/effects';
import { chunkLoadFailed } from '@/store/versionSlice';
import type { Backend } from '@/backend/ports';
import { createRootSaga } from '@/app/rootSaga';
import { createAppStore } from '@/app/store';
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

describe('rootSaga and the backend', () => {
  const backend = { kind: 'local' } as Backend;
  const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

  /** A saga that notes that it started (and, for a saga handed the backend, which one). */
  function recorder(started: string[], name: string) {
    return function* record(given?: Backend) {
      yield call([started, started.push], given ? `${name} with ${given.kind}` : name);
    };
  }

  it('starts the sagas that need no backend before the backend has loaded', async () => {
    let finishLoading!: (value: Backend) => void;
    const load = jest.fn(() => new Promise<Backend>((resolve) => (finishLoading = resolve)));
    const started: string[] = [];
    const shell = recorder(started, 'shell');
    const withBackend = recorder(started, 'saga');
    createAppStore({
      rootSaga: createRootSaga({ shell }, { sagas: { withBackend }, unavailable: shell, load }),
    });
    expect(started).toEqual(['shell']);
    finishLoading(backend);
    await nextTask();
    expect(started).toEqual(['shell', 'saga with local']);
  });

  it('loads the backend once and hands the same one to every saga that talks to it', async () => {
    const load = jest.fn(async () => backend);
    const given: Backend[] = [];
    function* first(b: Backend) {
      yield call([given, given.push], b);
    }
    const unavailable = recorder([], 'unavailable');
    createAppStore({ rootSaga: createRootSaga({}, { sagas: { first, second: first }, unavailable, load }) });
    await nextTask();
    expect(load).toHaveBeenCalledTimes(1);
    expect(given).toEqual([backend, backend]);
  });

  it('starts the stand-in instead when the backend cannot load, and none of the sagas that need it', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const started: string[] = [];
    const load = () => Promise.reject(new Error('ChunkLoadError'));
    createAppStore({
      rootSaga: createRootSaga(
        {},
        {
          sagas: { withBackend: recorder(started, 'saga') },
          unavailable: recorder(started, 'unavailable'),
          load,
        },
      ),
    });
    await nextTask();
    expect(started).toEqual(['unavailable']);
    expect(errors).toHaveBeenCalledWith('The backend could not be loaded', expect.any(Error));
  });

  it("recovers from the backend adapter's chunk failing to load as from any chunk: reload once (issue #14 part 6)", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const seen: string[] = [];
    function* watch() {
      yield takeEvery(chunkLoadFailed.type, function* record() {
        yield call(() => seen.push('chunkLoadFailed'));
      });
    }
    const chunkError = Object.assign(new Error('Loading chunk backend-local failed.'), {
      name: 'ChunkLoadError',
    });
    createAppStore({
      rootSaga: createRootSaga(
        { watch },
        { sagas: {}, unavailable: recorder([], 'unavailable'), load: () => Promise.reject(chunkError) },
      ),
    });
    await nextTask();
    expect(seen).toEqual(['chunkLoadFailed']);
  });
});

describe('createAppStore with loadRootSaga', () => {
  it('asks for the root saga in a later task, and starts it in the task after that', async () => {
    function* echo() {
      while (true) {
        yield take('test/ping');
        yield put(connectivityChanged({ online: false }));
      }
    }
    const load = jest.fn(async () => createRootSaga({ echo }));
    const store = createAppStore({ loadRootSaga: load });
    expect(load).not.toHaveBeenCalled();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(load).toHaveBeenCalledTimes(1);
    store.dispatch({ type: 'test/ping' });
    expect(store.getState().app.online).toBe(true); // loaded, not started yet
    await new Promise((resolve) => setTimeout(resolve, 0));
    store.dispatch({ type: 'test/ping' });
    expect(store.getState().app.online).toBe(false);
  });
});
