import { findNonSerializableValue } from '@reduxjs/toolkit';
import type { PushTokenDoc } from '@core/model';
import reducer, {
  deviceRemoveFailed,
  deviceRemoveRequested,
  deviceRemoved,
  devicesLoadFailed,
  devicesLoaded,
  devicesRequested,
  initialState,
  notificationsSaveFailed,
  notificationsSaveRequested,
  notificationsSaved,
  profileSaveFailed,
  profileSaveRequested,
  profileSaved,
  selectDevices,
  selectNotificationsSave,
  selectProfileSave,
} from '@/features/settings/settingsSlice';
import type { SettingsState } from '@/features/settings/settingsSlice';
import { signedOut } from '@/store/userSlice';

const T0 = 1_700_000_000_000;
const device = (id: string): PushTokenDoc => ({
  id,
  token: `token-${id}`,
  deviceId: `device-${id}`,
  createdAt: T0,
  lastUsed: T0,
  status: 'active',
  platform: 'web',
  userAgent: 'Mozilla/5.0',
});
const settings = { enabled: true, delivery: { channels: ['push' as const] } };

const at = (state: SettingsState) => ({ settings: state });
const listed = () =>
  reducer(initialState, devicesLoaded({ items: [device('d1'), device('d2'), device('d3')] }));
const deviceIds = (state: SettingsState) => selectDevices(at(state)).items.map((d) => d.id);

describe('settings reducer: saving the profile and the notification settings', () => {
  it('starts with nothing saved and no devices known', () => {
    const state = reducer(undefined, { type: '@@INIT' });
    expect(selectProfileSave(at(state))).toEqual({ status: 'idle', error: null });
    expect(selectNotificationsSave(at(state))).toEqual({ status: 'idle', error: null });
    expect(selectDevices(at(state))).toEqual({ status: 'idle', items: [], error: null, removing: [] });
  });

  it('saves the profile, and says why a save failed until the next one', () => {
    let state = reducer(initialState, profileSaveRequested({ nickname: 'Ada' }));
    expect(selectProfileSave(at(state))).toEqual({ status: 'saving', error: null });
    state = reducer(state, profileSaveFailed({ message: 'The nickname is too long.' }));
    expect(selectProfileSave(at(state))).toEqual({ status: 'failed', error: 'The nickname is too long.' });
    state = reducer(state, profileSaveRequested({ nickname: 'Ada' }));
    expect(selectProfileSave(at(state)).error).toBeNull();
    expect(selectProfileSave(at(reducer(state, profileSaved())))).toEqual({ status: 'saved', error: null });
  });

  it('saves the notification settings on their own, apart from the profile', () => {
    let state = reducer(initialState, profileSaveRequested({ nickname: 'Ada' }));
    state = reducer(state, notificationsSaveRequested({ settings }));
    state = reducer(state, notificationsSaveFailed({ message: 'Offline' }));
    expect(selectNotificationsSave(at(state))).toEqual({ status: 'failed', error: 'Offline' });
    expect(selectProfileSave(at(state)).status).toBe('saving');
    state = reducer(state, notificationsSaveRequested({ settings }));
    expect(selectNotificationsSave(at(reducer(state, notificationsSaved())))).toEqual({
      status: 'saved',
      error: null,
    });
  });
});

describe("settings reducer: this person's devices", () => {
  it('loads the devices in the order given', () => {
    let state = reducer(initialState, devicesRequested());
    expect(selectDevices(at(state)).status).toBe('loading');
    state = reducer(state, devicesLoaded({ items: [device('d2'), device('d1')] }));
    expect(selectDevices(at(state))).toMatchObject({ status: 'loaded', error: null });
    expect(deviceIds(state)).toEqual(['d2', 'd1']);
  });

  it('says why the devices could not be read, and clears the words on the next read', () => {
    let state = reducer(reducer(initialState, devicesRequested()), devicesLoadFailed({ message: 'Offline' }));
    expect(selectDevices(at(state))).toMatchObject({ status: 'failed', error: 'Offline' });
    state = reducer(state, devicesRequested());
    expect(selectDevices(at(state))).toMatchObject({ status: 'loading', error: null });
  });

  it('marks each device being removed once, and takes it off the list when it is gone', () => {
    let state = reducer(listed(), deviceRemoveRequested({ id: 'd2' }));
    state = reducer(state, deviceRemoveRequested({ id: 'd2' }));
    state = reducer(state, deviceRemoveRequested({ id: 'd3' }));
    expect(selectDevices(at(state)).removing).toEqual(['d2', 'd3']);
    state = reducer(state, deviceRemoved({ id: 'd2' }));
    expect(deviceIds(state)).toEqual(['d1', 'd3']);
    expect(selectDevices(at(state)).removing).toEqual(['d3']);
  });

  it('keeps a device listed when its removal fails, saying why, until the next removal', () => {
    let state = reducer(listed(), deviceRemoveRequested({ id: 'd1' }));
    state = reducer(state, deviceRemoveFailed({ id: 'd1', message: 'Server busy' }));
    expect(deviceIds(state)).toEqual(['d1', 'd2', 'd3']);
    expect(selectDevices(at(state))).toMatchObject({ removing: [], error: 'Server busy' });
    expect(selectDevices(at(reducer(state, deviceRemoveRequested({ id: 'd1' })))).error).toBeNull();
  });

  it('ignores the removal of a device it does not list', () => {
    const state = listed();
    expect(deviceIds(reducer(state, deviceRemoved({ id: 'elsewhere' })))).toEqual(['d1', 'd2', 'd3']);
  });
});

describe('settings reducer: sign-out', () => {
  it("forgets the account's devices and saves", () => {
    let state = reducer(listed(), deviceRemoveRequested({ id: 'd1' }));
    state = reducer(state, profileSaveFailed({ message: 'x' }));
    state = reducer(state, notificationsSaved());
    expect(reducer(state, signedOut())).toEqual(initialState);
  });

  it('stays serializable', () => {
    let state = reducer(listed(), deviceRemoveRequested({ id: 'd1' }));
    state = reducer(state, profileSaveFailed({ message: 'x' }));
    expect(findNonSerializableValue(state)).toBe(false);
  });
});
