import { expectSaga } from 'redux-saga-test-plan';
import { call, fork, race, take } from 'redux-saga/effects';
import type { Saga } from 'redux-saga';
import type { Backend } from '@/backend/ports';
import type { PushEnv } from '@/platform/pushEnv';
import { pushDeviceSaga, pushSaga } from '@/sagas/push/pushSaga';
import { debugMenuSaga } from '@/sagas/debugMenuSaga';
import { debugMenuOpened } from '@/store/debugSlice';
import type { Dialogs } from '@/platform/browser';
import { rootUnmounted, rootMounted, serviceWorkerTookControl } from '@/store/appSlice';
import { buildUserState, docChanged, accountLoaded, signedIn, signedOut } from '@/store/userSlice';
import {
  CLOSED_GATE_MESSAGES,
  deviceReleaseRequested,
  permissionRequested,
  selectPushGate,
  validationCooldownReset,
  validationRequested,
} from '@/store/pushSlice';
import { BackendError } from '@/backend/ports';
import { LOCAL_STORAGE_KEYS } from '@/platform';
import * as matchers from 'redux-saga-test-plan/matchers';
import { postToActiveWorker } from '@/platform/serviceWorker';
import { enableServiceWorkerMessaging } from '@/sagas/serviceWorkerProtocol';
import { BLOCKED_MESSAGE, UID } from '../../support/pushHarness';
import { ada, createHarness, initialState, putTypes, reducer, userDoc } from './support';
import type { Harness, State, StateOptions } from './support';

const HOUR = 60 * 60 * 1000;
const STOP = 'test/stop';

function* untilStopped(saga: Saga, ...args: unknown[]) {
  yield race({ run: call(saga, ...args), stop: take(STOP) });
}

/** Push as the root saga runs it: the device's side at once, the token work once the backend has loaded. */
function* pushSagas(backend: Backend, createEnv: () => PushEnv) {
  yield fork(pushDeviceSaga, createEnv);
  const ready: Backend = yield call(async () => backend);
  yield call(pushSaga, ready, createEnv);
}

/** pushSaga against the harness, from a given store state; `stop()` ends it and returns the run's result. */
function start(h: Harness, options: StateOptions = {}) {
  const saga = expectSaga(untilStopped, pushSagas, h.backend.backend, () => h.env)
    .withReducer(reducer, initialState(options))
    .provide(h.providers);
  const pending = saga.run({ timeout: 10_000, silenceTimeout: true });
  return {
    dispatch: (action: { type: string }) => saga.dispatch(action),
    async stop() {
      await h.time.flush();
      saga.dispatch({ type: STOP });
      return pending;
    },
  };
}

const skipped = (result: Awaited<ReturnType<ReturnType<typeof start>['stop']>>) =>
  (result.effects.put ?? [])
    .map((e) => e.payload.action)
    .filter((a) => a.type === 'push/validationSkipped')
    .map((a) => a.payload as { message: string });

const finished = (result: Awaited<ReturnType<ReturnType<typeof start>['stop']>>) =>
  (result.effects.put ?? [])
    .map((e) => e.payload.action)
    .filter((a) => a.type === 'push/validationFinished')
    .map((a) => a.payload as { message: string; rateLimited: boolean });

describe('pushSaga: monitoring starts with the session', () => {
  it('starts on sign-in: enables service-worker messaging, then validates after 3 s', async () => {
    const h = createHarness();
    const app = start(h, { signedIn: false });
    app.dispatch(signedIn({ authUser: ada }));
    app.dispatch(accountLoaded(buildUserState(ada, userDoc(), { isAdmin: false })));
    await h.time.advance(2_999);
    expect(h.backend.ports.pushProvider.getToken).not.toHaveBeenCalled();
    await h.time.advance(1);
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(1);
    await h.time.advance(1_000);
    expect(h.backend.store.of(UID)).toHaveLength(1);
    const result = await app.stop();
    expect(result.effects.call?.some((e) => e.payload.fn === enableServiceWorkerMessaging)).toBe(true);
    expect(putTypes(result)).toEqual(
      expect.arrayContaining(['push/monitoringStarted', 'push/messagingEnableAnswered']),
    );
    expect((result.storeState as State).push).toMatchObject({ monitoring: true, tokenStatus: 'active' });
  });

  it('validates after 2 s on iOS', async () => {
    const h = createHarness();
    const app = start(h, { platform: 'ios' });
    await h.time.advance(1_999);
    expect(h.backend.ports.pushProvider.getToken).not.toHaveBeenCalled();
    await h.time.advance(1);
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(1);
    await app.stop();
  });

  it.each([
    ['push is unsupported', { support: { supported: false, missing: ['pushManager'] } }],
    ['push is disabled for the host', { environmentEnabled: false }],
  ] as const)('does not start when %s', async (_label, envPatch) => {
    const h = createHarness();
    Object.assign(h.env, envPatch);
    const app = start(h);
    await h.time.advance(HOUR);
    const result = await app.stop();
    expect(putTypes(result)).not.toContain('push/monitoringStarted');
    expect(h.backend.ports.pushProvider.getToken).not.toHaveBeenCalled();
  });

  it.each([
    ['notifications are off', { enabled: false, delivery: { channels: ['push' as const] } }],
    ['push is not a chosen channel', { enabled: true, delivery: { channels: ['in_app' as const] } }],
  ])('does not start when %s', async (_label, settings) => {
    const h = createHarness();
    const app = start(h, { settings });
    await h.time.advance(HOUR);
    const result = await app.stop();
    expect(putTypes(result)).not.toContain('push/monitoringStarted');
  });
});

describe('pushSaga: the checks', () => {
  it('checks every 30 minutes, touching the backend only once a day when nothing changed', async () => {
    const h = createHarness();
    const app = start(h);
    await h.time.advance(5_000); // created and saved
    expect([h.backend.store.reads, h.backend.store.writes]).toEqual([0, 1]);
    await h.time.advance(23 * HOUR);
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(1 + 46);
    expect([h.backend.store.reads, h.backend.store.writes]).toEqual([0, 1]);
    await h.time.advance(HOUR);
    expect(h.backend.store.writes).toBe(2); // the daily lastUsed touch
    await app.stop();
  });

  it('takes at most one visibility change per 5 s, and ignores the app being hidden', async () => {
    const h = createHarness();
    const app = start(h);
    await h.time.advance(60_000);
    h.env.emitVisibility(false);
    await h.time.flush();
    h.env.emitVisibility(true);
    await h.time.advance(1_000);
    h.env.emitVisibility(true);
    await h.time.advance(1_000);
    h.env.emitVisibility(true);
    await h.time.advance(3_000); // 5 s after the first
    h.env.emitVisibility(true);
    await h.time.flush();
    const result = await app.stop();
    const checks = finished(result);
    // The startup validation, then two visibility checks (the second one inside the 10 s cooldown).
    expect(checks).toHaveLength(3);
    expect(checks[2]).toMatchObject({ rateLimited: true });
  });

  // spec §9: "Visibility-change rate limit: 5 s", in the spec's number: a change 1 ms short of it is dropped, one at
  // 5 s is taken.
  it('drops a visibility change 4,999 ms after the last one it took, and takes one at 5,000 ms', async () => {
    const h = createHarness();
    const app = start(h);
    await h.time.advance(60_000);
    const before = h.backend.ports.pushProvider.getToken.mock.calls.length;
    h.env.emitVisibility(true);
    await h.time.flush();
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(before + 1);
    // Past the 10 s cooldown of the check itself, so only the visibility limit can hold the next one back.
    app.dispatch(validationCooldownReset());
    await h.time.advance(4_999);
    h.env.emitVisibility(true);
    await h.time.flush();
    app.dispatch(validationCooldownReset());
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(before + 1);
    await h.time.advance(1);
    h.env.emitVisibility(true);
    await h.time.flush();
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(before + 2);
    await app.stop();
  });

  it.each([
    ['push-unsupported-browser', 'refusedByBrowser'],
    ['push-indexed-db-unsupported', 'noIndexedDb'],
  ] as const)(
    'stops messaging setup when the provider refuses the browser (%s): no retry, no 30-minute or visibility check',
    async (reason, gateReason) => {
      const h = createHarness();
      h.backend.ports.pushProvider.getToken.mockRejectedValue(
        new BackendError('FAILED_PRECONDITION', 'Push messaging is not supported in this browser', reason),
      );
      const app = start(h);
      await h.time.advance(60_000);
      expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(1);
      h.env.emitVisibility(true);
      await h.time.advance(3 * HOUR);
      h.env.emitVisibility(true);
      app.dispatch(validationRequested());
      await h.time.flush();
      expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(1);
      expect(h.backend.store.writes).toBe(0);
      const result = await app.stop();
      expect(putTypes(result)).toContain('push/monitoringStopped');
      // Settings and the debug menu say why.
      expect(finished(result).at(-1)).toMatchObject({ message: CLOSED_GATE_MESSAGES[gateReason] });
      expect(selectPushGate(result.storeState as State)).toMatchObject({ open: false, reason: gateReason });
    },
  );

  it('runs the visibility check after 1 s on iOS', async () => {
    const h = createHarness();
    const app = start(h, { platform: 'ios' });
    await h.time.advance(60_000);
    const before = h.backend.ports.pushProvider.getToken.mock.calls.length;
    h.env.emitVisibility(true);
    await h.time.advance(999);
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(before);
    await h.time.advance(1);
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(before + 1);
    await app.stop();
  });

  it('re-validates on request, within the cooldown as rate-limited', async () => {
    const h = createHarness();
    const app = start(h);
    await h.time.advance(4_000);
    app.dispatch(validationRequested());
    await h.time.flush();
    const result = await app.stop();
    expect(finished(result).at(-1)).toMatchObject({ message: 'Current token is valid', rateLimited: true });
  });

  it.each([
    ['default', 'Notifications are not allowed on this device yet'],
    ['denied', 'Notifications are blocked on this device'],
  ] as const)(
    'answers a validation asked for by hand while the permission is %s with no token work, leaving the device as it was (spec §4)',
    async (permission, words) => {
      const h = createHarness({ permission });
      const app = start(h, { permission });
      await h.time.advance(HOUR);
      const before = h.backend.store.reads + h.backend.store.writes;
      app.dispatch(validationRequested());
      await h.time.flush();
      const result = await app.stop();
      // No token was asked of the provider, looked up, created or saved.
      expect(h.backend.ports.pushProvider.getToken).not.toHaveBeenCalled();
      expect(h.backend.store.reads + h.backend.store.writes).toBe(before);
      expect(h.env.storage.getItem(LOCAL_STORAGE_KEYS.fcmToken)).toBeNull();
      // The debug menu hears why; the device is not marked failed.
      expect(skipped(result).at(-1)?.message).toContain(words);
      expect(finished(result)).toEqual([]);
      expect((result.storeState as State).push.tokenStatus).not.toBe('failed');
    },
  );

  it("runs the iOS debug menu's Token validation with the permission 'default' without token work, and says why (spec §4)", async () => {
    const h = createHarness({ permission: 'default' });
    const alerts: string[] = [];
    const dialogs: Dialogs = { prompt: () => '5', alert: (text: string) => void alerts.push(text) };
    function* withDebugMenu(backend: Backend, createEnv: () => PushEnv) {
      yield fork(debugMenuSaga, dialogs, false);
      yield call(pushSagas, backend, createEnv);
    }
    const saga = expectSaga(untilStopped, withDebugMenu, h.backend.backend, () => h.env)
      .withReducer(reducer, initialState({ permission: 'default', platform: 'ios' }))
      .provide(h.providers);
    const pending = saga.run({ timeout: 10_000, silenceTimeout: true });
    await h.time.advance(HOUR);
    const before = h.backend.store.reads + h.backend.store.writes;
    saga.dispatch(debugMenuOpened());
    await h.time.flush();
    saga.dispatch({ type: STOP });
    const result = await pending;
    expect(h.backend.ports.pushProvider.getToken).not.toHaveBeenCalled();
    expect(h.backend.store.reads + h.backend.store.writes).toBe(before);
    expect(alerts).toEqual([
      'Token validation: Notifications are not allowed on this device yet: the token check is skipped',
    ]);
    expect((result.storeState as State).push.tokenStatus).not.toBe('failed');
  });

  it.each([
    [
      'notifications are off',
      { enabled: false, delivery: { channels: ['push' as const] } },
      'Notifications are off',
    ],
    [
      'push is not chosen',
      { enabled: true, delivery: { channels: ['in_app' as const] } },
      'Push is not among',
    ],
  ])(
    'answers a validation asked for by hand while %s, touching neither provider nor backend (spec §5)',
    async (_case, settings, words) => {
      const h = createHarness();
      const app = start(h, { settings });
      await h.time.advance(HOUR);
      app.dispatch(validationRequested());
      await h.time.flush();
      const result = await app.stop();
      expect(h.backend.ports.pushProvider.getToken).not.toHaveBeenCalled();
      expect(h.backend.store.reads + h.backend.store.writes).toBe(0);
      expect(finished(result).at(-1)?.message).toContain(words);
    },
  );

  it('syncs the token after a service-worker update (fcm_refresh_needed_after_sw_update)', async () => {
    const h = createHarness();
    const app = start(h);
    await h.time.advance(60_000);
    expect(h.backend.store.writes).toBe(1);
    app.dispatch(serviceWorkerTookControl({ isUpdate: true }));
    await h.time.flush();
    expect(h.backend.store.writes).toBe(2);
    expect(h.env.storage.getItem(LOCAL_STORAGE_KEYS.fcmRefreshNeededAfterSwUpdate)).toBeNull();
    await app.stop();
  });
});

describe('pushSaga: permission', () => {
  it('with permission default, only enables messaging until the person allows notifications', async () => {
    const h = createHarness({ permission: 'default' });
    const app = start(h, { permission: 'default' });
    await h.time.advance(HOUR);
    expect(h.backend.ports.pushProvider.getToken).not.toHaveBeenCalled();
    app.dispatch(permissionRequested());
    await h.time.advance(999);
    expect(h.env.requestPermission).toHaveBeenCalledTimes(1);
    expect(h.backend.ports.pushProvider.getToken).not.toHaveBeenCalled();
    await h.time.advance(1); // spec §9: a wait after the grant, then the token at once
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(1);
    const result = await app.stop();
    expect(putTypes(result)).toEqual(
      expect.arrayContaining(['push/permissionWaitStarted', 'push/tokenSaved']),
    );
  });

  it('stays blocked with the provider’s message when the person says no', async () => {
    const h = createHarness({ permission: 'default' });
    h.env.requestPermissionAnswer = 'denied';
    const app = start(h, { permission: 'default' });
    await h.time.advance(1_000);
    app.dispatch(permissionRequested());
    await h.time.advance(HOUR);
    const result = await app.stop();
    expect((result.storeState as State).push).toMatchObject({
      permission: 'denied',
      tokenStatus: 'blocked',
      lastError: BLOCKED_MESSAGE,
    });
    expect(h.backend.ports.pushProvider.getToken).not.toHaveBeenCalled();
  });

  it('stops a creation in flight when the permission is revoked in the browser', async () => {
    const h = createHarness();
    h.backend.ports.pushProvider.getToken.mockResolvedValue('');
    const app = start(h);
    await h.time.advance(3_500); // first attempt failed, waiting 1 s to retry
    h.env.emitPermission('denied');
    await h.time.advance(HOUR);
    const result = await app.stop();
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(1);
    expect((result.storeState as State).push).toMatchObject({ tokenStatus: 'blocked' });
  });
});

describe('pushSaga: stopping', () => {
  it('at sign-out removes the document and the provider token, and leaves no timer or listener', async () => {
    const h = createHarness();
    const app = start(h);
    await h.time.advance(10_000);
    expect(h.backend.store.of(UID)).toHaveLength(1);
    expect(h.env.openChannels().visibility).toBe(1);
    app.dispatch(deviceReleaseRequested());
    await h.time.flush();
    app.dispatch(signedOut());
    await h.time.flush();
    expect(h.backend.store.of(UID)).toEqual([]);
    expect(h.backend.ports.pushProvider.deleteToken).toHaveBeenCalledTimes(1);
    expect(h.env.storage.getItem(LOCAL_STORAGE_KEYS.fcmToken)).toBeNull();
    expect(h.time.live()).toEqual([]);
    expect(h.env.openChannels().visibility).toBe(0);
    const calls = h.backend.ports.pushProvider.getToken.mock.calls.length;
    await h.time.advance(24 * HOUR);
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(calls);
    const result = await app.stop();
    expect(putTypes(result)).toEqual(
      expect.arrayContaining(['push/monitoringStopped', 'push/deviceReleased']),
    );
  });

  it('at sign-out in the middle of a retry, cancels it: no save, no timer', async () => {
    const h = createHarness();
    h.backend.ports.pushProvider.getToken.mockResolvedValue('');
    const app = start(h);
    await h.time.advance(4_500); // the second attempt failed, waiting 2 s
    app.dispatch(deviceReleaseRequested());
    await h.time.flush();
    app.dispatch(signedOut());
    await h.time.advance(HOUR);
    expect(h.backend.ports.pushProvider.getToken).toHaveBeenCalledTimes(2);
    expect(h.backend.store.writes).toBe(0);
    expect(h.time.live()).toEqual([]);
    await app.stop();
  });

  it('stops when the app’s root unmounts, keeps the token, and starts again on mount', async () => {
    const h = createHarness();
    const app = start(h);
    await h.time.advance(10_000);
    app.dispatch(rootUnmounted());
    await h.time.flush();
    expect(h.time.live()).toEqual([]);
    expect(h.env.openChannels().visibility).toBe(0);
    expect(h.backend.store.of(UID)).toHaveLength(1);
    app.dispatch(rootMounted());
    await h.time.flush();
    expect(h.env.openChannels().visibility).toBe(1);
    await app.stop();
  });

  it('stops and releases this device when the person turns push off', async () => {
    const h = createHarness();
    const app = start(h);
    await h.time.advance(10_000);
    app.dispatch(docChanged({ doc: userDoc({ enabled: false, delivery: { channels: ['push'] } }) }));
    await h.time.advance(60_000);
    expect(h.backend.store.of(UID)).toEqual([]);
    expect(h.time.live()).toEqual([]);
    const result = await app.stop();
    expect((result.storeState as State).push.monitoring).toBe(false);
  });
});

describe('pushSaga: service-worker messaging', () => {
  it("records 'SW communication timeout' and still runs token work when the worker stays silent", async () => {
    const h = createHarness({ workerMessaging: 'real' });
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const saga = expectSaga(untilStopped, pushSagas, h.backend.backend, () => h.env)
      .withReducer(reducer, initialState())
      .provide([[matchers.call.fn(postToActiveWorker), new Promise(() => undefined)], ...h.providers]);
    const pending = saga.run({ timeout: 10_000, silenceTimeout: true });
    await h.time.advance(5_000);
    saga.dispatch({ type: STOP });
    const { storeState } = await pending;
    expect((storeState as State).push).toMatchObject({ messagingEnabled: false, tokenStatus: 'active' });
    expect(h.backend.store.of(UID)).toHaveLength(1);
    expect(console.warn).toHaveBeenCalledWith(
      'Enabling service-worker messaging failed:',
      'SW communication timeout',
    );
  });
});
