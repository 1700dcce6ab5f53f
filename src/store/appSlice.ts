// The app's environment as the screens need it: platform, install state, connectivity, whether the React root
// is mounted, and the service worker's registration. Push support lives in the push slice. Plain data only, so Redux DevTools can time-travel through it.
import { createAction, createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { Platform } from '@/platform';

export type ServiceWorkerStatus = 'unknown' | 'unsupported' | 'registering' | 'ready' | 'failed';

export interface AppState {
  started: boolean;
  platform: Platform;
  installed: boolean;
  online: boolean;
  deviceId: string;
  /** The React root is mounted (spec §4: token monitoring stops when the provider is torn down). */
  rootMounted: boolean;
  serviceWorker: {
    status: ServiceWorkerStatus;
    /** The page is controlled by the worker, so its shell and route chunks come from the precache. */
    controlling: boolean;
    error: string | null;
  };
  /** A `beforeinstallprompt` event is held, so the app can offer its own install button. */
  installPromptAvailable: boolean;
}

export interface AppStartedPayload {
  platform: Platform;
  installed: boolean;
  online: boolean;
  deviceId: string;
}

export const initialState: AppState = {
  started: false,
  platform: 'web',
  installed: false,
  online: true,
  deviceId: '',
  rootMounted: false,
  serviceWorker: { status: 'unknown', controlling: false, error: null },
  installPromptAvailable: false,
};

const appSlice = createSlice({
  name: 'app',
  initialState,
  reducers: {
    started(state, action: PayloadAction<AppStartedPayload>) {
      return { ...state, ...action.payload, started: true };
    },
    rootMounted(state) {
      state.rootMounted = true;
    },
    rootUnmounted(state) {
      state.rootMounted = false;
    },
    connectivityChanged(state, action: PayloadAction<{ online: boolean }>) {
      state.online = action.payload.online;
    },
    displayModeChanged(state, action: PayloadAction<{ installed: boolean }>) {
      state.installed = action.payload.installed;
    },
    installPromptCaptured(state) {
      state.installPromptAvailable = true;
    },
    installPromptUsed(state) {
      state.installPromptAvailable = false;
    },
    serviceWorkerUnsupported(state) {
      state.serviceWorker = { status: 'unsupported', controlling: false, error: null };
    },
    serviceWorkerRegistrationStarted(state) {
      state.serviceWorker.status = 'registering';
      state.serviceWorker.error = null;
    },
    serviceWorkerRegistered(state) {
      state.serviceWorker.status = 'ready';
    },
    serviceWorkerRegistrationFailed(state, action: PayloadAction<{ message: string }>) {
      state.serviceWorker.status = 'failed';
      state.serviceWorker.error = action.payload.message;
    },
    /** A worker took control of the page; `isUpdate` when it replaced an earlier one (spec §3 fcm_refresh_needed…). */
    serviceWorkerTookControl(state, _action: PayloadAction<{ isUpdate: boolean }>) {
      state.serviceWorker.controlling = true;
    },
  },
});

export const {
  started,
  rootMounted,
  rootUnmounted,
  connectivityChanged,
  displayModeChanged,
  installPromptCaptured,
  installPromptUsed,
  serviceWorkerUnsupported,
  serviceWorkerRegistrationStarted,
  serviceWorkerRegistered,
  serviceWorkerRegistrationFailed,
  serviceWorkerTookControl,
} = appSlice.actions;

/** The person pressed "Install QuPM"; the app saga shows the browser's install prompt. */
export const installRequested = createAction('app/installRequested');

export default appSlice.reducer;

interface WithApp {
  app: AppState;
}
export const selectApp = (state: WithApp): AppState => state.app;
export const selectPlatform = (state: WithApp): Platform => state.app.platform;
export const selectIsInstalled = (state: WithApp): boolean => state.app.installed;
export const selectIsOnline = (state: WithApp): boolean => state.app.online;
export const selectDeviceId = (state: WithApp): string => state.app.deviceId;
export const selectServiceWorker = (state: WithApp): AppState['serviceWorker'] => state.app.serviceWorker;
export const selectInstallPromptAvailable = (state: WithApp): boolean => state.app.installPromptAvailable;
/** Offline-ready once a worker controls the page: the precache then serves the shell and every route. */
export const selectOfflineReady = (state: WithApp): boolean =>
  state.app.serviceWorker.status === 'ready' && state.app.serviceWorker.controlling;
