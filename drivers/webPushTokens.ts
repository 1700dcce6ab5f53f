// Web Push subscriptions as the local backend's tokens (base64url of the subscription's JSON, see
// src/backend/local/webPush.ts), with real P-256 keys so a server can encrypt a push to them.
import { createECDH, randomBytes } from 'node:crypto';
import { decrypt } from 'http_ece';

export interface TestSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface SubscriptionToken {
  token: string;
  subscription: TestSubscription;
  /** The receiving side's private key, to decrypt what was pushed to it. */
  ecdh: ReturnType<typeof createECDH>;
  authSecret: Buffer;
}

/** A subscription at `https://fcm.googleapis.com/fcm/send/<name>` (or any endpoint), encoded as a token. */
export function subscriptionToken(
  name: string,
  endpoint = `https://fcm.googleapis.com/fcm/send/${name}`,
): SubscriptionToken {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  const subscription: TestSubscription = {
    endpoint,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
  };
  const token = Buffer.from(JSON.stringify({ ...subscription, expirationTime: null })).toString('base64url');
  return { token, subscription, ecdh, authSecret } satisfies SubscriptionToken;
}

/** Just the token of a named subscription (same name, same endpoint; the keys differ each call). */
export function pushToken(name: string): string {
  return subscriptionToken(name).token;
}

/** A token for each name. */
export function pushTokens<const T extends string>(names: readonly T[]): Record<T, string> {
  return Object.fromEntries(names.map((name) => [name, pushToken(name)])) as Record<T, string>;
}

/**
 * What a push service was handed for this subscription, decrypted as the browser would (RFC 8291: aes128gcm with
 * the subscription's private key and auth secret), parsed as JSON. Throws if it was not encrypted to it.
 */
export function decryptPush(subscription: SubscriptionToken, body: Buffer): unknown {
  const plain = decrypt(body, {
    version: 'aes128gcm',
    privateKey: subscription.ecdh,
    authSecret: subscription.authSecret.toString('base64url'),
  });
  return JSON.parse(plain.toString('utf8'));
}
