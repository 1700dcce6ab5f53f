import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { browserLocalStorage } from '@/platform';
import { rootReducer } from '@/app/rootReducer';
import type { RootState } from '@/app/rootReducer';
import { serviceWorkerRegistered, serviceWorkerRegistrationFailed } from '@/store/appSlice';
import { healthCheckRequested, selectHealthReport } from '@/store/swHealthSlice';
import { now } from '@/platform/browser';
import {
  checkForNewVersion,
  isLegacyMessagingWorker,
  unregisterLegacyWorkers,
} from '@/platform/serviceWorker';
import { classifyStartup, readLastStart, startupSaga } from '@/sagas/startupSaga';
import { STARTUP_RESTART_THRESHOLD_MS } from '@/timings';
import { createFakeStore } from '../platform/fakes';
import type { FakeStore } from '../platform/fakes';

const NOW = 1_760_000_000_000;

describe('classifyStartup (spec §4: more than 60 s is a restart)', () => {
  it('is a quick resume 60 s after the last start', () => {
    expect(classifyStartup(NOW, NOW - STARTUP_RESTART_THRESHOLD_MS)).toEqual({
      kind: 'quickResume',
      at: NOW,
      sinceLastStartMs: 60_000,
    });
  });

  it('is a restart 60 s and 1 ms after the last start', () => {
    expect(classifyStartup(NOW, NOW - STARTUP_RESTART_THRESHOLD_MS - 1).kind).toBe('restart');
  });

  it('is a restart with no earlier start, or one in the future (a clock that went back)', () => {
    expect(classifyStartup(NOW, null)).toEqual({ kind: 'restart', at: NOW, sinceLastStartMs: null });
    expect(classifyStartup(NOW, NOW + 5_000).kind).toBe('restart');
  });
});

describe('readLastStart', () => {
  it.each([
    ['a time', String(NOW), NOW],
    ['nothing', undefined, null],
    ['text', 'yesterday', null],
    ['a negative number', '-5', null],
    ['a huge number', '9'.repeat(40), null],
  ])('reads %s', (_label, stored, expected) => {
    const store = createFakeStore(stored === undefined ? {} : { last_app_start: stored });
    expect(readLastStart(store)).toBe(expected);
  });
});

describe('isLegacyMessagingWorker (spec §4)', () => {
  it.each([
    [
      'a script ending in /firebase-messaging-sw.js',
      'https://a.example/',
      ['https://a.example/firebase-messaging-sw.js'],
      true,
    ],
    [
      'a scope containing /firebase-cloud-messaging-push-scope',
      'https://a.example/firebase-cloud-messaging-push-scope',
      ['https://a.example/sw.js'],
      true,
    ],
    ['the app worker', 'https://a.example/', ['https://a.example/sw.js'], false],
    [
      'a script with the name elsewhere in its path',
      'https://a.example/',
      ['https://a.example/firebase-messaging-sw.js/other.js'],
      false,
    ],
    ['a registration without workers', 'https://a.example/', [undefined], false],
  ])('decides for %s', (_label, scope, scripts, expected) => {
    expect(isLegacyMessagingWorker(scope, scripts)).toBe(expected);
  });
});

function run(
  store: FakeStore,
  options: { legacy?: unknown; enabled?: boolean; dispatch?: Array<{ type: string }> } = {},
) {
  let saga = expectSaga(startupSaga, options.enabled ?? true)
    .withReducer(rootReducer)
    .provide([
      [matchers.call.fn(browserLocalStorage), store],
      [matchers.call.fn(now), NOW],
      [matchers.call.fn(unregisterLegacyWorkers), options.legacy ?? { removed: [], failed: [] }],
      [matchers.call.fn(checkForNewVersion), undefined],
    ]);
  for (const action of options.dispatch ?? []) saga = saga.dispatch(action);
  return saga.run({ timeout: 100, silenceTimeout: true });
}

const puts = (result: Awaited<ReturnType<typeof run>>) =>
  result.effects.put?.map((e) => e.payload.action.type) ?? [];

describe('startupSaga', () => {
  it('records this start in last_app_start and classifies it', async () => {
    const store = createFakeStore({ last_app_start: String(NOW - 30_000) });
    const result = await run(store);
    expect(store.contents().last_app_start).toBe(String(NOW));
    expect((result.storeState as RootState).swHealth.startup).toEqual({
      kind: 'quickResume',
      at: NOW,
      sinceLastStartMs: 30_000,
    });
  });

  describe('counts a restart in the service-worker health’s restart window (issue #14 part 5)', () => {
    const MINUTE = 60_000;
    const health = (result: Awaited<ReturnType<typeof run>>) =>
      selectHealthReport(result.storeState as RootState);

    it('makes the fourth restart within 5 minutes, across page loads, unhealthy', async () => {
      const earlier = [NOW - 4 * MINUTE, NOW - 3 * MINUTE, NOW - 2 * MINUTE];
      const store = createFakeStore({
        last_app_start: String(NOW - MINUTE - 1),
        app_restarts: JSON.stringify([NOW - 6 * MINUTE, ...earlier]),
      });
      const result = await run(store, { enabled: false });
      expect(health(result)).toMatchObject({ restartsInWindow: 4, isHealthy: false });
      // The one from 6 minutes ago has left the window, and is forgotten.
      expect(JSON.parse(store.contents().app_restarts ?? '')).toEqual([...earlier, NOW]);
    });

    it('keeps three restarts within 5 minutes healthy', async () => {
      const store = createFakeStore({
        last_app_start: String(NOW - 2 * MINUTE),
        app_restarts: JSON.stringify([NOW - 4 * MINUTE, NOW - 2 * MINUTE]),
      });
      expect(health(await run(store, { enabled: false }))).toMatchObject({
        restartsInWindow: 3,
        isHealthy: true,
      });
    });

    it('does not count a quick resume, nor a first start', async () => {
      const resumed = createFakeStore({
        last_app_start: String(NOW - 30_000),
        app_restarts: JSON.stringify([NOW - 3 * MINUTE, NOW - 2 * MINUTE, NOW - MINUTE]),
      });
      expect(health(await run(resumed, { enabled: false }))).toMatchObject({
        restartsInWindow: 3,
        isHealthy: true,
      });
      expect(JSON.parse(resumed.contents().app_restarts ?? '')).toHaveLength(3);
      const first = createFakeStore();
      expect(health(await run(first, { enabled: false })).restartsInWindow).toBe(0);
      expect(first.contents().app_restarts).toBeUndefined();
    });

    it('reads a damaged app_restarts as none', async () => {
      const store = createFakeStore({ last_app_start: String(NOW - 2 * MINUTE), app_restarts: '{oops' });
      expect(health(await run(store, { enabled: false })).restartsInWindow).toBe(1);
      expect(JSON.parse(store.contents().app_restarts ?? '')).toEqual([NOW]);
    });
  });

  it('unregisters legacy messaging workers at start', async () => {
    const result = await run(createFakeStore());
    expect(result.effects.call?.some((e) => e.payload.fn === unregisterLegacyWorkers)).toBe(true);
  });

  it('only warns when a legacy worker cannot be unregistered', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    await run(createFakeStore(), {
      legacy: { removed: [], failed: [{ scope: 'https://a.example/x', error: 'refused' }] },
    });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('could not be unregistered: refused'));
  });

  it('only warns when looking for legacy workers fails', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const result = await run(createFakeStore(), { legacy: throwError(new Error('SecurityError')) });
    expect(warn).toHaveBeenCalled();
    expect((result.storeState as RootState).swHealth.startup?.kind).toBe('restart');
  });

  it('checks the worker once it is registered after a restart', async () => {
    const result = await run(createFakeStore(), { dispatch: [serviceWorkerRegistered()] });
    expect(puts(result)).toContain(healthCheckRequested.type);
  });

  it('does not check the worker after a quick resume', async () => {
    const result = await run(createFakeStore({ last_app_start: String(NOW - 1_000) }), {
      dispatch: [serviceWorkerRegistered()],
    });
    expect(puts(result)).not.toContain(healthCheckRequested.type);
  });

  it('does not check a worker whose registration failed', async () => {
    const result = await run(createFakeStore(), {
      dispatch: [serviceWorkerRegistrationFailed({ message: 'x' })],
    });
    expect(puts(result)).not.toContain(healthCheckRequested.type);
  });

  it('honours a force_version_check once: asks for a new worker and removes the flag', async () => {
    const store = createFakeStore({ force_version_check: 'true', last_app_start: String(NOW - 1_000) });
    const result = await run(store, { dispatch: [serviceWorkerRegistered()] });
    expect(result.effects.call?.some((e) => e.payload.fn === checkForNewVersion)).toBe(true);
    expect(store.contents().force_version_check).toBeUndefined();
  });

  it('touches no worker where the build has none (the dev server)', async () => {
    const result = await run(createFakeStore(), { enabled: false });
    expect(result.effects.call?.some((e) => e.payload.fn === unregisterLegacyWorkers)).toBe(false);
  });
});
