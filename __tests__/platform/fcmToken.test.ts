import {
  clearRefreshNeededAfterSwUpdate,
  clearStoredPushToken,
  isPlausiblePushToken,
  isRefreshNeededAfterSwUpdate,
  markRefreshNeededAfterSwUpdate,
  readPushTokenRecord,
  readStoredPushToken,
  storePushToken,
  storePushTokenWithRecord,
} from '@/platform';
import { createFakeStore } from './fakes';

// The shape of a real FCM registration token: an instance id, a colon, then base64url.
const TOKEN = 'cXk2Zk9TbVdQZWs:APA91bHk3x-Rq_7dJm0vV2fYp8sLw9eT4uN1aQbC6gHiK5oZxE3rM';
const LEGACY_TOKEN = 'eLgAcYtOkEn0000:APA91bOldToken_from-an.older-build_0123456789abcdef';

describe('isPlausiblePushToken', () => {
  it.each([
    ['an FCM token', TOKEN],
    ['a 16-character token', 'a'.repeat(16)],
    ['an 8192-character token', 'a'.repeat(8192)],
    ['a token using every allowed punctuation', 'abc_def-ghi:jkl.mno'],
  ])('accepts %s', (_label, value) => {
    expect(isPlausiblePushToken(value)).toBe(true);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 1234567890123456],
    ['an object', { token: TOKEN }],
    ['an empty string', ''],
    ['the string null', 'null'],
    ['the string undefined', 'undefined'],
    ['[object Object]', '[object Object]'],
    ['a JSON object', JSON.stringify({ token: TOKEN })],
    ['a JSON string', JSON.stringify(TOKEN)],
    ['a token with surrounding whitespace', ` ${TOKEN} `],
    ['a token with a line break in it', `${TOKEN.slice(0, 20)}\n${TOKEN.slice(20)}`],
    ['a 15-character string', 'a'.repeat(15)],
    ['an 8193-character string', 'a'.repeat(8193)],
    ['standard base64 with + and /', 'abcdefgh+ijklmnop/qrst='],
  ])('refuses %s', (_label, value) => {
    expect(isPlausiblePushToken(value)).toBe(false);
  });
});

describe('readStoredPushToken', () => {
  it('returns null when there is no store', () => {
    expect(readStoredPushToken(null)).toBeNull();
  });

  it('returns null and changes nothing when no token is stored', () => {
    const store = createFakeStore({ device_id: 'x' });
    expect(readStoredPushToken(store)).toBeNull();
    expect(store.writes).toEqual([]);
    expect(store.removals).toEqual([]);
  });

  it('returns the token stored under fcm_token without writing anything', () => {
    const store = createFakeStore({ fcm_token: TOKEN });
    expect(readStoredPushToken(store)).toBe(TOKEN);
    expect(store.writes).toEqual([]);
    expect(store.removals).toEqual([]);
  });

  it('prefers fcm_token over a legacy fcmToken beside it and removes the legacy one', () => {
    const store = createFakeStore({ fcm_token: TOKEN, fcmToken: LEGACY_TOKEN });
    expect(readStoredPushToken(store)).toBe(TOKEN);
    expect(store.contents()).toEqual({ fcm_token: TOKEN });
  });

  it('removes a corrupt legacy fcmToken beside a good fcm_token', () => {
    const store = createFakeStore({ fcm_token: TOKEN, fcmToken: 'undefined' });
    expect(readStoredPushToken(store)).toBe(TOKEN);
    expect(store.contents()).toEqual({ fcm_token: TOKEN });
  });

  it('moves a legacy fcmToken to fcm_token', () => {
    const store = createFakeStore({ fcmToken: LEGACY_TOKEN });
    expect(readStoredPushToken(store)).toBe(LEGACY_TOKEN);
    expect(store.contents()).toEqual({ fcm_token: LEGACY_TOKEN });
  });

  it('migrates the legacy token exactly once however often it is read', () => {
    const store = createFakeStore({ fcmToken: LEGACY_TOKEN });
    const reads = [readStoredPushToken(store), readStoredPushToken(store), readStoredPushToken(store)];
    expect(reads).toEqual([LEGACY_TOKEN, LEGACY_TOKEN, LEGACY_TOKEN]);
    expect(store.writes).toEqual([['fcm_token', LEGACY_TOKEN]]);
    expect(store.removals).toEqual(['fcmToken']);
  });

  it.each([
    ['the string null', 'null'],
    ['the string undefined', 'undefined'],
    ['an empty string', ''],
    ['[object Object]', '[object Object]'],
    ['a JSON object', JSON.stringify({ token: TOKEN })],
  ])('removes %s stored as fcm_token and returns null', (_label, corrupt) => {
    const store = createFakeStore({ fcm_token: corrupt, device_id: 'kept' });
    expect(readStoredPushToken(store)).toBeNull();
    expect(store.contents()).toEqual({ device_id: 'kept' });
  });

  it('removes a corrupt legacy fcmToken and returns null', () => {
    const store = createFakeStore({ fcmToken: '[object Object]' });
    expect(readStoredPushToken(store)).toBeNull();
    expect(store.contents()).toEqual({});
  });

  it('replaces a corrupt fcm_token with a good legacy fcmToken', () => {
    const store = createFakeStore({ fcm_token: 'null', fcmToken: LEGACY_TOKEN });
    expect(readStoredPushToken(store)).toBe(LEGACY_TOKEN);
    expect(store.contents()).toEqual({ fcm_token: LEGACY_TOKEN });
  });

  it('keeps the legacy fcmToken when it cannot be written to fcm_token, so the token is not lost', () => {
    const store = createFakeStore({ fcmToken: LEGACY_TOKEN }, ['set']);
    expect(readStoredPushToken(store)).toBe(LEGACY_TOKEN);
    expect(store.contents()).toEqual({ fcmToken: LEGACY_TOKEN });
  });

  it('returns null instead of throwing when storage cannot be read', () => {
    const store = createFakeStore({ fcm_token: TOKEN }, ['get']);
    expect(readStoredPushToken(store)).toBeNull();
  });

  it('still returns the token when removing the legacy key throws', () => {
    const store = createFakeStore({ fcm_token: TOKEN, fcmToken: LEGACY_TOKEN }, ['remove']);
    expect(readStoredPushToken(store)).toBe(TOKEN);
  });
});

describe('storePushToken', () => {
  it('stores a plausible token under fcm_token', () => {
    const store = createFakeStore();
    expect(storePushToken(store, TOKEN)).toBe(true);
    expect(store.contents()).toEqual({ fcm_token: TOKEN });
  });

  it('refuses an implausible token and stores nothing', () => {
    const store = createFakeStore({ fcm_token: TOKEN });
    expect(storePushToken(store, 'undefined')).toBe(false);
    expect(store.contents()).toEqual({ fcm_token: TOKEN });
  });

  it('reports failure when storage refuses the write', () => {
    expect(storePushToken(createFakeStore({}, ['set']), TOKEN)).toBe(false);
  });

  it('reports failure when there is no store', () => {
    expect(storePushToken(null, TOKEN)).toBe(false);
  });
});

describe('clearStoredPushToken', () => {
  it('removes the token under both keys and leaves other keys', () => {
    const store = createFakeStore({ fcm_token: TOKEN, fcmToken: LEGACY_TOKEN, device_id: 'kept' });
    clearStoredPushToken(store);
    expect(store.contents()).toEqual({ device_id: 'kept' });
  });

  it('does not throw when storage is blocked or missing', () => {
    expect(() => clearStoredPushToken(createFakeStore({ fcm_token: TOKEN }, ['remove']))).not.toThrow();
    expect(() => clearStoredPushToken(null)).not.toThrow();
  });
});

describe('the token record (fcm_token_record)', () => {
  const record = { uid: 'uid1', docId: 'docAAAAAAAAAAAAAAAAA', syncedAt: 1_700_000_000_000 };

  it('is stored with the token and read back', () => {
    const store = createFakeStore();
    expect(storePushTokenWithRecord(store, TOKEN, record)).toBe(true);
    expect(readStoredPushToken(store)).toBe(TOKEN);
    expect(readPushTokenRecord(store)).toEqual(record);
  });

  it.each([
    ['not JSON', '{uid:'],
    ['a record without a docId', JSON.stringify({ uid: 'u', syncedAt: 1 })],
    ['a negative time', JSON.stringify({ ...record, syncedAt: -1 })],
    ['a uid with odd characters', JSON.stringify({ ...record, uid: '../x' })],
    ['an array', '[]'],
  ])('is removed, and read as none, when it is %s', (_label, raw) => {
    const store = createFakeStore({ fcm_token_record: raw });
    expect(readPushTokenRecord(store)).toBeNull();
    expect(store.contents()).toEqual({});
  });

  it('keeps nothing half-written when storage refuses the record', () => {
    const store = createFakeStore();
    const original = store.setItem.bind(store);
    store.setItem = (key, value) => {
      if (key === 'fcm_token_record') throw new DOMException('full', 'QuotaExceededError');
      original(key, value);
    };
    expect(storePushTokenWithRecord(store, TOKEN, record)).toBe(false);
    expect(store.contents()).toEqual({});
  });

  it('is cleared with the token', () => {
    const store = createFakeStore();
    storePushTokenWithRecord(store, TOKEN, record);
    clearStoredPushToken(store);
    expect(store.contents()).toEqual({});
  });
});

describe('fcm_refresh_needed_after_sw_update', () => {
  it('is set, read and cleared; only the exact string true counts', () => {
    const store = createFakeStore();
    expect(isRefreshNeededAfterSwUpdate(store)).toBe(false);
    markRefreshNeededAfterSwUpdate(store);
    expect(store.contents()).toEqual({ fcm_refresh_needed_after_sw_update: 'true' });
    expect(isRefreshNeededAfterSwUpdate(store)).toBe(true);
    clearRefreshNeededAfterSwUpdate(store);
    expect(isRefreshNeededAfterSwUpdate(createFakeStore({ fcm_refresh_needed_after_sw_update: 'yes' }))).toBe(
      false,
    );
  });
});
