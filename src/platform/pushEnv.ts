// The browser edge of push, in one object the push sagas receive: notification permission, the messaging
// service-worker registration, local storage, visibility and the clock. The app passes `browserPushEnv()`;
// tests and the benchmark pass stand-ins, so nothing deeper than this edge is ever faked.
import { eventChannel } from 'redux-saga';
import type { EventChannel } from 'redux-saga';
import { LIMITS } from '@core/limits';
import { browserPushSupport } from './capabilities';
import type { PermissionState, PushSupport } from './capabilities';
import { browserHostname, isPushEnabledForHost } from './environment';
import { browserLocalStorage } from './storage';
import type { KeyValueStore } from './storage';
import { createVisibilityChannel } from './browserEvents';
import { readyServiceWorkerRegistration } from './serviceWorker';
import type { VisibilityEvent } from './browserEvents';

/** spec §5: the error a messaging service-worker registration is rejected with where push is disabled. */
export const MESSAGING_SW_BLOCKED_MESSAGE =
  'Messaging service worker registration is blocked in development (push is off on localhost and IP hosts)';

export class MessagingBlockedError extends Error {
  constructor() {
    super(MESSAGING_SW_BLOCKED_MESSAGE);
    this.name = 'MessagingBlockedError';
  }
}

export type { VisibilityEvent };

export interface PushEnv {
  readonly support: PushSupport;
  /** spec §5 host gating, with the build's override flag applied. */
  readonly environmentEnabled: boolean;
  readonly storage: KeyValueStore | null;
  readonly userAgent: string;
  now(): number;
  readPermission(): PermissionState;
  /** Notification.requestPermission; only ever called from a user gesture (spec §4, iOS requires it). */
  requestPermission(): Promise<PermissionState>;
  /** Emits when the permission changes outside the app (site settings), where the browser reports it. */
  createPermissionChannel(): EventChannel<{ permission: PermissionState }>;
  /**
   * The app's own service-worker registration for messaging (never a root firebase-messaging-sw.js). Rejects
   * with MessagingBlockedError where push is disabled for the environment (spec §5).
   */
  messagingRegistration(): Promise<ServiceWorkerRegistration>;
  createVisibilityChannel(): EventChannel<VisibilityEvent>;
}

function toPermissionState(value: unknown): PermissionState {
  if (value === 'granted' || value === 'denied' || value === 'default') return value;
  // The Permissions API says 'prompt' for what Notification.permission calls 'default'.
  if (value === 'prompt') return 'default';
  return 'unsupported';
}

function readBrowserPermission(): PermissionState {
  try {
    return typeof Notification === 'undefined' ? 'unsupported' : toPermissionState(Notification.permission);
  } catch {
    return 'unsupported';
  }
}

/** The push edge of the running browser. `pushHostOverride` is the build's flag (spec §5, README). */
export function browserPushEnv(pushHostOverride: boolean = __PUSH_HOST_OVERRIDE__): PushEnv {
  const environmentEnabled = isPushEnabledForHost(browserHostname(), pushHostOverride);
  return {
    support: browserPushSupport(),
    environmentEnabled,
    storage: browserLocalStorage(),
    userAgent: (typeof navigator === 'undefined' ? '' : navigator.userAgent).slice(0, LIMITS.userAgentMax),
    now: () => Date.now(),
    readPermission: readBrowserPermission,
    async requestPermission() {
      if (typeof Notification === 'undefined') return 'unsupported';
      return toPermissionState(await Notification.requestPermission());
    },
    createPermissionChannel() {
      return eventChannel((emit) => {
        let status: PermissionStatus | null = null;
        let closed = false;
        const onChange = (): void => emit({ permission: readBrowserPermission() });
        navigator.permissions
          ?.query({ name: 'notifications' })
          .then((result) => {
            if (closed) return;
            status = result;
            result.addEventListener('change', onChange);
          })
          .catch(() => undefined); // Safari before 16 has no notifications permission query: visibility re-reads it.
        return () => {
          closed = true;
          status?.removeEventListener('change', onChange);
        };
      });
    },
    async messagingRegistration() {
      if (!environmentEnabled) throw new MessagingBlockedError();
      return readyServiceWorkerRegistration();
    },
    createVisibilityChannel,
  };
}
