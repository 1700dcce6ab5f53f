// Every failure of the Firebase SDK becomes a BackendError here: a status of core/errors.ts (or UNAVAILABLE),
// words a person understands, and a finer reason when the client needs one. No FirebaseError leaves the adapter.
import { BackendError, UPLOAD_CANCELLED } from '../ports';
import { ATTACHMENT_ACCESS_MESSAGES } from '@core/attachments';
import type { ErrorReason, ErrorStatus } from '@core/errors';
import { FAILURE_WORDS } from '@core/failureWords';

export const OFFLINE_MESSAGE = FAILURE_WORDS.offline;
export const GENERIC_MESSAGE = FAILURE_WORDS.somethingWrong;
export const UNREADABLE_ANSWER_MESSAGE = FAILURE_WORDS.unreadableAnswer;
export const SIGN_IN_MESSAGE = FAILURE_WORDS.signIn;
export const PUSH_UNSUPPORTED_MESSAGE = 'Push messaging is not supported in this browser';

type Status = ErrorStatus | 'UNAVAILABLE';
interface Mapped {
  status: Status;
  message: string;
  reason?: ErrorReason;
}

const TOO_MANY: Mapped = { status: 'RESOURCE_EXHAUSTED', message: FAILURE_WORDS.tooManyAttempts };
const OFFLINE: Mapped = { status: 'UNAVAILABLE', message: OFFLINE_MESSAGE };
const INVALID_CREDENTIALS: Mapped = {
  status: 'UNAUTHENTICATED',
  message: "That email and password don't match.",
  reason: 'invalid-credentials',
};
const SESSION_EXPIRED: Mapped = {
  status: 'UNAUTHENTICATED',
  message: FAILURE_WORDS.sessionExpired,
  reason: 'session-expired',
};

const AUTH_CODES: Record<string, Mapped> = {
  'auth/invalid-credential': INVALID_CREDENTIALS,
  'auth/invalid-login-credentials': INVALID_CREDENTIALS,
  'auth/wrong-password': INVALID_CREDENTIALS,
  'auth/user-not-found': INVALID_CREDENTIALS,
  'auth/email-already-in-use': {
    status: 'ALREADY_EXISTS',
    message: 'An account with that email already exists. Sign in instead.',
    reason: 'email-taken',
  },
  'auth/too-many-requests': TOO_MANY,
  'auth/weak-password': {
    status: 'INVALID_ARGUMENT',
    message: 'That password is too weak. Choose a longer one.',
  },
  'auth/missing-password': { status: 'INVALID_ARGUMENT', message: 'Enter your password.' },
  'auth/invalid-email': { status: 'INVALID_ARGUMENT', message: "That email address doesn't look right." },
  'auth/missing-email': { status: 'INVALID_ARGUMENT', message: 'Enter your email address.' },
  'auth/network-request-failed': OFFLINE,
  // A mailed link (an action code) that was used, has expired, or never was one.
  'auth/invalid-action-code': {
    status: 'FAILED_PRECONDITION',
    message: 'This link is not valid or has already been used. Ask for a new one.',
  },
  'auth/expired-action-code': {
    status: 'FAILED_PRECONDITION',
    message: 'This link has expired. Ask for a new one.',
  },
  'auth/user-disabled': { status: 'PERMISSION_DENIED', message: 'This account has been disabled.' },
  'auth/user-token-expired': SESSION_EXPIRED,
  // Re-authentication proves the signed-in account's own password (leaving, email and password changes); the SDK
  // says user-mismatch when that account is no more (deleted from another device): the session is over.
  'auth/user-mismatch': SESSION_EXPIRED,
  'auth/invalid-user-token': SESSION_EXPIRED,
  'auth/requires-recent-login': SESSION_EXPIRED,
  'auth/operation-not-allowed': {
    status: 'FAILED_PRECONDITION',
    message: 'Signing in with email and password is not enabled for this QuPM.',
  },
};

/**
 * spec §8: a blocked permission shows the provider's message. FCM's own text for messaging/permission-blocked,
 * word for word (@firebase/messaging ERROR_MAP); the screens put the app's words on how to unblock beside it
 * (src/ui/pushWords.ts).
 */
export const PERMISSION_BLOCKED_MESSAGE = 'The notification permission was not granted and blocked instead.';

const MESSAGING_CODES: Record<string, Mapped> = {
  'messaging/permission-blocked': { status: 'PERMISSION_DENIED', message: PERMISSION_BLOCKED_MESSAGE },
  'messaging/permission-default': {
    status: 'PERMISSION_DENIED',
    message: 'Allow notifications to get push messages.',
  },
  'messaging/unsupported-browser': {
    status: 'FAILED_PRECONDITION',
    message: PUSH_UNSUPPORTED_MESSAGE,
    reason: 'push-unsupported-browser',
  },
  'messaging/indexed-db-unsupported': {
    status: 'FAILED_PRECONDITION',
    message: PUSH_UNSUPPORTED_MESSAGE,
    reason: 'push-indexed-db-unsupported',
  },
  'messaging/failed-service-worker-registration': {
    status: 'FAILED_PRECONDITION',
    message: "QuPM's background worker is not ready. Reload the page and try again.",
  },
  'messaging/invalid-sw-registration': {
    status: 'FAILED_PRECONDITION',
    message: "QuPM's background worker is not ready. Reload the page and try again.",
  },
};
const MESSAGING_FALLBACK: Mapped = {
  status: 'UNAVAILABLE',
  message: "Push messages can't be set up right now. Try again later.",
};

/** Cloud Storage (attachments): storage.rules refuse outsiders as 'unauthorized'. */
const STORAGE_CODES: Record<string, Mapped> = {
  'storage/unauthorized': { status: 'PERMISSION_DENIED', message: ATTACHMENT_ACCESS_MESSAGES.notMember },
  'storage/unauthenticated': { status: 'UNAUTHENTICATED', message: FAILURE_WORDS.signInAgain },
  'storage/object-not-found': { status: 'NOT_FOUND', message: ATTACHMENT_ACCESS_MESSAGES.noSuchFile },
  'storage/canceled': { status: 'UNAVAILABLE', message: UPLOAD_CANCELLED },
  'storage/retry-limit-exceeded': OFFLINE,
  'storage/quota-exceeded': {
    status: 'RESOURCE_EXHAUSTED',
    message: 'QuPM cannot store more files right now. Try again later.',
  },
};

/** The gRPC-style codes Firestore uses bare and Functions prefixes with 'functions/'. */
const SERVICE_CODES: Record<string, Mapped> = {
  'permission-denied': { status: 'PERMISSION_DENIED', message: "You don't have access to that." },
  'not-found': { status: 'NOT_FOUND', message: "That doesn't exist (any more)." },
  unauthenticated: { status: 'UNAUTHENTICATED', message: FAILURE_WORDS.signInAgain },
  'invalid-argument': { status: 'INVALID_ARGUMENT', message: "That request isn't valid." },
  'out-of-range': { status: 'INVALID_ARGUMENT', message: "That request isn't valid." },
  'failed-precondition': { status: 'FAILED_PRECONDITION', message: "That can't be done right now." },
  'already-exists': { status: 'ALREADY_EXISTS', message: 'That already exists.' },
  'resource-exhausted': {
    status: 'RESOURCE_EXHAUSTED',
    message: FAILURE_WORDS.tooManyRequests,
  },
  unavailable: OFFLINE,
  'deadline-exceeded': OFFLINE,
  cancelled: OFFLINE,
  aborted: { status: 'UNAVAILABLE', message: 'QuPM was busy. Please try again.' },
  internal: { status: 'INTERNAL', message: GENERIC_MESSAGE },
  unknown: { status: 'INTERNAL', message: GENERIC_MESSAGE },
  'data-loss': { status: 'INTERNAL', message: GENERIC_MESSAGE },
  unimplemented: { status: 'INTERNAL', message: GENERIC_MESSAGE },
};

/** The reasons a callable may put in its HttpsError details (`{ reason }`). */
const KNOWN_REASONS = [
  'invalid-credentials',
  'email-taken',
  'session-expired',
  'refresh-reused',
  'invitation-expired',
  'invitation-used',
  'invitation-not-yours',
  'invitation-not-accepted',
  'email-not-verified',
  'push-unsupported-browser',
  'push-indexed-db-unsupported',
  'push-refused-in-window',
  'wrong-password',
  'off-grid',
  'slot-in-past',
  'too-soon',
  'beyond-horizon',
  'outside-hours',
  'slot-taken',
  'service-archived',
  'not-your-consultant',
  'offer-not-yours',
  'offer-used',
  'offer-expired',
  'offer-other-service',
  'offer-with-pass',
  'price-changed',
  'insufficient-credits',
  'no-pass',
  'operation-reused',
  'booking-state',
  'channel-archived',
  'invitation-revoked',
  'storage-quota',
] as const satisfies readonly ErrorReason[];
// Fails to compile when core/errors.ts gains a reason this list does not know.
const everyReasonKnown: Exclude<ErrorReason, (typeof KNOWN_REASONS)[number]> extends never ? true : never =
  true;
void everyReasonKnown;

function isKnownReason(value: unknown): value is ErrorReason {
  return typeof value === 'string' && (KNOWN_REASONS as readonly string[]).includes(value);
}

function field(error: unknown, name: string): unknown {
  return typeof error === 'object' && error !== null ? (error as Record<string, unknown>)[name] : undefined;
}

/**
 * What firebase-functions itself answers before a function runs: an ID or App Check token it refused
 * ('Unauthenticated'), a request that is not a callable's ('Bad Request'). Its words, not a person's.
 */
const RUNTIME_REFUSALS: ReadonlySet<string> = new Set(['unauthenticated', 'bad request']);

/**
 * A callable's own HttpsError message is written for people (core/ rules); the SDK's stand-ins are not
 * ('not-found [404]', 'Backend error status: NOT_FOUND [404]'), nor are firebase-functions' own refusals, nor is
 * anything from an unexpected failure.
 */
function callableMessage(raw: unknown, code: string, status: Status): string | undefined {
  if (typeof raw !== 'string' || status === 'INTERNAL' || status === 'UNAVAILABLE') return undefined;
  const message = raw.replace(/\s*\[\d+\]$/, '').trim();
  const lower = message.toLowerCase();
  if (!message || lower === code || RUNTIME_REFUSALS.has(lower) || message.startsWith('Backend error status'))
    return undefined;
  return message.slice(0, 300);
}

function fromFunctions(error: unknown, code: string): Mapped {
  // The SDK reports a request that never got an answer (offline, CORS, DNS) as 'internal' with HTTP status 0.
  const message = field(error, 'message');
  if (code === 'internal' && typeof message === 'string' && /\[0\]$/.test(message)) return OFFLINE;
  const base = SERVICE_CODES[code] ?? { status: 'INTERNAL', message: GENERIC_MESSAGE };
  const reason = field(field(error, 'details'), 'reason');
  return {
    status: base.status,
    message: callableMessage(message, code, base.status) ?? base.message,
    ...(isKnownReason(reason) ? { reason } : {}),
  };
}

function map(error: unknown): Mapped {
  const code = field(error, 'code');
  const name = field(error, 'name');
  if (typeof code === 'string') {
    if (code.startsWith('auth/')) return AUTH_CODES[code] ?? { status: 'INTERNAL', message: GENERIC_MESSAGE };
    if (code.startsWith('functions/')) return fromFunctions(error, code.slice('functions/'.length));
    if (code.startsWith('messaging/')) return MESSAGING_CODES[code] ?? MESSAGING_FALLBACK;
    if (code.startsWith('storage/'))
      return STORAGE_CODES[code] ?? { status: 'INTERNAL', message: GENERIC_MESSAGE };
    const firestore = SERVICE_CODES[code.replace(/^firestore\//, '')];
    if (firestore) return firestore;
  }
  // A lazily loaded SDK chunk that could not be fetched (offline, or a deploy replaced it).
  if (name === 'ChunkLoadError') return OFFLINE;
  if (name === 'NotAllowedError')
    return MESSAGING_CODES['messaging/permission-blocked'] ?? MESSAGING_FALLBACK;
  return { status: 'INTERNAL', message: GENERIC_MESSAGE };
}

/** The BackendError an SDK failure stands for; a BackendError passes through unchanged. */
export function toBackendError(error: unknown): BackendError {
  if (error instanceof BackendError) return error;
  const { status, message, reason } = map(error);
  return new BackendError(status, message, reason);
}

/** Runs an SDK call and rethrows whatever it throws as a BackendError. */
export async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toBackendError(error);
  }
}
