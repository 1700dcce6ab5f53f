import type { DeviceChoiceKey } from './deviceChoices';

// Every key QuPM keeps in web storage, in one place (the device's choices, which the shell never reads, in
// deviceChoices.ts), so that no module spells a key by hand and a rename
// cannot leave stale data behind under the old spelling.

// spec §3: local storage keys (device_id, fcm_token with its legacy spelling fcmToken, and the app's flags).
export const LOCAL_STORAGE_KEYS = {
  deviceId: 'device_id',
  fcmToken: 'fcm_token',
  // spec §3: a legacy fcmToken is migrated to fcm_token; see fcmToken.ts.
  legacyFcmToken: 'fcmToken',
  // Not in the spec: which account and token document fcm_token was saved to, and when the backend last heard
  // of it, so the 30-minute check can compare locally and touch the backend at most once a day (QUALITY.md).
  fcmTokenRecord: 'fcm_token_record',
  fcmRefreshNeededAfterSwUpdate: 'fcm_refresh_needed_after_sw_update',
  lastAppStart: 'last_app_start',
  // Not in the spec: when the app last restarted (started more than 60 s after last_app_start), for the
  // service-worker health's 5-minute restart window across page loads.
  appRestarts: 'app_restarts',
  versionUpdatePending: 'version_update_pending',
  forceVersionCheck: 'force_version_check',
  enableUpdateNotifications: 'enable_update_notifications',
  // Not in the spec: the embedded backend's session (tokens and account summary), kept so a reload stays
  // signed in. The Firebase adapter keeps its own in IndexedDB, as the SDK does.
  localSession: 'qupm_session',
  // Not in the spec: whose data Firestore's cache on this device holds; another person's is cleared before use.
  firestoreCacheOwner: 'qupm_firestore_cache_owner',
} as const;

// spec §3: session storage key chunk_error_reloaded (the reload-once guard after a chunk load failure, §4).
export const SESSION_STORAGE_KEYS = {
  chunkErrorReloaded: 'chunk_error_reloaded',
} as const;

export type LocalStorageKey = (typeof LOCAL_STORAGE_KEYS)[keyof typeof LOCAL_STORAGE_KEYS];
export type SessionStorageKey = (typeof SESSION_STORAGE_KEYS)[keyof typeof SESSION_STORAGE_KEYS];
export type StorageKey = LocalStorageKey | SessionStorageKey | DeviceChoiceKey;
