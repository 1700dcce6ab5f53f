// What push-saga tests (and the token benchmark) stand on: ports with in-memory token documents that count the
// backend reads and writes, a push provider, and the browser edge (permission, storage, visibility, clock).
// Everything is faked at the port or the browser edge, nothing deeper.
import { eventChannel } from 'redux-saga';
import type { EventChannel } from 'redux-saga';
import type { Backend } from '@/backend/ports';
import type { PushEnv, VisibilityEvent } from '@/platform/pushEnv';
import { MessagingBlockedError } from '@/platform/pushEnv';
import type { PermissionState } from '@/store/pushSlice';
import { createFakeBackend } from './fakeBackend';
import { MemoryTokenStore } from '../../drivers/memoryTokenStore';
import { MemoryStorage } from '../../drivers/memoryStorage';

export const TOKEN_A = 'token-A-' + 'a'.repeat(40);
export const TOKEN_B = 'token-B-' + 'b'.repeat(40);
export const PUBLIC_KEY = 'BPublicKeyOfTheServer_0123456789';
export const DEVICE_ID = '0b6c2d2e-1f7a-4b8e-9a51-3f0f6a0f9d11';
export const UID = 'uidAda00000000000001';
export const BLOCKED_MESSAGE = 'Registration failed - permission denied';

export type PushTestBackend = ReturnType<typeof createPushBackend>;

export function createPushBackend(now: () => number) {
  const store = new MemoryTokenStore(now);
  const backend = createFakeBackend();
  const port = store.port();
  backend.pushTokens.findActiveToken.mockImplementation(port.findActiveToken);
  backend.pushTokens.addToken.mockImplementation(port.addToken);
  backend.pushTokens.touchToken.mockImplementation(port.touchToken);
  backend.pushTokens.deleteToken.mockImplementation(port.deleteToken);
  backend.pushTokens.listMyTokens.mockImplementation(port.listMyTokens);
  backend.pushProvider.getPublicKey.mockImplementation(async () => PUBLIC_KEY);
  backend.pushProvider.getToken.mockImplementation(async () => TOKEN_A);
  backend.pushProvider.deleteToken.mockImplementation(async () => true);
  return { backend: backend as unknown as Backend, ports: backend, store };
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
