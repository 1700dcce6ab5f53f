// The embedded backend's session on this device: tokens and the account summary, kept in local storage so a
// reload stays signed in and every tab shares one session. Refreshes are single-flight per tab and serialised
// across tabs with the Web Locks API, because the server rotates refresh tokens and treats a reused one as theft.
import { LOCAL_STORAGE_KEYS, browserLocalStorage, readString, removeKey, writeString } from '@/platform';
import type { KeyValueStore } from '@/platform';
import type { AuthUser } from '@core/model';
import type { SessionResponse } from '@core/wire';
import { base64UrlToBytes } from './base64url';

export interface StoredSession {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms at which the access token expires. */
  expiresAt: number;
  user: AuthUser;
}

/** Refresh this long before the access token really expires, so a request never carries a dying token. */
export const REFRESH_MARGIN_MS = 30_000;

const MAX_TOKEN_LENGTH = 4096;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isToken(value: unknown): value is string {
  return (
    typeof value === 'string' && value.length > 0 && value.length <= MAX_TOKEN_LENGTH && !/\s/.test(value)
  );
}

export function parseAuthUser(value: unknown): AuthUser | null {
  if (!isRecord(value)) return null;
  const { uid, email, displayName } = value;
  if (typeof uid !== 'string' || uid.length === 0 || uid.length > 128) return null;
  if (typeof email !== 'string' || email.length > 254) return null;
  if (displayName !== null && displayName !== undefined && typeof displayName !== 'string') return null;
  return { uid, email, displayName: typeof displayName === 'string' ? displayName : null };
}

/** A stored session, or null for anything missing, corrupt or of the wrong shape. */
export function parseStoredSession(raw: string | null): StoredSession | null {
  if (raw === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const user = parseAuthUser(value.user);
  const { accessToken, refreshToken, expiresAt } = value;
  if (!user || !isToken(accessToken) || !isToken(refreshToken)) return null;
  if (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt)) return null;
  return { accessToken, refreshToken, expiresAt, user };
}

export function sessionFromResponse(response: SessionResponse, now: number): StoredSession {
  return {
    accessToken: response.accessToken,
    refreshToken: response.refreshToken,
    expiresAt: now + response.expiresIn * 1000,
    user: response.user,
  };
}

export interface SessionStore {
  read(): StoredSession | null;
  write(session: StoredSession): void;
  clear(): void;
  /** Another tab signed in, refreshed or signed out. */
  onExternalChange(listener: () => void): () => void;
}

export function createSessionStore(store: KeyValueStore | null = browserLocalStorage()): SessionStore {
  const key = LOCAL_STORAGE_KEYS.localSession;
  return {
    read() {
      const raw = readString(store, key);
      const session = parseStoredSession(raw);
      // A corrupt value is removed so it cannot fail again on every start.
      if (raw !== null && session === null) removeKey(store, key);
      return session;
    },
    write(session) {
      writeString(store, key, JSON.stringify(session));
    },
    clear() {
      removeKey(store, key);
    },
    onExternalChange(listener) {
      if (typeof window === 'undefined') return () => undefined;
      const onStorage = (event: StorageEvent): void => {
        if (event.key === key || event.key === null) listener();
      };
      window.addEventListener('storage', onStorage);
      return () => window.removeEventListener('storage', onStorage);
    },
  };
}

/** Runs `task` while holding a lock shared by every tab of this origin (falls back to no lock). */
export function withCrossTabLock<T>(name: string, task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return task();
  return locks.request(name, task) as Promise<T>;
}

/** The claims of a JWT, read without checking its signature (the server checks it on every request). */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = new TextDecoder().decode(base64UrlToBytes(part));
    const value: unknown = JSON.parse(json);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}
