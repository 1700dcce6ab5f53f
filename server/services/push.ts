// Web Push from the embedded server (ARCHITECTURE.md: real pushes signed with VAPID keys the server generates once
// and keeps), and the token housekeeping QUALITY.md asks of every backend: tokens the push service answers as
// gone (404/410) and tokens unused for 30 days are pruned.
import type { Agent } from 'node:https';
import webpush from 'web-push';
import { QupmError } from '../../core/errors';
import type { PushTokenDoc } from '../../core/model';
import { isGonePushStatus, parseWebPushToken, TOKEN_UNUSED_PRUNE_AFTER_MS } from '../../core/pushTokens';
import type { Db } from '../db/database';
import { write } from '../db/database';
import type { Repos } from '../repo';
import type { ServiceContext } from '../context';

const VAPID_SETTING = 'vapid_keys';
/** The contact a push service may use about this sender (RFC 8292); a placeholder for a local install. */
export const DEFAULT_VAPID_SUBJECT = 'mailto:push@qupm.invalid';
/** A push service that does not answer within this is treated as a failed delivery (retried by the caller). */
export const PUSH_SEND_TIMEOUT_MS = 10_000;
/** How long a push service keeps an undelivered message for an offline device. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;
/** The stale-token prune runs at start and then this often. */
export const TOKEN_PRUNE_INTERVAL_MS = 6 * 60 * 60 * 1000;

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The server's VAPID key pair: generated on the first start, then the same for the database's lifetime. */
export function keepVapidKeys(db: Db, repos: Repos): VapidKeys {
  const stored = write(db, () =>
    repos.settings.keep(VAPID_SETTING, JSON.stringify(webpush.generateVAPIDKeys())),
  );
  const keys = JSON.parse(stored) as Partial<VapidKeys>;
  if (typeof keys.publicKey !== 'string' || typeof keys.privateKey !== 'string') {
    throw new Error('The stored VAPID keys are unreadable; restore the database or start a new data folder');
  }
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}

export interface PushSettings {
  vapid: VapidKeys;
  subject: string;
  /** Which push-service endpoints a registered token may point at (default: the browsers' push services). */
  allowEndpoint: (url: URL) => boolean;
  timeoutMs: number;
  /** An HTTPS agent for the push service (a proxy, or a test's local receiver). */
  agent?: Agent;
}

/**
 * Refuses a token this server could never deliver to: it must be a Web Push subscription whose endpoint is an
 * allowed push service (a token must not make the server post to an arbitrary address).
 */
export function assertDeliverableToken(push: PushSettings, token: string): void {
  const subscription = parseWebPushToken(token);
  if (subscription === null) {
    throw new QupmError('INVALID_ARGUMENT', 'token: not a push subscription of this browser');
  }
  if (!push.allowEndpoint(new URL(subscription.endpoint))) {
    throw new QupmError('INVALID_ARGUMENT', 'token: the push service of this subscription is not allowed');
  }
}

/** A VAPID JWT is signed for this long (RFC 8292 allows up to 24 h)… */
export const VAPID_TOKEN_TTL_SECONDS = 12 * 60 * 60;
/** …and reused until this close to its expiry. */
const VAPID_TOKEN_RENEW_BEFORE_SECONDS = 60 * 60;

// Signing a VAPID JWT (ES256) costs more than encrypting the push itself; one token per push service, reused
// for hours, is what RFC 8292 §2 intends. Kept per settings object (one per server), per audience (an origin).
const vapidTokens = new WeakMap<PushSettings, Map<string, { authorization: string; expiresAt: number }>>();

/** The `Authorization: vapid t=…, k=…` header for pushes to `endpoint`'s push service, signed at most hourly. */
export function vapidAuthorization(push: PushSettings, endpoint: string): string {
  const audience = new URL(endpoint).origin;
  const nowSeconds = Math.floor(Date.now() / 1000);
  let byAudience = vapidTokens.get(push);
  if (!byAudience) {
    byAudience = new Map();
    vapidTokens.set(push, byAudience);
  }
  const cached = byAudience.get(audience);
  if (cached && cached.expiresAt - nowSeconds > VAPID_TOKEN_RENEW_BEFORE_SECONDS) return cached.authorization;
  // The JWT's expiry is real time (push services check it), never a test's clock.
  const expiresAt = nowSeconds + VAPID_TOKEN_TTL_SECONDS;
  const { Authorization: authorization } = webpush.getVapidHeaders(
    audience,
    push.subject,
    push.vapid.publicKey,
    push.vapid.privateKey,
    'aes128gcm',
    expiresAt,
  );
  byAudience.set(audience, { authorization, expiresAt });
  return authorization;
}

export type PushOutcome = 'sent' | 'gone' | 'failed';

export interface PushContext extends ServiceContext {
  push: PushSettings;
}

/**
 * Sends one encrypted Web Push message to one token document. A 404/410 answer (or a token that is no longer a
 * deliverable subscription) deletes the document; other failures are 'failed' for the caller to retry.
 */
/** Per push: the Topic a push service collapses duplicates by (≤ 32 URL-safe characters) and its urgency. */
export interface SendOptions {
  topic?: string;
  urgency?: 'very-low' | 'low' | 'normal' | 'high';
}

export async function sendToToken(
  ctx: PushContext,
  uid: string,
  doc: PushTokenDoc,
  payload: unknown,
  options: SendOptions = {},
): Promise<PushOutcome> {
  const subscription = parseWebPushToken(doc.token);
  if (subscription === null || !ctx.push.allowEndpoint(new URL(subscription.endpoint))) {
    pruneToken(ctx, uid, doc.id);
    return 'gone';
  }
  try {
    await webpush.sendNotification(subscription, JSON.stringify(payload), {
      // VAPID signed here once for many pushes (vapidAuthorization), not by web-push on every call (web-push
      // adds no Authorization of its own without vapidDetails, and QuPM never sets its global ones).
      headers: { Authorization: vapidAuthorization(ctx.push, subscription.endpoint) },
      TTL: PUSH_TTL_SECONDS,
      timeout: ctx.push.timeoutMs,
      ...(ctx.push.agent ? { agent: ctx.push.agent } : {}),
      ...(options.topic ? { topic: options.topic } : {}),
      ...(options.urgency ? { urgency: options.urgency } : {}),
    });
    return 'sent';
  } catch (error) {
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && isGonePushStatus(status)) {
      pruneToken(ctx, uid, doc.id);
      return 'gone';
    }
    return 'failed';
  }
}

function pruneToken(ctx: ServiceContext, uid: string, id: string): void {
  write(ctx.db, () => ctx.repos.tokens.delete(uid, id));
}

/** Deletes every token document unused for 30 days; returns how many went. */
export function pruneStaleTokens(ctx: ServiceContext): number {
  const cutoff = ctx.now() - TOKEN_UNUSED_PRUNE_AFTER_MS;
  return write(ctx.db, () => ctx.repos.tokens.deleteUnusedSince(cutoff));
}
