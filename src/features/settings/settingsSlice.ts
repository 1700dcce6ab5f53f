// Settings screens' requests: saving the profile and notification settings, and this person's devices (their push
// token documents). The saved values themselves land in the user slice.
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { NotificationSettings, PushTokenDoc } from '@core/model';

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'failed';
import type { LoadStatus } from '@/store/status';
import { signedOut } from '@/store/userSlice';

export interface SettingsState {
  profile: { status: SaveStatus; error: string | null };
  notifications: { status: SaveStatus; error: string | null };
  devices: { status: LoadStatus; items: PushTokenDoc[]; error: string | null; removing: string[] };
}

export const initialState: SettingsState = {
  profile: { status: 'idle', error: null },
  notifications: { status: 'idle', error: null },
  devices: { status: 'idle', items: [], error: null, removing: [] },
};

const settingsSlice = createSlice({
  name: 'settings',
  initialState,
  reducers: {
    profileSaveRequested(state, _action: PayloadAction<{ nickname: string }>) {
      state.profile = { status: 'saving', error: null };
    },
    profileSaved(state) {
      state.profile = { status: 'saved', error: null };
    },
    profileSaveFailed(state, action: PayloadAction<{ message: string }>) {
      state.profile = { status: 'failed', error: action.payload.message };
    },
    notificationsSaveRequested(state, _action: PayloadAction<{ settings: NotificationSettings }>) {
      state.notifications = { status: 'saving', error: null };
    },
    notificationsSaved(state) {
      state.notifications = { status: 'saved', error: null };
    },
    notificationsSaveFailed(state, action: PayloadAction<{ message: string }>) {
      state.notifications = { status: 'failed', error: action.payload.message };
    },
    devicesRequested(state) {
      state.devices.status = 'loading';
      state.devices.error = null;
    },
    devicesLoaded(state, action: PayloadAction<{ items: PushTokenDoc[] }>) {
      state.devices = { status: 'loaded', items: action.payload.items, error: null, removing: [] };
    },
    devicesLoadFailed(state, action: PayloadAction<{ message: string }>) {
      state.devices.status = 'failed';
      state.devices.error = action.payload.message;
    },
    deviceRemoveRequested(state, action: PayloadAction<{ id: string }>) {
      if (!state.devices.removing.includes(action.payload.id)) state.devices.removing.push(action.payload.id);
      state.devices.error = null;
    },
    deviceRemoved(state, action: PayloadAction<{ id: string }>) {
      state.devices.items = state.devices.items.filter((item) => item.id !== action.payload.id);
      state.devices.removing = state.devices.removing.filter((id) => id !== action.payload.id);
    },
    deviceRemoveFailed(state, action: PayloadAction<{ id: string; message: string }>) {
      state.devices.removing = state.devices.removing.filter((id) => id !== action.payload.id);
      state.devices.error = action.payload.message;
    },
  },
  extraReducers: (builder) => {
    // Nothing of one account's settings survives its sign-out.
    builder.addCase(signedOut, () => initialState);
  },
});

export const {
  profileSaveRequested,
  profileSaved,
  profileSaveFailed,
  notificationsSaveRequested,
  notificationsSaved,
  notificationsSaveFailed,
  devicesRequested,
  devicesLoaded,
  devicesLoadFailed,
  deviceRemoveRequested,
  deviceRemoved,
  deviceRemoveFailed,
} = settingsSlice.actions;
export default settingsSlice.reducer;

// The app starts with this slice (src/app/rootReducer.ts adds it): every module's RootState has it.
declare module '@/store/reducer' {
  interface FeatureSlices {
    settings: SettingsState;
  }
}

interface WithSettings {
  settings: SettingsState;
}
export const selectProfileSave = (state: WithSettings) => state.settings.profile;
export const selectNotificationsSave = (state: WithSettings) => state.settings.notifications;
export const selectDevices = (state: WithSettings) => state.settings.devices;
