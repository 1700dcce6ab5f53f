// The local backend's push provider: the browser's own Push API on the app's service worker. The "token" is the
// subscription, base64url-encoded JSON, so it travels and is stored like an FCM token.
import { BackendError } from '../ports';
import type { PushProviderPort } from '../ports';
import { base64UrlToBytes } from './base64url';

export function encodeSubscription(subscription: { toJSON(): unknown }): string {
  const json = JSON.stringify(subscription.toJSON());
  const bytes = new TextEncoder().encode(json);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

let lastRegistration: ServiceWorkerRegistration | null = null;

export function createWebPushProvider(): PushProviderPort {
  return {
    async getToken({ vapidKey, serviceWorkerRegistration }) {
      if (!('pushManager' in serviceWorkerRegistration)) {
        throw new BackendError('FAILED_PRECONDITION', 'Push messaging is not supported in this browser');
      }
      lastRegistration = serviceWorkerRegistration;
      const existing = await serviceWorkerRegistration.pushManager.getSubscription();
      const subscription =
        existing ??
        (await serviceWorkerRegistration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: base64UrlToBytes(vapidKey),
        }));
      return encodeSubscription(subscription);
    },
    async deleteToken() {
      const registration = lastRegistration ?? (await navigator.serviceWorker?.getRegistration());
      const subscription = await registration?.pushManager.getSubscription();
      return subscription ? subscription.unsubscribe() : false;
    },
  };
}
