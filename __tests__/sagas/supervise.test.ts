import { call, delay, take } from 'redux-saga/effects';
import { restartDelay, supervise, superviseQuietly } from '@/sagas/supervise';
import { selectReconnecting } from '@/store/liveSlice';
import { runWithStore } from '../support/sagaStore';

beforeEach(() => {
  jest.useFakeTimers();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  jest.useRealTimers();
});

describe('restartDelay', () => {
  it('waits 1 s after a first crash, doubling for each crash in a row up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(restartDelay)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});

describe('supervise', () => {
  it('starts a crashed watcher again after the wait, reports the crash, and says "Reconnecting…" meanwhile', async () => {
    let runs = 0;
    function* watcher() {
      runs += 1;
      yield take('test/boom');
      throw new Error('the listener broke');
    }
    const { store, types } = runWithStore(function* () {
      yield call(supervise, 'messages', watcher);
    });
    store.dispatch({ type: 'test/boom' });
    expect(runs).toBe(1);
    expect(store.getState().live.watchers.messages).toMatchObject({
      live: true,
      restarting: true,
      lastError: 'Error: the listener broke',
    });
    expect(selectReconnecting(store.getState())).toBe(true);
    expect(console.error).toHaveBeenCalledWith(
      expect.stringContaining('messages watcher failed'),
      expect.any(Error),
    );
    await jest.advanceTimersByTimeAsync(999);
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs).toBe(2);
    expect(selectReconnecting(store.getState())).toBe(false);
    expect(types().filter((t) => t.startsWith('live/watcher'))).toEqual([
      'live/watcherCrashed',
      'live/watcherRestarted',
    ]);
  });

  it('waits longer for each crash in a row, and starts afresh after a watcher ran a while', async () => {
    const t0 = Date.now();
    const started: number[] = [];
    function* watcher() {
      started.push(Date.now() - t0);
      yield take('test/boom');
      throw new Error('again');
    }
    const { store } = runWithStore(function* () {
      yield call(supervise, 'channels', watcher);
    });
    store.dispatch({ type: 'test/boom' }); // at once: wait 1 s
    await jest.advanceTimersByTimeAsync(1_000);
    store.dispatch({ type: 'test/boom' }); // at once again: wait 2 s
    await jest.advanceTimersByTimeAsync(2_000);
    await jest.advanceTimersByTimeAsync(60_000); // then it runs a minute …
    store.dispatch({ type: 'test/boom' }); // … so this crash waits 1 s again
    await jest.advanceTimersByTimeAsync(1_000);
    expect(started).toEqual([0, 1_000, 3_000, 64_000]);
    expect(store.getState().live.watchers.channels?.restarts).toBe(3);
  });

  it('does not restart a watcher that was cancelled, nor one that finished', async () => {
    let runs = 0;
    function* finishes() {
      runs += 1;
      yield delay(10);
    }
    const { task, types } = runWithStore(function* () {
      yield call(supervise, 'done', finishes);
      yield take('never');
    });
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(1);
    task.cancel();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(types().some((t) => t.startsWith('live/watcher'))).toBe(false);
  });

  it('restarts quietly a watcher that does not carry live data (no "Reconnecting…")', async () => {
    function* worker() {
      yield take('test/boom');
      throw new Error('push broke');
    }
    const { store } = runWithStore(function* () {
      yield call(superviseQuietly, 'push monitoring', worker);
    });
    store.dispatch({ type: 'test/boom' });
    expect(store.getState().live.watchers['push monitoring']).toMatchObject({
      live: false,
      restarting: true,
    });
    expect(selectReconnecting(store.getState())).toBe(false);
  });
});
