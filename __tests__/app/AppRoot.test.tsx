/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// spec §4: "Monitoring also stops when the provider is torn down." The real root (the store's provider and the
// router) over the real store running the push sagas against the push edge's stand-ins: while it is mounted the
// signed-in person's token is monitored; unmounting it stops monitoring, with its listeners and timers.
import { act, render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router-dom';
import { call, fork } from 'redux-saga/effects';
import { AppRoot } from '@/app/AppRoot';
import { createAppStore } from '@/app/store';
import { rootReducer } from '@/app/rootReducer';
import type { Backend } from '@/backend/ports';
import type { PushEnv } from '@/platform/pushEnv';
import { pushDeviceSaga, pushSaga } from '@/sagas/push/pushSaga';
import { started } from '@/store/appSlice';
import { accountLoaded, buildUserState, signedIn } from '@/store/userSlice';
import { createFakePushEnv, createPushBackend, DEVICE_ID } from '../support/pushHarness';
import { ada, userDoc } from '../sagas/push/support';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it('stops token monitoring when the root (the provider) is torn down', async () => {
  const env = createFakePushEnv(() => Date.now());
  const { backend } = createPushBackend(() => Date.now());
  function* pushOnly(ready: Backend, edge: PushEnv) {
    yield fork(pushDeviceSaga, () => edge);
    yield call(pushSaga, ready, () => edge);
  }
  // jsdom has no service worker: enabling its messaging fails, which monitoring only logs.
  const warned = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  let state = rootReducer(
    undefined,
    started({ platform: 'web', installed: false, online: true, deviceId: DEVICE_ID }),
  );
  state = rootReducer(state, signedIn({ authUser: ada }));
  state = rootReducer(state, accountLoaded(buildUserState(ada, userDoc(), { isAdmin: false })));
  // The push sagas as the root saga starts them, on the app's store.
  const sagaStore = createAppStore({ preloadedState: state, rootSaga: () => pushOnly(backend, env) });
  const router = createMemoryRouter([{ path: '/', element: <p>Home</p> }]);

  const view = render(<AppRoot store={sagaStore} router={router} />);
  await act(async () => undefined);
  expect(sagaStore.getState().push.monitoring).toBe(true);
  expect(env.openChannels().visibility).toBe(1);

  view.unmount();
  await act(async () => undefined);
  expect(sagaStore.getState().push.monitoring).toBe(false);
  expect(env.openChannels().visibility).toBe(0);
  // Nothing of monitoring is left to run: no startup validation, no 30-minute check.
  await act(async () => {
    jest.advanceTimersByTime(60 * 60 * 1000);
  });
  expect(backend.pushProvider.getToken).not.toHaveBeenCalled();
  expect(warned.mock.calls.map((call) => call[0])).toEqual(['Enabling service-worker messaging failed:']);
});
