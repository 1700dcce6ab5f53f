import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { dynamic, throwError } from 'redux-saga-test-plan/providers';
import type { StaticProvider } from 'redux-saga-test-plan/providers';
import { channel } from 'redux-saga';
import { rootReducer } from '@/app/rootReducer';
import type { RootState } from '@/app/rootReducer';
import { serviceWorkerRegistered, serviceWorkerRegistrationStarted } from '@/store/appSlice';
import { healthCheckRequested, monitorStarted, restartCooldownReset } from '@/store/swHealthSlice';
import { now } from '@/platform/browser';
import { postToActiveWorker, restartServiceWorker } from '@/platform/serviceWorker';
import type { WorkerLifecycleEvent } from '@/platform/serviceWorker';
import { requestFromWorker, SW_COMMUNICATION_TIMEOUT } from '@/sagas/serviceWorkerProtocol';
import {
  checkPeriodically,
  handleHealthCheck,
  handleRestart,
  swHealthSaga,
  watchWorkerLifecycle,
} from '@/sagas/swHealthSaga';
import { SW_HEALTH_CHECK_INTERVAL_MS, SW_MESSAGE_TIMEOUT_MS, SW_RESTART_COOLDOWN_MS } from '@/timings';
import { createVirtualTime, END_TEST, START, untilEnded } from '../support/virtualTime';
import type { VirtualTime } from '../support/virtualTime';

function stateWith(...actions: Array<{ type: string }>): RootState {
  return actions.reduce(rootReducer, rootReducer(undefined, monitorStarted({ at: START })));
}

const clock = (time: VirtualTime): StaticProvider => [matchers.call.fn(now), dynamic(() => time.now())];

describe('handleHealthCheck', () => {
  it('records the answer and its round trip when the worker echoes the timestamp', async () => {
    const time = createVirtualTime();
    const { storeState } = await expectSaga(handleHealthCheck)
      .withReducer(rootReducer, stateWith())
      .provide([
        clock(time),
        [
          matchers.call.fn(requestFromWorker),
          dynamic(() => ({
            type: 'HEALTH_CHECK',
            timestamp: START,
            pushes: { shown: 2, inApp: 1, generic: 0, duplicates: 0 },
          })),
        ],
      ])
      .not.call.fn(restartServiceWorker)
      .run();
    const health = (storeState as RootState).swHealth;
    expect(health.check).toMatchObject({ status: 'answered', roundTripMs: 0, lastAnsweredAt: START });
    expect(health.worker?.pushes).toEqual({ shown: 2, inApp: 1, generic: 0, duplicates: 0 });
    expect(health.errors).toBe(0);
  });

  it("reports 'SW communication timeout' when the worker does not answer within 5 s, and restarts it", async () => {
    const time = createVirtualTime();
    const saga = expectSaga(handleHealthCheck)
      .withReducer(rootReducer, stateWith())
      .provide([
        clock(time),
        [matchers.call.fn(postToActiveWorker), new Promise(() => undefined)],
        [matchers.call.fn(restartServiceWorker), undefined],
        time.provider,
      ])
      .call.fn(restartServiceWorker)
      .run({ timeout: false });
    await time.advance(SW_MESSAGE_TIMEOUT_MS - 1);
    expect(time.live()).toEqual([1_000 * 5]);
    await time.advance(1);
    const { storeState } = await saga;
    const health = (storeState as RootState).swHealth;
    expect([health.check.status, health.lastError, health.errors, health.restartCount]).toEqual([
      'failed',
      SW_COMMUNICATION_TIMEOUT,
      1,
      1,
    ]);
  });

  it('counts an answer to another health check as a failure', async () => {
    const time = createVirtualTime();
    const { storeState } = await expectSaga(handleHealthCheck)
      .withReducer(rootReducer, stateWith())
      .provide([
        clock(time),
        [matchers.call.fn(requestFromWorker), { type: 'HEALTH_CHECK', timestamp: START - 1 }],
        [matchers.call.fn(restartServiceWorker), undefined],
      ])
      .run();
    expect((storeState as RootState).swHealth.lastError).toBe(
      'The service worker answered another health check',
    );
  });
});

describe('handleRestart (spec §9: 30 s cooldown)', () => {
  async function restartAt(state: RootState, at: number, restart: unknown = undefined) {
    return expectSaga(handleRestart)
      .withReducer(rootReducer, state)
      .provide([
        [matchers.call.fn(now), at],
        [matchers.call.fn(restartServiceWorker), restart],
      ])
      .run();
  }

  it('restarts the worker and counts it', async () => {
    const result = await restartAt(stateWith(), START);
    expect(result.effects.call?.some((e) => e.payload.fn === restartServiceWorker)).toBe(true);
    expect((result.storeState as RootState).swHealth).toMatchObject({ restartCount: 1, cooldownFrom: START });
  });

  it('skips a restart 1 ms short of 30 s after the last one', async () => {
    const first = (await restartAt(stateWith(), START)).storeState as RootState;
    const result = await restartAt(first, START + SW_RESTART_COOLDOWN_MS - 1);
    expect(result.effects.call?.filter((e) => e.payload.fn === restartServiceWorker) ?? []).toEqual([]);
    expect((result.storeState as RootState).swHealth.restartCount).toBe(1);
  });

  it('restarts again 30 s after the last one', async () => {
    const first = (await restartAt(stateWith(), START)).storeState as RootState;
    const result = await restartAt(first, START + SW_RESTART_COOLDOWN_MS);
    expect((result.storeState as RootState).swHealth.restartCount).toBe(2);
  });

  it('restarts at once after the cooldown was reset', async () => {
    const first = (await restartAt(stateWith(), START)).storeState as RootState;
    const reset = rootReducer(first, restartCooldownReset());
    expect(((await restartAt(reset, START + 1)).storeState as RootState).swHealth.restartCount).toBe(2);
  });

  it('counts a restart that failed as an error, and does not throw', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const result = await restartAt(
      stateWith(),
      START,
      throwError(new Error('No service worker is registered')),
    );
    expect((result.storeState as RootState).swHealth).toMatchObject({
      errors: 1,
      lastError: 'No service worker is registered',
    });
    expect(warn).toHaveBeenCalled();
  });
});

describe('checkPeriodically', () => {
  it('asks for a health check every minute once the worker is registered', async () => {
    const time = createVirtualTime();
    const test = expectSaga(untilEnded, checkPeriodically)
      .withReducer(rootReducer, stateWith(serviceWorkerRegistrationStarted(), serviceWorkerRegistered()))
      .provide([time.provider]);
    const saga = test.run({ timeout: 10_000 });
    await time.advance(SW_HEALTH_CHECK_INTERVAL_MS - 1);
    await time.advance(1);
    await time.advance(SW_HEALTH_CHECK_INTERVAL_MS);
    test.dispatch(END_TEST);
    const result = await saga;
    expect(
      result.effects.put?.filter((e) => e.payload.action.type === healthCheckRequested.type),
    ).toHaveLength(2);
  });

  it('asks nothing while no worker is registered', async () => {
    const time = createVirtualTime();
    const test = expectSaga(untilEnded, checkPeriodically)
      .withReducer(rootReducer, stateWith(serviceWorkerRegistrationStarted()))
      .provide([time.provider]);
    const saga = test.run({ timeout: 10_000 });
    await time.advance(3 * SW_HEALTH_CHECK_INTERVAL_MS);
    test.dispatch(END_TEST);
    expect((await saga).effects.put).toBeUndefined();
  });
});

describe('watchWorkerLifecycle', () => {
  it('counts controller changes and messages that could not be read', async () => {
    const events = channel<WorkerLifecycleEvent>();
    const saga = expectSaga(watchWorkerLifecycle, events)
      .withReducer(rootReducer, stateWith())
      .run({ timeout: 100, silenceTimeout: true });
    events.put({ type: 'controllerchange' });
    events.put({ type: 'controllerchange' });
    events.put({ type: 'messageerror' });
    const health = ((await saga).storeState as RootState).swHealth;
    expect([health.controllerChanges, health.errors]).toEqual([2, 1]);
  });
});

describe('swHealthSaga', () => {
  it('starts the monitor, and only answers requests where the build has no worker', async () => {
    const time = createVirtualTime();
    const result = await expectSaga(swHealthSaga, false)
      .withReducer(rootReducer)
      .provide([clock(time), time.provider])
      .run({ timeout: 50, silenceTimeout: true });
    expect((result.storeState as RootState).swHealth.monitorStartedAt).toBe(START);
    expect(time.live()).toEqual([]);
  });
});
