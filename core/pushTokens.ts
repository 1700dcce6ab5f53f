// Push-token rules shared by both backends (ARCHITECTURE.md: written once in core/): which documents a save keeps
// and replaces, when a token is stale, which push-service answers mean a token is gone, and, for the embedded
// backend, what a Web Push token must hold.
import { z } from 'zod';
import type { PushTokenDoc } from './model';

/** QUALITY.md: tokens unused for 30 days are pruned by the backend. */
export const TOKEN_UNUSED_PRUNE_AFTER_MS = 30 * 24 * 60 * 60 * 1000;

/** A stored token document as a save sees it: whose it is, and which token of which device it holds. */
export interface TokenDocKey {
  uid: string;
  id: string;
  token: string;
  deviceId: string;
}

/** What saving a device's token does: answer the document there is (`keep`), or make a new one; `remove` goes. */
export interface TokenSavePlan<T extends TokenDocKey> {
  keep: T | null;
  remove: T[];
}

/**
 * QUALITY.md "Push and tokens" and spec §4: one token document per (user, device), and a browser's token under one
 * account only, so a shared device never pushes the last person's messages. `related` is every stored document of
 * this user and device, and every one holding this token under any account. The same token for the same device is
 * the document there is (the first by id, should a bygone race have left two); everything else related is
 * replaced.
 * The backend runs this inside the transaction of the save (server/services/users.ts addToken,
 * functions/src/handlers/tokens.ts save_push_token): it alone owns the rule, and clients trust its answer.
 */
export function planTokenSave<T extends TokenDocKey>(
  uid: string,
  input: { token: string; deviceId: string },
  related: readonly T[],
): TokenSavePlan<T> {
  const unique = [...new Map(related.map((doc) => [`${doc.uid}/${doc.id}`, doc])).values()];
  const keep =
    unique
      .filter((doc) => doc.uid === uid && doc.token === input.token && doc.deviceId === input.deviceId)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0] ?? null;
  return { keep, remove: unique.filter((doc) => doc !== keep) };
}

/**
 * The document a save makes when planTokenSave keeps none: active, created and last used at the backend's `now`
 * (the daily prune never trusts a device's clock).
 */
export function newTokenDoc(
  id: string,
  input: Pick<PushTokenDoc, 'token' | 'deviceId' | 'platform' | 'userAgent'>,
  now: number,
): PushTokenDoc {
  return {
    id,
    token: input.token,
    deviceId: input.deviceId,
    createdAt: now,
    lastUsed: now,
    status: 'active',
    platform: input.platform,
    userAgent: input.userAgent,
  };
}

/** HTTP answers of a push service that mean the subscription is gone for good (RFC 8030 §7.3: 404 and 410). */
export function isGonePushStatus(status: number): boolean {
  return status === 404 || status === 410;
}

/**
 * Push services a Web Push subscription may point at: the ones browsers use (Chrome/Edge via FCM, Firefox,
 * Safari, Windows). The embedded server posts to the endpoint a client gives it, so anything else is refused
 * at registration: a token must never make the server call an arbitrary address.
 */
export const WEB_PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'push.services.mozilla.com',
  'push.apple.com',
  'notify.windows.com',
] as const;

export function isKnownPushService(url: URL): boolean {
  if (url.protocol !== 'https:') return false;
  const host = url.hostname.toLowerCase();
  return WEB_PUSH_SERVICE_HOSTS.some((known) => host === known || host.endsWith(`.${known}`));
}

const base64Url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/);

/** The JSON of a PushSubscription (PushSubscription.toJSON()). */
export const webPushSubscriptionSchema = z.object({
  endpoint: z.url().max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64Url.max(200), auth: base64Url.max(100) }),
});
export type WebPushSubscription = z.infer<typeof webPushSubscriptionSchema>;

function base64UrlDecode(value: string): string | null {
  try {
    const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/**
 * The subscription inside a local backend token (base64url of the subscription's JSON, see
 * src/backend/local/webPush.ts), or null when the token is not one.
 */
export function parseWebPushToken(token: string): WebPushSubscription | null {
  const json = base64UrlDecode(token);
  if (json === null) return null;
  try {
    const result = webPushSubscriptionSchema.safeParse(JSON.parse(json));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}
