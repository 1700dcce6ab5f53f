// Rate limits (@fastify/rate-limit): auth by IP + email and by IP, callables and message sends by user. Each route
// names its class in core/wire.ts; server/api.ts counts it after the session check and the validation
// (ARCHITECTURE.md order: session first), so for auth the body's email can be part of the key.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { EMAIL_LINK_MESSAGES } from '../core/emailLinks';
import { ERROR_WORDS, QupmError } from '../core/errors';
import type { RateClass } from '../core/wire';
import { TYPING_SIGNALS_PER_MINUTE } from '../core/receipts';

export interface RateLimit {
  max: number;
  timeWindowMs: number;
}

export interface RateLimits {
  /** Sign-in and sign-up attempts per IP and email. */
  auth: RateLimit;
  /** Sign-in and sign-up attempts per IP, whatever the email (slows credential stuffing). */
  authPerIp: RateLimit;
  /** Refresh and sign-out per IP. */
  refresh: RateLimit;
  /** Callables per user. */
  callables: RateLimit;
  /** Message sends per user. */
  messages: RateLimit;
  /** File uploads per user (each up to 10 MB). */
  uploads: RateLimit;
  /** Typing signals per user (core/receipts.ts). */
  typing: RateLimit;
  /** Other authenticated requests (documents, tokens, invitations, stream tickets) per user. */
  documents: RateLimit;
  /** Invitation previews for signed-out visitors, per IP (ids are 20 random characters: this stops enumeration). */
  invitationPreview: RateLimit;
  /** Mailed links asked for (verification, password reset), per address: no one's inbox is flooded. */
  mailPerAddress: RateLimit;
  /** Mailed links asked for per IP, whatever the address. */
  mailPerIp: RateLimit;
}

const MINUTE = 60_000;
export const DEFAULT_RATE_LIMITS: RateLimits = {
  auth: { max: 10, timeWindowMs: MINUTE },
  authPerIp: { max: 100, timeWindowMs: MINUTE },
  refresh: { max: 60, timeWindowMs: MINUTE },
  callables: { max: 60, timeWindowMs: MINUTE },
  messages: { max: 60, timeWindowMs: MINUTE },
  uploads: { max: 20, timeWindowMs: MINUTE },
  documents: { max: 600, timeWindowMs: MINUTE },
  typing: { max: TYPING_SIGNALS_PER_MINUTE, timeWindowMs: MINUTE },
  invitationPreview: { max: 60, timeWindowMs: MINUTE },
  mailPerAddress: { max: 5, timeWindowMs: 15 * MINUTE },
  mailPerIp: { max: 20, timeWindowMs: 15 * MINUTE },
};

export const TOO_MANY_ATTEMPTS = ERROR_WORDS.tooManyAttempts;
export const TOO_MANY_REQUESTS = ERROR_WORDS.tooManyRequests;

/** RESOURCE_EXHAUSTED with the seconds until the window resets (sent as Retry-After). */
export class RateLimitedError extends QupmError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('RESOURCE_EXHAUSTED', message);
  }
}

/** Counts one request under `key`; RESOURCE_EXHAUSTED once the limit is passed. */
export type Guard = (request: FastifyRequest, key: string) => Promise<void>;
export type Guards = Record<keyof RateLimits, Guard>;

const noLimit: Guard = async () => {};

export async function createGuards(
  app: FastifyInstance,
  settings: Partial<RateLimits> | false | undefined,
): Promise<Guards> {
  if (settings === false) {
    return {
      auth: noLimit,
      authPerIp: noLimit,
      refresh: noLimit,
      callables: noLimit,
      messages: noLimit,
      uploads: noLimit,
      documents: noLimit,
      typing: noLimit,
      invitationPreview: noLimit,
      mailPerAddress: noLimit,
      mailPerIp: noLimit,
    };
  }
  const limits: RateLimits = { ...DEFAULT_RATE_LIMITS, ...settings };
  await app.register(rateLimit, { global: false });
  const keys = new WeakMap<FastifyRequest, string>();

  const guard = (name: keyof RateLimits, message: string): Guard => {
    const check = app.createRateLimit({
      max: limits[name].max,
      timeWindow: limits[name].timeWindowMs,
      keyGenerator: (request) => keys.get(request) ?? request.ip,
    });
    return async (request, key) => {
      keys.set(request, `${name}|${key}`);
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) {
        throw new RateLimitedError(message, result.ttlInSeconds);
      }
    };
  };

  return {
    auth: guard('auth', TOO_MANY_ATTEMPTS),
    authPerIp: guard('authPerIp', TOO_MANY_ATTEMPTS),
    refresh: guard('refresh', TOO_MANY_ATTEMPTS),
    callables: guard('callables', TOO_MANY_REQUESTS),
    messages: guard('messages', TOO_MANY_REQUESTS),
    uploads: guard('uploads', TOO_MANY_REQUESTS),
    documents: guard('documents', TOO_MANY_REQUESTS),
    typing: guard('typing', TOO_MANY_REQUESTS),
    invitationPreview: guard('invitationPreview', TOO_MANY_REQUESTS),
    mailPerAddress: guard('mailPerAddress', EMAIL_LINK_MESSAGES.tooManyMails),
    mailPerIp: guard('mailPerIp', EMAIL_LINK_MESSAGES.tooManyMails),
  };
}

/** What a rate class keys its counts by: the request's IP, the caller, and the body's address where it has one. */
export interface LimitedRequest {
  request: FastifyRequest;
  caller: { uid: string; email: string } | null;
  body: unknown;
}

const bodyField = (body: unknown, field: string): string => {
  const value = (body as Record<string, unknown> | null | undefined)?.[field];
  return typeof value === 'string' ? value : '';
};

/**
 * Counts a request against the limits of its route's rate class (core/wire.ts RateClass): after the session and
 * the validation, before ownership (server/README.md, order of checks). A class that needs a caller is only on
 * signed-in routes; one that needs an address reads the validated body's.
 */
export async function limitRequest(guards: Guards, rate: RateClass, input: LimitedRequest): Promise<void> {
  const { request, caller, body } = input;
  const { ip } = request;
  const uid = caller?.uid ?? ip;
  switch (rate) {
    case 'signIn':
      await guards.authPerIp(request, ip);
      return guards.auth(request, `${ip}|${bodyField(body, 'email')}`);
    case 'signUp':
      await guards.authPerIp(request, ip);
      await guards.auth(request, `${ip}|${bodyField(body, 'email')}`);
      await guards.mailPerIp(request, ip);
      return guards.mailPerAddress(request, bodyField(body, 'email'));
    case 'passwordCheck':
      // Like sign-in: a guessed current password costs the same attempts, per IP and per account.
      await guards.authPerIp(request, ip);
      return guards.auth(request, `${ip}|${caller?.email ?? ''}`);
    case 'emailChange':
      await guards.auth(request, `${ip}|${caller?.email ?? ''}`);
      await guards.mailPerIp(request, ip);
      return guards.mailPerAddress(request, bodyField(body, 'newEmail'));
    case 'accountDelete':
      // As sign-in's: 10 password attempts a minute per address and account.
      return guards.auth(request, `${ip}|delete-account|${uid}`);
    case 'linkUse':
      return guards.authPerIp(request, ip);
    case 'session':
      return guards.refresh(request, ip);
    case 'mailToCaller':
      await guards.mailPerIp(request, ip);
      return guards.mailPerAddress(request, caller?.email ?? '');
    case 'mailToAddress':
      await guards.mailPerIp(request, ip);
      return guards.mailPerAddress(request, bodyField(body, 'email'));
    case 'writes':
      return guards.callables(request, uid);
    case 'messages':
      return guards.messages(request, uid);
    case 'uploads':
      return guards.uploads(request, uid);
    case 'reads':
      return guards.documents(request, uid);
    case 'typing':
      return guards.typing(request, uid);
    case 'preview':
      return guards.invitationPreview(request, ip);
    case 'unsubscribe':
      return guards.authPerIp(request, `unsubscribe:${ip}`);
    case 'none':
      return;
  }
}
