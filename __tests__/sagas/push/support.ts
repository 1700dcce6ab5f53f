// Shared set-up of the push saga tests: the store's slices as the push sagas see them, a signed-in person, and
// the context (ports, browser edge, locks) over virtual time.
import { combineReducers } from '@reduxjs/toolkit';
import type { Reducer } from '@reduxjs/toolkit';
import * as matchers from 'redux-saga-test-plan/matchers';
import type { expectSaga } from 'redux-saga-test-plan';
import app, { rootMounted, started } from '@/store/appSlice';
import user, { buildUserState, accountLoaded, signedIn } from '@/store/userSlice';
import push, { supportDetected } from '@/store/pushSlice';
import type { PermissionState } from '@/store/pushSlice';
import { enableServiceWorkerMessaging } from '@/sagas/serviceWorkerProtocol';
import { createSharedTask } from '@/sagas/push/sharedTask';
import type { PushContext } from '@/sagas/push/tokenLifecycle';
import type { Platform } from '@/platform';
import type { NotificationSettings, UserDoc } from '@core/model';
import { createVirtualTime } from '../../support/virtualTime';
import type { VirtualTime } from '../../support/virtualTime';
import { createFakePushEnv, createPushBackend, DEVICE_ID, UID } from '../../support/pushHarness';
import type { FakePushEnv, PushTestBackend } from '../../support/pushHarness';

export const reducer = combineReducers({ app, user, push });
export type State = ReturnType<typeof reducer>;
export const pushReducer = reducer as Reducer<State>;

export const ada = { uid: UID, email: 'ada@example.com', displayName: 'Ada' };

export function userDoc(settings?: NotificationSettings): UserDoc {
  return {
    uid: UID,
    email: ada.email,
    isOwner: false,
    notificationSettings: settings ?? { enabled: true, delivery: { channels: ['push', 'in_app'] } },
    credits: 0,
    passCount: 0,
    effectiveConId: '',
  };
}

export interface StateOptions {
  platform?: Platform;
  permission?: PermissionState;
  environmentEnabled?: boolean;
  settings?: NotificationSettings;
  signedIn?: boolean;
  mounted?: boolean;
}

/** The store as it is once the app started and Ada signed in (unless told otherwise). */
export function initialState(options: StateOptions = {}): State {
  let state = reducer(undefined, { type: '@@test/init' });
  state = reducer(
    state,
    started({ platform: options.platform ?? 'web', installed: false, online: true, deviceId: DEVICE_ID }),
  );
  if (options.mounted ?? true) state = reducer(state, rootMounted());
  state = reducer(
    state,
    supportDetected({
      support: { supported: true, missing: [] },
      environmentEnabled: options.environmentEnabled ?? true,
      permission: options.permission ?? 'granted',
    }),
  );
  if (options.signedIn ?? true) {
    state = reducer(state, signedIn({ authUser: ada }));
    state = reducer(state, accountLoaded(buildUserState(ada, userDoc(options.settings), { isAdmin: false })));
  }
  return state;
}

export interface Harness {
  time: VirtualTime;
  env: FakePushEnv;
  backend: PushTestBackend;
  ctx: PushContext;
  /** Providers for expectSaga: the backend loader, the worker's messaging answer, and virtual time last. */
  providers: Parameters<ReturnType<typeof expectSaga>['provide']>[0];
}

/**
 * `workerMessaging: 'real'` leaves enableServiceWorkerMessaging to run (its browser edge, postToActiveWorker,
 * is then the test's to provide); by default the worker answers success.
 */
export function createHarness(
  options: StateOptions & { workerMessaging?: 'answers' | 'real' } = {},
): Harness {
  const time = createVirtualTime();
  const env = createFakePushEnv(time.now, {
    permission: options.permission ?? 'granted',
    environmentEnabled: options.environmentEnabled ?? true,
  });
  const backend = createPushBackend(time.now);
  const ctx: PushContext = {
    backend: backend.backend,
    env,
    creation: createSharedTask(),
    validation: createSharedTask(),
  };
  return {
    time,
    env,
    backend,
    ctx,
    providers: [
      ...(options.workerMessaging === 'real'
        ? []
        : [[matchers.call.fn(enableServiceWorkerMessaging), true] as [unknown, unknown]]),
      time.provider,
    ] as Harness['providers'],
  };
}

/** The types of the actions a run put, in order. */
export function putTypes(result: { effects: { put?: Array<{ payload: { action: { type: string } } }> } }) {
  return (result.effects.put ?? []).map((effect) => effect.payload.action.type);
}
