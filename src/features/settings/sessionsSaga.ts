// Settings' sessions and password requests against the sessions port; it rides in the
// attention chunk, started by src/app/lazySagas.ts once a session starts.
import { call, fork, put, select, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects';
import type { Backend } from '@/backend/ports';
import { BackendError } from '@/backend/ports';
import { FAILURE_WORDS } from '@core/failureWords';
import { toFailure } from '@/backend/errors';
import type { SignedInSession } from '@core/model';
import { LIMITS } from '@core/limits';
import {
  otherSessionsSignOutFailed,
  otherSessionsSignOutRequested,
  otherSessionsSignedOut,
  passwordChangeFailed,
  passwordChangeRequested,
  passwordChanged,
  selectSessions,
  sessionSignOutFailed,
  sessionSignOutRequested,
  sessionSignedOut,
  sessionsLoadFailed,
  sessionsLoaded,
  sessionsRequested,
} from './sessionsSlice';
import type { SessionsState } from './sessionsSlice';

export const PASSWORD_MESSAGES = {
  wrongCurrent: 'Your current password is not right. Check it and try again.',
  tooMany: FAILURE_WORDS.tooManyAttempts,
  policy: `Choose a new password of ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters.`,
} as const;

/** Words for a failed change of password: the reason first, then the status, then the backend's own message. */
export function describePasswordFailure(error: unknown): string {
  const failure = toFailure(error);
  if (failure.reason === 'wrong-password') return PASSWORD_MESSAGES.wrongCurrent;
  if (failure.status === 'RESOURCE_EXHAUSTED') return PASSWORD_MESSAGES.tooMany;
  if (failure.status === 'INVALID_ARGUMENT') return PASSWORD_MESSAGES.policy;
  return failure.message;
}

export function* handleSessionsRequested(backend: Backend) {
  try {
    const items: SignedInSession[] = yield call([backend.sessions, backend.sessions.listSessions]);
    yield put(sessionsLoaded({ items, listsEverySession: backend.sessions.listsEverySession }));
  } catch (error) {
    yield put(sessionsLoadFailed({ message: toFailure(error).message }));
  }
}

export function* handleSessionSignOut(backend: Backend, action: ReturnType<typeof sessionSignOutRequested>) {
  const { id } = action.payload;
  try {
    yield call([backend.sessions, backend.sessions.signOutSession], id);
    yield put(sessionSignedOut({ id }));
  } catch (error) {
    // Ended already (from another window, or a moment ago): what the person wanted is done.
    if (error instanceof BackendError && error.status === 'NOT_FOUND') yield put(sessionSignedOut({ id }));
    else yield put(sessionSignOutFailed({ id, message: toFailure(error).message }));
  }
}

export function* handleOtherSessionsSignOut(backend: Backend) {
  try {
    yield call([backend.sessions, backend.sessions.signOutOtherSessions]);
    yield put(otherSessionsSignedOut());
  } catch (error) {
    yield put(otherSessionsSignOutFailed({ message: toFailure(error).message }));
  }
}

export function* handlePasswordChange(backend: Backend, action: ReturnType<typeof passwordChangeRequested>) {
  const { currentPassword, newPassword } = action.payload;
  try {
    yield call([backend.sessions, backend.sessions.changePassword], currentPassword, newPassword);
    yield put(passwordChanged());
    // The other sessions ended with the change: a list on screen is read again.
    const sessions: SessionsState = yield select(selectSessions);
    if (sessions.status === 'loaded') yield put(sessionsRequested());
  } catch (error) {
    yield put(passwordChangeFailed({ message: describePasswordFailure(error) }));
  }
}

export function* sessionsSaga(backend: Backend) {
  // Started with its chunk once a session starts (src/app/lazySagas.ts): what the screen asked for before
  // that is answered now, read from the state it left.
  const pending: SessionsState = yield select(selectSessions);
  if (pending.status === 'loading') yield fork(handleSessionsRequested, backend);
  for (const id of pending.ending) yield fork(handleSessionSignOut, backend, sessionSignOutRequested({ id }));
  if (pending.endingOthers) yield fork(handleOtherSessionsSignOut, backend);
  yield takeLatest(sessionsRequested.type, handleSessionsRequested, backend);
  yield takeEvery(sessionSignOutRequested.type, handleSessionSignOut, backend);
  yield takeLeading(otherSessionsSignOutRequested.type, handleOtherSessionsSignOut, backend);
  yield takeLeading(passwordChangeRequested.type, handlePasswordChange, backend);
}
