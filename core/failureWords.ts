// What a person reads when a request to QuPM fails, by the failure's status and, where the words must differ, its
// reason: written once for the client's two adapters (the words of a failure that brings none a person should
// read: offline, a flood, a 5xx, an answer that cannot be read) and its screens and sagas (their words for a
// failure they have nothing more specific for). A screen with words of its own for one case keeps them. Plain
// strings, spelled here and named by core/errors.ts's ERROR_WORDS where the server says the same: the shell's
// sign-in form imports this module, and it imports nothing of errors.ts's (types aside) to keep the shell small.
import type { ErrorReason, ErrorStatus } from './errors';

/** core/errors.ts's statuses, and UNAVAILABLE: the backend could not be reached (the client's own). */
export type FailureStatus = ErrorStatus | 'UNAVAILABLE';

export const FAILURE_WORDS = {
  offline: "Can't reach QuPM right now. Check your connection and try again.",
  tooManyAttempts: 'Too many attempts. Wait a minute and try again.',
  tooManyRequests: 'Too many requests. Wait a minute and try again.',
  signIn: 'Please sign in.',
  signInAgain: 'Please sign in again.',
  sessionExpired: 'Your session has expired. Please sign in again.',
  invalidCredentials: "That email and password don't match. Check them and try again.",
  emailTaken: 'There is already an account with this email. Sign in instead.',
  /** A 5xx: reached, but failing. */
  serverTrouble: 'QuPM is having trouble. Try again in a moment.',
  unreadableAnswer: 'QuPM sent an answer it could not read.',
  somethingWrong: 'Something went wrong. Please try again.',
} as const;

const BY_REASON: Partial<Record<ErrorReason, string>> = {
  'invalid-credentials': FAILURE_WORDS.invalidCredentials,
  'email-taken': FAILURE_WORDS.emailTaken,
  'session-expired': FAILURE_WORDS.sessionExpired,
};

const BY_STATUS: Partial<Record<FailureStatus, string>> = {
  UNAVAILABLE: FAILURE_WORDS.offline,
  RESOURCE_EXHAUSTED: FAILURE_WORDS.tooManyAttempts,
  UNAUTHENTICATED: FAILURE_WORDS.signInAgain,
};

/** The words for a failure of this status and reason: the reason's, else the status's, else "Something went wrong". */
export function failureWords(status: FailureStatus, reason?: ErrorReason): string {
  return (
    (reason !== undefined ? BY_REASON[reason] : undefined) ??
    BY_STATUS[status] ??
    FAILURE_WORDS.somethingWrong
  );
}
