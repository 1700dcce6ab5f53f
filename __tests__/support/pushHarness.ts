// What push-saga tests (and the token benchmark) stand on: ports with in-memory token documents that count the
// backend reads and writes, a push provider, and the browser edge (permission, storage, visibility, clock).
// Everything is faked at the port or the browser edge, nothing deeper.
import { eventChannel } from 'redux-saga';
import type { EventChannel } from 'redux-saga';
import { BackendError } from '@/backend/ports';
import type { Backend, NewPushToken } from '@/backend/ports';
import type { PushEnv, VisibilityEvent } from '@/sagas/push/env';
import { MessagingBlockedError } from '@/sagas/push/env';
import type { PermissionState } from '@/store/pushSlice';
import type { PushTokenDoc } from '@core/model';
import { createFakeBackend } from './fakeBackend';

export const TOKEN_A = 'token-A-' + 'a'.repeat(40);
export const TOKEN_B = 'token-B-' + 'b'.repeat(40);
export const PUBLIC_KEY = 'BPublicKeyOfTheServer_0123456789';
export const DEVICE_ID = '0b6c2d2e-1f7a-4b8e-9a51-3f0f6a0f9d11';
export const UID = 'uidAda00000000000001';
export const BLOCKED_MESSAGE = 'Registration failed - permission denied';

/** A store of token documents behind the PushTokensPort, counting what a real backend would bill. */
export class TokenStore {
  readonly docs = new Map<string, PushTokenDoc & { uid: string }>();
  reads = 0;
  writes = 0;
  private nextId = 1;

  constructor(private readonly now: () => number) {}

  newId(): string {
    return `doc${String(this.nextId++).padStart(17, '0')}`;
  }

  /** The embedded server's rule: one document per (user, device); the same token again answers the same one. */
  add(uid: string, input: NewPushToken): PushTokenDoc {
    this.writes += 1;
    const same = [...this.docs.values()].find((d) => d.uid === uid && d.token === input.token);
    if (same && same.deviceId === input.deviceId) return strip(same);
    for (const [id, doc] of this.docs) {
      if (doc.uid === uid && (doc.deviceId === input.deviceId || doc.token === input.token))
        this.docs.delete(id);
    }
    const at = this.now();
    const doc = { ...input, id: this.newId(), status: 'active' as const, createdAt: at, lastUsed: at, uid };
    this.docs.set(doc.id, doc);
    return strip(doc);
  }

  of(uid: string): PushTokenDoc[] {
    return [...this.docs.values()].filter((d) => d.uid === uid).map(strip);
  }
}

function strip({ uid: _uid, ...doc }: PushTokenDoc & { uid: string }): PushTokenDoc {
  return doc;
}

const notFound = () => new BackendError('NOT_FOUND', "That device isn't registered (any more).");

export type PushTestBackend = ReturnType<typeof createPushBackend>;

export function createPushBackend(now: () => number) {
  const store = new TokenStore(now);
  const backend = createFakeBackend();
  backend.pushTokens.findActiveToken.mockImplementation(async (uid: string, token: string) => {
    store.reads += 1;
    return store.of(uid).find((d) => d.token === token) ?? null;
  });
  backend.pushTokens.addToken.mockImplementation(async (uid: string, input: NewPushToken) =>
    store.add(uid, input),
  );
  backend.pushTokens.touchToken.mockImplementation(async (uid: string, id: string) => {
    store.writes += 1;
    const doc = store.docs.get(id);
    if (!doc || doc.uid !== uid) throw notFound();
    doc.lastUsed = now();
    return strip(doc);
  });
  backend.pushTokens.deleteToken.mockImplementation(async (uid: string, id: string) => {
    store.writes += 1;
    const doc = store.docs.get(id);
    if (doc && doc.uid === uid) store.docs.delete(id);
  });
  backend.pushTokens.listMyTokens.mockImplementation(async (uid: string) => {
    store.reads += 1;
    return store.of(uid);
  });
  backend.pushProvider.getPublicKey.mockImplementation(async () => PUBLIC_KEY);
  backend.pushProvider.getToken.mockImplementation(async () => TOKEN_A);
  backend.pushProvider.deleteToken.mockImplementation(async () => true);
  return { backend: backend as unknown as Backend, ports: backend, store };
}

/** A Web Storage stand-in with the same string-only semantics. */
export class MemoryStorage {
  readonly data = new Map<string, string>();
  getItem(key: string): string | null {
    return this.data.has(key) ? (this.data.get(key) as string) : null;
  }
  setItem(key: string, value: string): void {
    this.data.set(key, String(value));
  }
  removeItem(key: string): void {
    this.data.delete(key);
  }
}

export interface FakePushEnv extends PushEnv {
  permission: PermissionState;
  readonly storage: MemoryStorage;
  /** Open visibility and permission channels (each closes on unsubscribe). */
  openChannels(): { visibility: number; permission: number };
  emitVisibility(visible: boolean): void;
  emitPermission(permission: PermissionState): void;
  requestPermissionAnswer: PermissionState;
  readonly registration: ServiceWorkerRegistration;
}

export function createFakePushEnv(
  now: () => number,
  options: { permission?: PermissionState; environmentEnabled?: boolean } = {},
): FakePushEnv {
  const visibility = new Set<(event: VisibilityEvent) => void>();
  const permissions = new Set<(event: { permission: PermissionState }) => void>();
  const storage = new MemoryStorage();
  const registration = { scope: 'http://qupm.test/' } as unknown as ServiceWorkerRegistration;
  const environmentEnabled = options.environmentEnabled ?? true;
  const env: FakePushEnv = {
    support: { supported: true, missing: [] },
    environmentEnabled,
    storage,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36',
    permission: options.permission ?? 'granted',
    requestPermissionAnswer: 'granted',
    registration,
    now,
    readPermission: () => env.permission,
    requestPermission: jest.fn(async () => {
      env.permission = env.requestPermissionAnswer;
      return env.permission;
    }),
    createPermissionChannel: (): EventChannel<{ permission: PermissionState }> =>
      eventChannel((emit) => {
        permissions.add(emit);
        return () => permissions.delete(emit);
      }),
    messagingRegistration: jest.fn(async () => {
      if (!environmentEnabled) throw new MessagingBlockedError();
      return registration;
    }),
    createVisibilityChannel: (): EventChannel<VisibilityEvent> =>
      eventChannel((emit) => {
        visibility.add(emit);
        return () => visibility.delete(emit);
      }),
    openChannels: () => ({ visibility: visibility.size, permission: permissions.size }),
    emitVisibility: (visible) => visibility.forEach((emit) => emit({ visible })),
    emitPermission: (permission) => {
      env.permission = permission;
      permissions.forEach((emit) => emit({ permission }));
    },
  };
  return env;
}
