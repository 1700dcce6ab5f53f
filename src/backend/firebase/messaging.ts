// PushProviderPort on Firebase Cloud Messaging, always on the app's own service worker (/sw.js at scope /).
// The SDK registers a root firebase-messaging-sw.js of its own whenever it is asked for or to delete a token
// without a registration; QuPM has no such file, so this module never lets that happen.
import { BackendError } from '../ports';
import type { AdapterHost } from '../host';
import type { PushProviderPort } from '../ports';
import { windowRefusalOf } from '../pushRefusals';
import { PERMISSION_BLOCKED_MESSAGE, PUSH_UNSUPPORTED_MESSAGE, guarded } from './errors';
import type { FirebaseSdk } from './sdk';

const WORKER_NOT_READY = "QuPM's background worker is not ready yet. Reload the page and try again.";

function notificationPermission(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** `host` answers for the app's own registration (the one controlling this page's scope). */
export function createPushProvider(sdk: FirebaseSdk, host: AdapterHost): PushProviderPort {
  /** Whether the SDK already holds the app's registration (set by getToken in this page's life). */
  let bound = false;
  let lastVapidKey = sdk.config.vapidKey;

  return {
    permissionBlockedMessage: PERMISSION_BLOCKED_MESSAGE,

    // The public key is part of the build's config (README "Deploying to Firebase").
    async getPublicKey() {
      if (!sdk.config.vapidKey) throw new BackendError('FAILED_PRECONDITION', PUSH_UNSUPPORTED_MESSAGE);
      return sdk.config.vapidKey;
    },

    getToken: ({ vapidKey, serviceWorkerRegistration }) =>
      guarded(async () => {
        const { sdk: messagingSdk, messaging } = await sdk.messaging();
        // The SDK's isSupported() said no: the provider refuses this browser (spec §8: setup stops).
        if (!messaging) {
          throw new BackendError('FAILED_PRECONDITION', PUSH_UNSUPPORTED_MESSAGE, 'push-unsupported-browser');
        }
        // Without a registration the SDK would register its own worker at the site root.
        if (!serviceWorkerRegistration) throw new BackendError('FAILED_PRECONDITION', WORKER_NOT_READY);
        const key = vapidKey || sdk.config.vapidKey;
        // FCM subscribes with the browser's PushManager and lets its refusal through as it came.
        const token = await messagingSdk
          .getToken(messaging, { vapidKey: key, serviceWorkerRegistration })
          .catch((error: unknown) => {
            throw windowRefusalOf(error) ?? error;
          });
        bound = true;
        lastVapidKey = key;
        return token;
      }),

    deleteToken: () =>
      guarded(async () => {
        const { sdk: messagingSdk, messaging } = await sdk.messaging();
        // Where push is unsupported no token can exist: nothing to delete.
        if (!messaging) return false;
        if (!bound) {
          // First call in this page's life (after a reload): hand the SDK the app's registration through
          // getToken, which answers from its stored token, before deleting; never prompt for permission here.
          const registration = await host.serviceWorkerRegistration();
          const subscription = await registration?.pushManager.getSubscription();
          if (!registration || !subscription) return false;
          if (notificationPermission() !== 'granted') return subscription.unsubscribe();
          await messagingSdk.getToken(messaging, {
            vapidKey: lastVapidKey,
            serviceWorkerRegistration: registration,
          });
          bound = true;
        }
        return messagingSdk.deleteToken(messaging);
      }),
  };
}
