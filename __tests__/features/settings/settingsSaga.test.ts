import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import user, { buildUserState, accountLoaded, signedIn } from '@/store/userSlice';
import settings, {
  deviceRemoveRequested,
  notificationsSaveRequested,
  profileSaveRequested,
} from '@/features/settings/settingsSlice';
import {
  handleDeviceRemove,
  handleDevicesRequested,
  handleNotificationsSave,
  handleProfileSave,
} from '@/features/settings/settingsSaga';
import type { PushTokenDoc, UserDoc } from '@core/model';
import { createFakeBackend } from '../../support/fakeBackend';

const reducer = combineReducers({ user, settings });
type State = ReturnType<typeof reducer>;
const ada = { uid: 'u1', email: 'ada@example.com', displayName: null };
const doc: UserDoc = {
  uid: 'u1',
  email: 'ada@example.com',
  isOwner: false,
  nickname: 'Ada',
  notificationSettings: { enabled: true, delivery: { channels: ['push'] } },
  credits: 0,
  passCount: 0,
  effectiveConId: '',
};
const signedInState = (): State =>
  reducer(
    reducer(undefined, signedIn({ authUser: ada })),
    accountLoaded(buildUserState(ada, doc, { isAdmin: false })),
  );
const token = (id: string, lastUsed: number): PushTokenDoc => ({
  id,
  token: `tok-${id}-xxxxxxxxxxxxxxxx`,
  deviceId: `dev-${id}`,
  createdAt: 1,
  lastUsed,
  status: 'active',
  platform: 'web',
  userAgent: 'Mozilla/5.0 Chrome/140',
});

describe('settings saga', () => {
  const backend = createFakeBackend() as unknown as Backend;

  it('saves the nickname and puts the saved document into the user state', async () => {
    const { storeState } = await expectSaga(
      handleProfileSave,
      backend,
      profileSaveRequested({ nickname: 'Countess' }),
    )
      .withReducer(reducer, signedInState())
      .provide([[matchers.call.fn(backend.users.updateProfile), { ...doc, nickname: 'Countess' }]])
      .call([backend.users, backend.users.updateProfile], 'u1', { nickname: 'Countess' })
      .run();
    expect((storeState as State).user.nickname).toBe('Countess');
    expect((storeState as State).settings.profile).toEqual({ status: 'saved', error: null });
  });

  it('reports a refused save with its message and changes nothing', async () => {
    const { storeState } = await expectSaga(
      handleProfileSave,
      backend,
      profileSaveRequested({ nickname: 'x' }),
    )
      .withReducer(reducer, signedInState())
      .provide([
        [
          matchers.call.fn(backend.users.updateProfile),
          throwError(new BackendError('INVALID_ARGUMENT', 'nickname: too long')),
        ],
      ])
      .run();
    expect((storeState as State).settings.profile).toEqual({ status: 'failed', error: 'nickname: too long' });
    expect((storeState as State).user.nickname).toBe('Ada');
  });

  it('refuses to save for a signed-out person without calling the backend', async () => {
    const { storeState } = await expectSaga(
      handleProfileSave,
      backend,
      profileSaveRequested({ nickname: 'x' }),
    )
      .withReducer(reducer)
      .not.call.fn(backend.users.updateProfile)
      .run();
    expect((storeState as State).settings.profile.status).toBe('failed');
  });

  it('saves notification settings', async () => {
    const next = { enabled: false, delivery: { channels: [] } };
    const { storeState } = await expectSaga(
      handleNotificationsSave,
      backend,
      notificationsSaveRequested({ settings: next }),
    )
      .withReducer(reducer, signedInState())
      .provide([[matchers.call.fn(backend.users.updateProfile), { ...doc, notificationSettings: next }]])
      .run();
    expect((storeState as State).user.notificationSettings).toEqual(next);
  });

  it('lists the devices, most recently used first', async () => {
    const { storeState } = await expectSaga(handleDevicesRequested, backend)
      .withReducer(reducer, signedInState())
      .provide([[matchers.call.fn(backend.pushTokens.listMyTokens), [token('a', 10), token('b', 30)]]])
      .run();
    expect((storeState as State).settings.devices.items.map((d) => d.id)).toEqual(['b', 'a']);
  });

  it('removes a device, and keeps it listed when the removal fails', async () => {
    const loadedDevices = reducer(signedInState(), {
      type: 'settings/devicesLoaded',
      payload: { items: [token('a', 1)] },
    });
    const removed = await expectSaga(handleDeviceRemove, backend, deviceRemoveRequested({ id: 'a' }))
      .withReducer(reducer, loadedDevices)
      .provide([[matchers.call.fn(backend.pushTokens.deleteToken), undefined]])
      .run();
    expect((removed.storeState as State).settings.devices.items).toEqual([]);
    const failed = await expectSaga(handleDeviceRemove, backend, deviceRemoveRequested({ id: 'a' }))
      .withReducer(reducer, loadedDevices)
      .provide([
        [
          matchers.call.fn(backend.pushTokens.deleteToken),
          throwError(new BackendError('UNAVAILABLE', 'offline')),
        ],
      ])
      .run();
    expect((failed.storeState as State).settings.devices).toMatchObject({
      items: [token('a', 1)],
      error: 'offline',
    });
  });
});
