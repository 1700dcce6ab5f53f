// The push (FCM) token kept in local storage between visits. Older builds stored it as fcmToken; it now lives
// under fcm_token, and anything stored that could not be a token is removed so that it never reaches the
// backend as a token and never sticks around to be read again.
import { LIMITS, PUSH_TOKEN_PATTERN } from '@core/limits';
import type { KeyValueStore } from './storage';
import { readString, removeKey, writeString } from './storage';
import { LOCAL_STORAGE_KEYS } from './storageKeys';

/**
 * Whether the value could be a push token: what the backends accept as one (core/limits.ts: 16 to 8192 token
 * characters). FCM registration tokens are ~150-200 characters today; the bounds are wide on purpose so that a
 * change of format upstream does not make QuPM throw real tokens away, while '', 'null' and megabyte blobs are
 * refused. The characters (base64url plus ':' and '.') rule out whitespace, '[object Object]' and anything
 * JSON-looking (quotes, braces, brackets), which is what corrupt values were.
 */
export function isPlausiblePushToken(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length >= LIMITS.pushTokenMin &&
    value.length <= LIMITS.pushTokenMax &&
    PUSH_TOKEN_PATTERN.test(value)
  );
}

/**
 * The stored push token, or null. spec §3: a legacy fcmToken is migrated: moved to fcm_token and removed, so
 * the migration happens once. When both keys are set the new key wins. Never throws.
 */
export function readStoredPushToken(store: KeyValueStore | null): string | null {
  if (!store) return null;
  const current = readString(store, LOCAL_STORAGE_KEYS.fcmToken);
  const legacy = readString(store, LOCAL_STORAGE_KEYS.legacyFcmToken);

  if (isPlausiblePushToken(current)) {
    if (legacy !== null) removeKey(store, LOCAL_STORAGE_KEYS.legacyFcmToken);
    return current;
  }
  if (current !== null) removeKey(store, LOCAL_STORAGE_KEYS.fcmToken);

  if (legacy === null) return null;
  if (!isPlausiblePushToken(legacy)) {
    removeKey(store, LOCAL_STORAGE_KEYS.legacyFcmToken);
    return null;
  }
  // The legacy copy is only removed once the new one is written: if the write fails (quota), removing it
  // would lose the token, and keeping it lets the next read try again.
  if (writeString(store, LOCAL_STORAGE_KEYS.fcmToken, legacy)) {
    removeKey(store, LOCAL_STORAGE_KEYS.legacyFcmToken);
  }
  return legacy;
}

/** Stores the token under fcm_token; false when the token is implausible or storage refuses it. */
export function storePushToken(store: KeyValueStore | null, token: string): boolean {
  if (!isPlausiblePushToken(token)) return false;
  return writeString(store, LOCAL_STORAGE_KEYS.fcmToken, token);
}

/** Forgets the stored token under both its current and its legacy key, and its record. */
export function clearStoredPushToken(store: KeyValueStore | null): void {
  removeKey(store, LOCAL_STORAGE_KEYS.fcmToken);
  removeKey(store, LOCAL_STORAGE_KEYS.legacyFcmToken);
  removeKey(store, LOCAL_STORAGE_KEYS.fcmTokenRecord);
}

/** Where the stored token was saved: the account, its token document, and when the backend last heard of it. */
export interface PushTokenRecord {
  uid: string;
  docId: string;
  /** Epoch ms of the last add or lastUsed touch the backend acknowledged. */
  syncedAt: number;
}

const RECORD_ID = /^[A-Za-z0-9_-]{1,128}$/;

function isRecordShape(value: unknown): value is PushTokenRecord {
  if (typeof value !== 'object' || value === null) return false;
  const { uid, docId, syncedAt } = value as Record<string, unknown>;
  return (
    typeof uid === 'string' &&
    RECORD_ID.test(uid) &&
    typeof docId === 'string' &&
    RECORD_ID.test(docId) &&
    typeof syncedAt === 'number' &&
    Number.isSafeInteger(syncedAt) &&
    syncedAt >= 0
  );
}

/** The stored record, or null; a record that does not parse is removed so it is never read again. */
export function readPushTokenRecord(store: KeyValueStore | null): PushTokenRecord | null {
  const raw = readString(store, LOCAL_STORAGE_KEYS.fcmTokenRecord);
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isRecordShape(parsed)) return { uid: parsed.uid, docId: parsed.docId, syncedAt: parsed.syncedAt };
  } catch {
    // not JSON: removed below
  }
  removeKey(store, LOCAL_STORAGE_KEYS.fcmTokenRecord);
  return null;
}

/** Stores the token and its record together; false when either is refused (nothing half-written is kept). */
export function storePushTokenWithRecord(
  store: KeyValueStore | null,
  token: string,
  record: PushTokenRecord,
): boolean {
  if (!isRecordShape(record) || !storePushToken(store, token)) return false;
  if (writeString(store, LOCAL_STORAGE_KEYS.fcmTokenRecord, JSON.stringify(record))) return true;
  clearStoredPushToken(store);
  return false;
}

/** spec §3 fcm_refresh_needed_after_sw_update: set when a new service worker took over, cleared once honoured. */
export function isRefreshNeededAfterSwUpdate(store: KeyValueStore | null): boolean {
  return readString(store, LOCAL_STORAGE_KEYS.fcmRefreshNeededAfterSwUpdate) === 'true';
}

export function markRefreshNeededAfterSwUpdate(store: KeyValueStore | null): boolean {
  return writeString(store, LOCAL_STORAGE_KEYS.fcmRefreshNeededAfterSwUpdate, 'true');
}

export function clearRefreshNeededAfterSwUpdate(store: KeyValueStore | null): void {
  removeKey(store, LOCAL_STORAGE_KEYS.fcmRefreshNeededAfterSwUpdate);
}
