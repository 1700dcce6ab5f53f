// The device identifier that ties a push token document to this browser (spec §3, Push token document:
// deviceId). It must stay the same across visits, so it lives in local storage, and it must never be missing,
// so every failure falls back to an id that is at least unique for the page's lifetime.
import type { KeyValueStore } from './storage';
import { browserLocalStorage } from './storage';
import { LOCAL_STORAGE_KEYS } from './storageKeys';

// The 8-4-4-4-12 hex shape of RFC 4122. Version and variant nibbles are not checked on purpose: an id stored by
// an older build or another generator is still a good device id as long as it has the shape.
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const BASE36_DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';
const HEX_DIGITS = '0123456789abcdef';
// spec §3: the fallback is the current time plus a random string; 10 base-36 characters is ~51 bits.
const FALLBACK_RANDOM_LENGTH = 10;

export interface DeviceIdDeps {
  store: KeyValueStore | null;
  randomUUID: () => string;
  now: () => number;
  random: () => number;
}

/** Whether the value has the shape of an RFC 4122 UUID (any version, either case). */
export function isUuid(value: string): boolean {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

/** A digit index in [0, size) from a Math.random-like source, clamped so a misbehaving source cannot overflow. */
function randomIndex(random: () => number, size: number): number {
  const r = random();
  if (!Number.isFinite(r)) return 0;
  return Math.min(size - 1, Math.max(0, Math.floor(r * size)));
}

function randomString(random: () => number, alphabet: string, length: number): string {
  let result = '';
  for (let i = 0; i < length; i += 1) result += alphabet.charAt(randomIndex(random, alphabet.length));
  return result;
}

/** A version 4 UUID built from random(); used where crypto.randomUUID is missing (insecure contexts). */
function uuidFromRandom(random: () => number): string {
  const hex = randomString(random, HEX_DIGITS, 32).split('');
  hex[12] = '4'; // version 4
  hex[16] = HEX_DIGITS.charAt(8 + randomIndex(random, 4)); // variant 10xx: 8, 9, a or b
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

function newUuid({ randomUUID, random }: DeviceIdDeps): string {
  try {
    const id = randomUUID();
    // A polyfill that returns something else must not put a corrupt id in storage.
    if (isUuid(id)) return id;
  } catch {
    // crypto.randomUUID only exists in secure contexts; a plain-http page lands here.
  }
  return uuidFromRandom(random);
}

function fallbackDeviceId({ now, random }: DeviceIdDeps): string {
  // spec §3: if storage fails, a fallback is built from the current time plus a random string.
  return `${now()}-${randomString(random, BASE36_DIGITS, FALLBACK_RANDOM_LENGTH)}`;
}

function resolveDeviceId(deps: DeviceIdDeps): string {
  const { store } = deps;
  if (!store) return fallbackDeviceId(deps);
  // Not readString/writeString: a failed read must be told apart from "nothing stored", or a store that
  // cannot be read but can be written would get a new id written on every page load.
  try {
    const stored = store.getItem(LOCAL_STORAGE_KEYS.deviceId);
    if (typeof stored === 'string' && isUuid(stored)) return stored;
    // spec §3: a random UUID created on first use. A corrupt value ('null', '', whitespace, anything that is
    // not a UUID) is treated as no value, so it is replaced rather than sent to the backend.
    const created = newUuid(deps);
    store.setItem(LOCAL_STORAGE_KEYS.deviceId, created);
    return created;
  } catch {
    return fallbackDeviceId(deps);
  }
}

/**
 * A function returning this device's id. The id is worked out on the first call and then kept for the page's
 * lifetime, so a failing storage is not retried on every call and the fallback id stays the same.
 */
export function createDeviceIdSource(deps: DeviceIdDeps): () => string {
  let deviceId: string | null = null;
  return () => {
    if (deviceId === null) deviceId = resolveDeviceId(deps);
    return deviceId;
  };
}

let browserSource: (() => string) | null = null;

/**
 * The device id source over the page's localStorage, crypto.randomUUID, Date.now and Math.random. One source is
 * shared by every caller, so a fallback id (which is not stored) is still the same id everywhere in the page.
 */
export function browserDeviceIdSource(): () => string {
  if (browserSource === null) {
    browserSource = createDeviceIdSource({
      store: browserLocalStorage(),
      // Looked up at call time: globalThis.crypto or randomUUID may be missing, which newUuid catches.
      randomUUID: () => globalThis.crypto.randomUUID(),
      now: () => Date.now(),
      random: () => Math.random(),
    });
  }
  return browserSource;
}
