// The one shape of every callable (QUALITY.md "Backend"): the caller's session first (unauthenticated), then the
// payload against core/schemas.ts (invalid-argument, never internal), then the handler, whose QupmErrors become
// HttpsErrors with the same status, message and reason. Anything unexpected is logged and answered 'internal'
// with a plain message: no stack trace ever reaches a client.
import { HttpsError } from 'firebase-functions/v2/https';
import type { CallableRequest, FunctionsErrorCode } from 'firebase-functions/v2/https';
import { logger } from 'firebase-functions';
import type { z } from 'zod';
import { ERROR_WORDS, QupmError, SESSION_ENDED_MESSAGE } from '../../core/errors';
import { FORMER_MEMBER_ID } from '../../core/leaving';
import type { ErrorStatus } from '../../core/errors';
import type { Caller } from '../../core/permissions';
import { describeIssues } from '../../core/schemas';
import type { Deps } from './repository';

export const SIGN_IN_MESSAGE = ERROR_WORDS.signIn;
export const SOMETHING_WENT_WRONG = ERROR_WORDS.somethingWentWrong;

const CODES: Record<ErrorStatus, FunctionsErrorCode> = {
  INVALID_ARGUMENT: 'invalid-argument',
  UNAUTHENTICATED: 'unauthenticated',
  PERMISSION_DENIED: 'permission-denied',
  NOT_FOUND: 'not-found',
  FAILED_PRECONDITION: 'failed-precondition',
  ALREADY_EXISTS: 'already-exists',
  RESOURCE_EXHAUSTED: 'resource-exhausted',
  INTERNAL: 'internal',
};

/** The HttpsError a failure stands for; the client adapter reads `details.reason` (docs/decisions/server.md). */
export function toHttpsError(error: unknown): HttpsError {
  if (error instanceof HttpsError) return error;
  if (error instanceof QupmError) {
    return new HttpsError(
      CODES[error.status],
      error.message,
      error.reason ? { reason: error.reason } : undefined,
    );
  }
  logger.error('Unexpected failure in a callable', error);
  return new HttpsError('internal', SOMETHING_WENT_WRONG);
}

/**
 * The signed-in caller from the verified ID token (spec §6: admin from the isAdmin claim). The email binds
 * invitations only when the token says it is confirmed (email_verified): anyone can create a password account
 * under someone else's address.
 */
export function callerFrom(auth: CallableRequest['auth']): Caller {
  // The former member (core/leaving.ts) is no account: an ID token that names it (an Auth account an operator
  // created with that uid) is no session, or its export would gather every departed person's messages.
  if (!auth?.uid || auth.uid === FORMER_MEMBER_ID) throw new HttpsError('unauthenticated', SIGN_IN_MESSAGE);
  const email = typeof auth.token?.email === 'string' ? auth.token.email : '';
  return {
    uid: auth.uid,
    email,
    isAdmin: auth.token?.isAdmin === true,
    emailVerified: auth.token?.email_verified === true,
  };
}

/** `data` parsed by `schema`, or invalid-argument naming the first problem. */
export function parsePayload<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw new HttpsError('invalid-argument', describeIssues(result.error));
  return result.data;
}

export type Handler<S extends z.ZodType, R> = (deps: Deps, caller: Caller, data: z.output<S>) => Promise<R>;

/** Both backends' words for a session that was ended (core/errors.ts). */
export { SESSION_ENDED_MESSAGE };

const sessionEnded = (): HttpsError =>
  new HttpsError('unauthenticated', SESSION_ENDED_MESSAGE, { reason: 'session-expired' });

export interface GuardOptions {
  /**
   * Also ask Firebase Auth itself (verifyIdToken(token, true): one Auth lookup, about the price of a sign-in
   * check, so only where it matters): it knows of revocations revocations/{uid} may not have caught up with yet
   * (a password reset or change whose client never reported it), and of disabled accounts.
   */
  checkRevoked?: boolean;
}

/** An ID token's auth_time (seconds): when the session it belongs to began. */
function authTimeOf(auth: CallableRequest['auth']): number | null {
  const value: unknown = auth?.token?.auth_time;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * The caller's session still stands: it began no earlier than the last revocation of the account's sessions
 * (revocations/{uid}, as firestore.rules read it: one document read), and, with `checkRevoked`, Firebase Auth
 * agrees. A revocation only Auth knew of is recorded on the way, so the rules refuse that session from then on.
 */
export async function assertSessionStands(
  deps: Deps,
  auth: NonNullable<CallableRequest['auth']>,
  options: GuardOptions = {},
): Promise<void> {
  const authTime = authTimeOf(auth);
  const revokedBefore = await deps.repo.getRevokedBefore(auth.uid);
  if (revokedBefore !== null && (authTime === null || authTime < revokedBefore)) throw sessionEnded();
  if (options.checkRevoked !== true) return;
  const idToken = auth.rawToken;
  if (typeof idToken === 'string' && (await deps.accounts.sessionStands(idToken))) return;
  const revocation = await deps.accounts.revokedBefore({ uid: auth.uid });
  if (revocation) await deps.repo.recordRevocation(auth.uid, revocation.revokedBefore);
  throw sessionEnded();
}

/**
 * The request handler of one callable: the session (signed in, and not revoked since), validation, then
 * `handler`, with errors mapped.
 */
export function guarded<S extends z.ZodType, R>(
  deps: () => Deps,
  schema: S,
  handler: Handler<S, R>,
  options: GuardOptions = {},
): (request: Pick<CallableRequest, 'auth' | 'data'>) => Promise<R> {
  return async (request) => {
    const caller = callerFrom(request.auth);
    try {
      if (request.auth) await assertSessionStands(deps(), request.auth, options);
    } catch (error) {
      throw toHttpsError(error);
    }
    const data = parsePayload(schema, request.data);
    try {
      return await handler(deps(), caller, data);
    } catch (error) {
      throw toHttpsError(error);
    }
  };
}

export type PublicHandler<S extends z.ZodType, R> = (deps: Deps, data: z.output<S>) => Promise<R>;

/**
 * The request handler of a callable anyone may call, signed in or not (core/schemas.ts publicCallablePayloads):
 * validation, then `handler`, with errors mapped as for every other callable. It reads no caller at all.
 */
export function guardedPublic<S extends z.ZodType, R>(
  deps: () => Deps,
  schema: S,
  handler: PublicHandler<S, R>,
): (request: Pick<CallableRequest, 'data'>) => Promise<R> {
  return async (request) => {
    const data = parsePayload(schema, request.data);
    try {
      return await handler(deps(), data);
    } catch (error) {
      throw toHttpsError(error);
    }
  };
}

/** How recently the caller must have proven their password for a callable that ends their account. */
export const RECENT_SIGN_IN_SECONDS = 5 * 60;
export const RECENT_SIGN_IN_MESSAGE = 'Enter your password again to confirm it is you.';

/**
 * Wraps a callable's handler: the caller's ID token must come from a sign-in (or re-authentication) of the last
 * five minutes (`auth_time`, seconds), as Firebase's own sensitive operations ask (auth/requires-recent-login).
 */
export function recentSignIn<R>(
  handler: (request: Pick<CallableRequest, 'auth' | 'data'>) => Promise<R>,
  now: () => number = Date.now,
): (request: Pick<CallableRequest, 'auth' | 'data'>) => Promise<R> {
  return async (request) => {
    callerFrom(request.auth);
    const authTime = request.auth?.token?.auth_time;
    if (typeof authTime !== 'number' || now() / 1000 - authTime > RECENT_SIGN_IN_SECONDS) {
      throw new HttpsError('failed-precondition', RECENT_SIGN_IN_MESSAGE);
    }
    return handler(request);
  };
}
