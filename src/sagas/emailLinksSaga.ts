// The links QuPM mails: each screen's request to the auth port, and its answer or failure
// (as plain words) back into src/store/emailLinksSlice.ts.
import { call, fork, put, select, take, takeLatest } from 'redux-saga/effects';
import type { UnknownAction } from '@reduxjs/toolkit';
import type { Backend, EmailVerificationState } from '@/backend/ports';
import { toFailure } from '@/backend/errors';
import { latestOf, leadingOf } from './lazySaga';
import { EMAIL_CHANGE_MESSAGES } from '@core/emailLinks';
import { FAILURE_WORDS } from '@core/failureWords';
import {
  emailChangeFailed,
  emailChangeMailed,
  emailChangeRequested,
  emailVerificationLoadFailed,
  emailVerificationLoaded,
  emailVerificationRequested,
  emailVerified,
  emailVerifyFailed,
  emailVerifyRequested,
  passwordResetConfirmFailed,
  passwordResetConfirmRequested,
  passwordResetConfirmed,
  passwordResetFailed,
  passwordResetMailed,
  passwordResetRequested,
  verificationMailFailed,
  verificationMailRequested,
  verificationMailed,
} from '@/store/emailLinksSlice';
import type { EmailChangeField } from '@/store/emailLinksSlice';
import { selectAuthStatus } from '@/store/userSlice';
import type { AuthStatus } from '@/store/userSlice';

const message = (error: unknown): string => toFailure(error).message;

/** What the change-of-email form says when it is refused: never a backend's own wording. */
export const EMAIL_CHANGE_FAILURES = {
  wrongPassword: 'That is not your current password. Check it and try again.',
  taken: 'Another account already uses this address. Choose a different one.',
  same: EMAIL_CHANGE_MESSAGES.same,
  invalid: 'Enter a valid email address, such as name@example.com.',
  // The longest of the limits that apply (server/rateLimits.ts: mail per address, 15 minutes).
  tooMany: 'Too many tries in a short time. Wait 15 minutes, then try again.',
  offline: FAILURE_WORDS.offline,
  signedOut: 'Your session has ended. Sign in again to change your email address.',
  other: 'Something went wrong, and your email address was not changed. Please try again.',
} as const;

/** Words for a refused change of email, and the field they are about: the reason first, then the status. */
export function describeEmailChangeFailure(error: unknown): {
  message: string;
  field: EmailChangeField | null;
} {
  const failure = toFailure(error);
  if (failure.reason === 'invalid-credentials' || failure.reason === 'wrong-password')
    return { message: EMAIL_CHANGE_FAILURES.wrongPassword, field: 'password' };
  if (failure.reason === 'email-taken') return { message: EMAIL_CHANGE_FAILURES.taken, field: 'newEmail' };
  switch (failure.status) {
    case 'PERMISSION_DENIED':
      return { message: EMAIL_CHANGE_FAILURES.wrongPassword, field: 'password' };
    case 'ALREADY_EXISTS':
      return { message: EMAIL_CHANGE_FAILURES.taken, field: 'newEmail' };
    case 'INVALID_ARGUMENT':
      // The server says so in these words when the address is the account's own (server/services/emailChange.ts).
      return failure.message === EMAIL_CHANGE_MESSAGES.same
        ? { message: EMAIL_CHANGE_FAILURES.same, field: 'newEmail' }
        : { message: EMAIL_CHANGE_FAILURES.invalid, field: 'newEmail' };
    case 'RESOURCE_EXHAUSTED':
      return { message: EMAIL_CHANGE_FAILURES.tooMany, field: null };
    case 'UNAVAILABLE':
      return { message: EMAIL_CHANGE_FAILURES.offline, field: null };
    case 'UNAUTHENTICATED':
      return { message: EMAIL_CHANGE_FAILURES.signedOut, field: null };
    default:
      return { message: EMAIL_CHANGE_FAILURES.other, field: null };
  }
}

export function* handleVerificationRequested(backend: Backend) {
  try {
    const state: EmailVerificationState = yield call([backend.auth, backend.auth.getEmailVerification]);
    yield put(emailVerificationLoaded({ email: state.email, verified: state.verified }));
  } catch (error) {
    yield put(emailVerificationLoadFailed({ message: message(error) }));
  }
}

export function* handleVerificationMail(backend: Backend) {
  try {
    yield call([backend.auth, backend.auth.sendEmailVerification]);
    // Asked again after sending: the address may have been confirmed meanwhile (then nothing was sent).
    const state: EmailVerificationState = yield call([backend.auth, backend.auth.getEmailVerification]);
    yield put(verificationMailed({ verified: state.verified }));
  } catch (error) {
    yield put(verificationMailFailed({ message: message(error) }));
  }
}

export function* handleVerify(backend: Backend, action: ReturnType<typeof emailVerifyRequested>) {
  try {
    yield call([backend.auth, backend.auth.verifyEmail], action.payload.token);
    yield put(emailVerified());
    // Signed in on this device: settings shows the new state.
    const status: AuthStatus = yield select(selectAuthStatus);
    if (status === 'signedIn') yield put(emailVerificationRequested());
  } catch (error) {
    yield put(emailVerifyFailed({ message: message(error) }));
  }
}

export function* handleResetRequested(backend: Backend, action: ReturnType<typeof passwordResetRequested>) {
  try {
    yield call([backend.auth, backend.auth.requestPasswordReset], action.payload.email);
    yield put(passwordResetMailed());
  } catch (error) {
    yield put(passwordResetFailed({ message: message(error) }));
  }
}

export function* handleResetConfirm(
  backend: Backend,
  action: ReturnType<typeof passwordResetConfirmRequested>,
) {
  try {
    yield call(
      [backend.auth, backend.auth.confirmPasswordReset],
      action.payload.token,
      action.payload.password,
    );
    yield put(passwordResetConfirmed());
  } catch (error) {
    yield put(passwordResetConfirmFailed({ message: message(error) }));
  }
}

export function* handleEmailChange(backend: Backend, action: ReturnType<typeof emailChangeRequested>) {
  const { currentPassword, newEmail } = action.payload;
  try {
    yield call([backend.auth, backend.auth.changeEmail], currentPassword, newEmail);
    yield put(emailChangeMailed({ newEmail }));
  } catch (error) {
    yield put(emailChangeFailed(describeEmailChangeFailure(error)));
  }
}

const HANDLERS = [
  [emailVerificationRequested, handleVerificationRequested],
  [verificationMailRequested, handleVerificationMail],
  [emailVerifyRequested, handleVerify],
  [passwordResetRequested, handleResetRequested],
  [passwordResetConfirmRequested, handleResetConfirm],
] as const;

/**
 * One change of email at a time (takeLeading, with the requests that came while the chunk loaded counted first):
 * a second press while one is on its way mails nothing more.
 */
export function* watchEmailChange(backend: Backend, early: readonly UnknownAction[] = []) {
  const first = leadingOf(early, emailChangeRequested);
  if (first) yield call(handleEmailChange, backend, first);
  while (true) {
    const action: ReturnType<typeof emailChangeRequested> = yield take(emailChangeRequested.type);
    yield call(handleEmailChange, backend, action);
  }
}

/**
 * Handles each request; `early`: the requests that came while this chunk loaded (src/app/lazySagas.ts), the one
 * that loaded it first, handled as the watchers (takeLatest) would have before the next ones are awaited.
 */
export function* emailLinksSaga(backend: Backend, early: readonly UnknownAction[] = []) {
  for (const [creator, handle] of HANDLERS) {
    const latest = latestOf<UnknownAction>(early, creator);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    if (latest) yield fork(handle as any, backend, latest);
  }
  yield takeLatest(emailVerificationRequested.type, handleVerificationRequested, backend);
  yield takeLatest(verificationMailRequested.type, handleVerificationMail, backend);
  yield takeLatest(emailVerifyRequested.type, handleVerify, backend);
  yield takeLatest(passwordResetRequested.type, handleResetRequested, backend);
  yield takeLatest(passwordResetConfirmRequested.type, handleResetConfirm, backend);
  yield fork(watchEmailChange, backend, early);
}
