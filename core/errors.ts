// The callable error codes of ARCHITECTURE.md ("Wire formats"), used by every endpoint of both backends, with
// the HTTP status Firebase's callable protocol gives each.
import { FAILURE_WORDS } from './failureWords';

export const ERROR_STATUSES = [
  'INVALID_ARGUMENT',
  'UNAUTHENTICATED',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'FAILED_PRECONDITION',
  'ALREADY_EXISTS',
  'RESOURCE_EXHAUSTED',
  'INTERNAL',
] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

export const HTTP_STATUS: Record<ErrorStatus, number> = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  FAILED_PRECONDITION: 400,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
};

/**
 * What an error answer carries, as Firebase's callable protocol has it: `{"error": {"status", "message",
 * "details"?: {"reason"}}}` (a Cloud Function's HttpsError puts its details there).
 */
export interface ErrorBody {
  error: { status: ErrorStatus; message: string; details?: { reason: ErrorReason } };
}

/**
 * Finer reasons a client needs to choose its words (wrong password vs. email taken); optional, stable strings.
 */
export type ErrorReason =
  | 'invalid-credentials'
  | 'email-taken'
  | 'session-expired'
  | 'refresh-reused'
  | 'invitation-expired'
  | 'invitation-used'
  | 'invitation-not-yours'
  | 'invitation-not-accepted'
  | 'email-not-verified'
  // A change of password whose current password is not right
  | 'wrong-password'
  // a file that does not fit what is left of its uploader's storage quota (core/attachments.ts)
  | 'storage-quota'
  // spec §8: the push provider refuses this browser itself (FCM's messaging/unsupported-browser and
  // messaging/indexed-db-unsupported): messaging setup stops.
  | 'push-unsupported-browser'
  | 'push-indexed-db-unsupported'
  // The consulting practice (core/availability.ts, core/bookings.ts, core/pricing.ts, core/operations.ts): why a
  // booking or a balance move was refused, so a screen can say what to do next.
  | 'off-grid'
  | 'slot-in-past'
  | 'too-soon'
  | 'beyond-horizon'
  | 'outside-hours'
  | 'slot-taken'
  | 'service-archived'
  | 'not-your-consultant'
  | 'offer-not-yours'
  | 'offer-used'
  | 'offer-expired'
  | 'offer-other-service'
  | 'offer-with-pass'
  | 'price-changed'
  | 'insufficient-credits'
  | 'no-pass'
  | 'operation-reused'
  | 'booking-state'
  | 'channel-archived'
  | 'invitation-revoked'
  // The browser refuses push subscriptions in this window (Chromium's private windows: an AbortError saying
  // "permission denied" while the permission is granted): no retry can change it (src/backend/pushRefusals.ts).
  | 'push-refused-in-window';

/** A domain error thrown by core/ and server/, turned into an ErrorBody at the edge. */
export class QupmError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly reason?: ErrorReason,
  ) {
    super(message);
    this.name = 'QupmError';
  }
}

/**
 * The words both backends answer with for what is not one domain's own (those are beside their rules:
 * INVITATION_MESSAGES, CHANNEL_MESSAGES, LEAVING_MESSAGES, …): the session, a missing document, the limits, a
 * request that is not one. One catalogue, so the embedded server and functions/ say the same thing.
 */
export const ERROR_WORDS = {
  signIn: 'Sign in to continue.',
  sessionEnded: 'Your session has ended. Sign in again.',
  accountGone: 'Your account no longer exists.',
  noSuchUser: 'There is no such user.',
  noSuchChannel: 'There is no such channel.',
  noSuchInvitation: 'There is no such invitation. Check the link you were sent.',
  noSuchFunction: 'There is no such function.',
  notYourDevices: 'You can only see and change the devices of your own account.',
  notYourNotifications: 'You can only clear your own notifications.',
  noSuchSession: 'That session has already ended, or it is not one of yours.',
  wrongCurrentPassword: 'Your current password is not right.',
  tooManyAttempts: FAILURE_WORDS.tooManyAttempts,
  tooManyRequests: FAILURE_WORDS.tooManyRequests,
  requestNotValid: 'The request is not valid.',
  somethingWentWrong: 'Something went wrong',
} as const;

/**
 * What both backends answer a request of a session that was ended (signed out everywhere, a password reset or
 * change, the account deleted): UNAUTHENTICATED with the reason 'session-expired', in these words.
 */
export const SESSION_ENDED_MESSAGE = ERROR_WORDS.sessionEnded;
