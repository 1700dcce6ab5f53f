import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { channel } from 'redux-saga';
import { serviceWorkerSaga } from '@/sagas/serviceWorkerSaga';
import {
  createServiceWorkerChannel,
  getWorkbox,
  hasWaitingWorker,
  isPageControlled,
  isServiceWorkerSupported,
  registerServiceWorker,
} from '@/platform/serviceWorker';
import type { ServiceWorkerEvent } from '@/platform/serviceWorker';
import appReducer, { initialState } from '@/store/appSlice';
import type { AppState } from '@/store/appSlice';
import versionReducer, { initialState as versionInitial } from '@/store/versionSlice';
import type { VersionState } from '@/store/versionSlice';

const fakeWorkbox = { register: jest.fn() };

type State = { app: AppState; version: VersionState };

function run(
  options: { controlled?: boolean; registerError?: Error; waiting?: boolean; workboxError?: Error } = {},
) {
  const events = channel<ServiceWorkerEvent>();
  const saga = expectSaga(serviceWorkerSaga, true)
    .withReducer((state: State = { app: initialState, version: versionInitial }, action) => ({
      app: appReducer(state.app, action),
      version: versionReducer(state.version, action),
    }))
    .provide([
      [matchers.call.fn(isServiceWorkerSupported), true],
      [matchers.call.fn(getWorkbox), options.workboxError ? throwError(options.workboxError) : fakeWorkbox],
      [matchers.call.fn(createServiceWorkerChannel), events],
      [
        matchers.call.fn(registerServiceWorker),
        options.registerError ? throwError(options.registerError) : undefined,
      ],
      [matchers.call.fn(isPageControlled), options.controlled ?? false],
      [matchers.call.fn(hasWaitingWorker), options.waiting ?? false],
    ]);
  return { saga, events };
}

describe('serviceWorkerSaga', () => {
  it('does nothing when the build has no service worker (the dev server)', async () => {
    const result = await expectSaga(serviceWorkerSaga, false).silentRun(20);
    expect(result.effects.put).toBeUndefined();
  });

  it('records a browser without service workers and stops', async () => {
    const result = await expectSaga(serviceWorkerSaga, true)
      .provide([[matchers.call.fn(isServiceWorkerSupported), false]])
      .silentRun(20);
    expect(result.effects.call?.some((e) => e.payload.fn === registerServiceWorker)).toBeFalsy();
    expect(result.effects.put?.map((e) => e.payload.action.type)).toEqual(['app/serviceWorkerUnsupported']);
  });

  it('registers the worker and is offline-ready when it already controls the page', async () => {
    const { saga } = run({ controlled: true });
    const result = await saga.call(registerServiceWorker, fakeWorkbox).silentRun(20);
    expect((result.storeState as { app: AppState }).app.serviceWorker).toEqual({
      status: 'ready',
      controlling: true,
      error: null,
    });
  });

  it('marks the page controlled when a first install claims it', async () => {
    const { saga, events } = run({ controlled: false });
    const pending = saga.silentRun(50);
    events.put({ type: 'controlling', isUpdate: false });
    const result = await pending;
    expect((result.storeState as { app: AppState }).app.serviceWorker.controlling).toBe(true);
  });

  it('stays not offline-ready until a worker controls the page', async () => {
    const { saga, events } = run({ controlled: false });
    const pending = saga.silentRun(30);
    events.put({ type: 'waiting', isUpdate: true });
    const result = await pending;
    expect((result.storeState as { app: AppState }).app.serviceWorker).toEqual({
      status: 'ready',
      controlling: false,
      error: null,
    });
  });

  it('remembers a new version that already waited when the page loaded (a reload keeps "Restart to update")', async () => {
    const { saga } = run({ controlled: true, waiting: true });
    const result = await saga.silentRun(20);
    expect((result.storeState as State).version.update).toBe('waiting');
  });

  it('reports no update when no worker waits at registration', async () => {
    const { saga } = run({ controlled: true, waiting: false });
    const result = await saga.silentRun(20);
    expect((result.storeState as State).version.update).toBe('current');
  });

  it('records a failed registration with its message', async () => {
    const { saga } = run({ registerError: new Error('The script resource is behind a redirect') });
    const result = await saga.silentRun(20);
    expect((result.storeState as { app: AppState }).app.serviceWorker).toEqual({
      status: 'failed',
      controlling: false,
      error: 'The script resource is behind a redirect',
    });
  });

  it('recovers a Workbox chunk that failed to load as every lazy chunk, and registers nothing', async () => {
    const chunkError = Object.assign(new Error('Loading chunk workbox failed.'), { name: 'ChunkLoadError' });
    const { saga } = run({ workboxError: chunkError });
    const result = await saga.silentRun(20);
    expect(result.effects.call?.some((e) => e.payload.fn === registerServiceWorker)).toBeFalsy();
    expect(result.effects.call?.some((e) => e.payload.fn === createServiceWorkerChannel)).toBeFalsy();
    const types = result.effects.put?.map((e) => e.payload.action.type);
    expect(types).toContain('version/chunkLoadFailed');
    expect((result.storeState as State).app.serviceWorker.status).toBe('failed');
  });

  it('records any other failure to create the Workbox without a reload', async () => {
    const { saga } = run({ workboxError: new Error('Workbox refused the script URL') });
    const result = await saga.silentRun(20);
    expect(result.effects.put?.map((e) => e.payload.action.type)).not.toContain('version/chunkLoadFailed');
    expect((result.storeState as State).app.serviceWorker.error).toBe('Workbox refused the script URL');
  });
});
