// The browser platform behind pure functions: each takes what it reads from the browser as parameters, and a
// browser* helper beside it collects those from the real globals without ever throwing. The browser edges the
// sagas call and listen to are imported from their own modules, so the shell carries only what it uses:
// serviceWorker (the one owner of navigator.serviceWorker), browserEvents (eventChannel factories), browser
// (clock, reload, caches, badge, dialogs), pushEnv (push's edge), attention and conversationStore.
export { LOCAL_STORAGE_KEYS, SESSION_STORAGE_KEYS } from './storageKeys';
export type { LocalStorageKey, SessionStorageKey, StorageKey } from './storageKeys';
export {
  browserLocalStorage,
  browserSessionStorage,
  hasStoredLocalSession,
  readString,
  removeKey,
  writeString,
} from './storage';
export type { KeyValueStore } from './storage';
export { browserDeviceIdSource, createDeviceIdSource, isUuid } from './deviceId';
export type { DeviceIdDeps } from './deviceId';
export {
  clearRefreshNeededAfterSwUpdate,
  clearStoredPushToken,
  isPlausiblePushToken,
  isRefreshNeededAfterSwUpdate,
  markRefreshNeededAfterSwUpdate,
  readPushTokenRecord,
  readStoredPushToken,
  storePushToken,
  storePushTokenWithRecord,
} from './fcmToken';
export type { PushTokenRecord } from './fcmToken';
export { browserFamily, browserPlatform, detectBrowserFamily, detectPlatform } from './platform';
export type { BrowserFamily, Platform, PlatformEnv } from './platform';
export { browserInstallEnv, INSTALLED_DISPLAY_MODE_QUERIES, isInstalledApp } from './installed';
export type { InstallEnv, MatchMedia } from './installed';
export { browserPushSupport, detectPushSupport } from './capabilities';
export type { PermissionState, PushCapability, PushGlobals, PushSupport } from './capabilities';
export { browserHostname, isLocalOrIpHost, isPushEnabledForHost } from './environment';
