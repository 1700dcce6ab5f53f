// The local backend's push provider: the browser's own Push API on the app's service worker. The "token" is the
// subscription, base64url-encoded JSON, so it travels and is stored like an FCM token. The public (VAPID) key
// is the embedded server's, read once from GET /api/push/config.
import { NO_HOST } from '../host';
import type { AdapterHost } from '../host';
import { BackendError } from '../ports';
import type { PushProviderPort } from '../ports';
import { windowRefusalOf } from '../pushRefusals';
import { base64UrlToBytes, bytesToBase64Url } from './base64url';

export function encodeSubscription(subscription: { toJSON(): unknown }): string {
  return bytesToBase64Url(new TextEncoder().encode(JSON.stringify(subscription.toJSON())));
}

/** Chromium's words when a subscribe is refused for a blocked permission (spec §8: shown as the provider says). */
export const WEB_PUSH_PERMISSION_BLOCKED = 'Registration failed - permission denied';

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a) return false;
  const left = new Uint8Array(a);
  return left.length === b.length && left.every((byte, i) => byte === b[i]);
}

let lastRegistration: ServiceWorkerRegistration | null = null;

export function createWebPushProvider(
  readPublicKey: () => Promise<string>,
  host: AdapterHost = NO_HOST,
): PushProviderPort {
  let publicKey: Promise<string> | null = null;
  return {
    permissionBlockedMessage: WEB_PUSH_PERMISSION_BLOCKED,

    getPublicKey() {
      // Read once a page; a failed read is forgotten so the next call asks again.
      publicKey ??= readPublicKey().catch((error: unknown) => {
        publicKey = null;
        throw error;
      });
      return publicKey;
    },

    async getToken({ vapidKey, serviceWorkerRegistration }) {
      if (!serviceWorkerRegistration || !('pushManager' in serviceWorkerRegistration)) {
        throw new BackendError('FAILED_PRECONDITION', 'Push messaging is not supported in this browser');
      }
      lastRegistration = serviceWorkerRegistration;
      const key = base64UrlToBytes(vapidKey);
      const { pushManager } = serviceWorkerRegistration;
      let subscription = await pushManager.getSubscription();
      // A subscription made with another server key (the server's data folder was reset) cannot receive this
      // server's pushes, and subscribing over it fails: replace it.
      if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
        await subscription.unsubscribe();
        subscription = null;
      }
      subscription ??= await pushManager
        .subscribe({ userVisibleOnly: true, applicationServerKey: key })
        .catch((error: unknown) => {
          throw windowRefusalOf(error) ?? error;
        });
      return encodeSubscription(subscription);
    },

    async deleteToken() {
      const registration = lastRegistration ?? (await host.serviceWorkerRegistration());
      const subscription = await registration?.pushManager.getSubscription();
      return subscription ? subscription.unsubscribe() : false;
    },
  };
}
