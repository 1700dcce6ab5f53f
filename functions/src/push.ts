// The FCM message for one token: core/push.ts's content (the same both backends send) in FCM's shape. FCM data
// values must be strings; the link must be an absolute https URL of the app's own origin.
import type { MessagePush } from '../../core/push';
import type { FcmMessage, SendResult } from './repository';

/** A day: a chat notice older than that is not worth showing when a device comes back online. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

/**
 * Error codes with which FCM says a token will never work again (the browser unsubscribed, or the token was
 * never valid): such token documents are deleted. Other failures (quota, unavailable) are transient.
 */
export const DEAD_TOKEN_CODES: readonly string[] = [
  'messaging/registration-token-not-registered',
  'messaging/invalid-registration-token',
];

export function isDeadToken(result: SendResult | undefined): boolean {
  return result !== undefined && !result.success && DEAD_TOKEN_CODES.includes(result.errorCode ?? '');
}

/** An absolute link on `origin` for a path of the app; anything that is not a path of that origin is refused. */
export function linkOn(origin: string, path: string): string {
  const base = new URL(origin);
  // FCM accepts only HTTPS here (localhost too is dropped); the deploy's configuration check refuses the rest.
  if (base.protocol !== 'https:') throw new Error(`The app origin must be https: ${origin}`);
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`Not a path of the app: ${path}`);
  const url = new URL(path, base.origin);
  return url.toString();
}

export function toFcmMessage(push: MessagePush, token: string, origin: string): FcmMessage {
  return {
    token,
    notification: { title: push.notification.title, body: push.notification.body },
    data: {
      type: push.data.type,
      badge_count: String(push.data.badge_count),
      channelId: push.data.channelId,
    },
    webpush: {
      // High urgency: a chat message is wanted now, also on a phone saving battery.
      headers: { Urgency: 'high', TTL: String(PUSH_TTL_SECONDS) },
      fcmOptions: { link: linkOn(origin, push.path) },
    },
  };
}
