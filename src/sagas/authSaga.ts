// Auth state (spec §4): follows the backend's auth changes into the user slice, and runs the person's sign-in,
// sign-up and sign-out requests. Token monitoring (src/sagas/push) follows `user/*`; sign-out releases the token.
import { eventChannel } from 'redux-saga';
import type { EventChannel, Task } from 'redux-saga';
import {
  all,
  call,
  cancel,
  cancelled,
  delay,
  fork,
  put,
  race,
  select,
  take,
  takeEvery,
  takeLatest,
  takeLeading,
} from 'redux-saga/effects';
import type { AuthPort, Backend, UsersPort } from '@/backend/ports';
import type { AuthUser, IdTokenClaims, UserDoc } from '@core/model';
import {
  requestFailed,
  requestCompleted,
  selectAuthPending,
  signedOutUnasked,
  signInRequested,
  signOutRequested,
  signUpAnswered,
  signUpRequested,
} from '@/store/authSlice';
import type { AuthRequestKind } from '@/store/authSlice';
import {
  buildUserState,
  docChanged,
  fallbackUserState,
  accountLoaded,
  selectAuthStatus,
  signedIn,
  signedOut,
} from '@/store/userSlice';
import type { AuthStatus } from '@/store/userSlice';
import type { SignedInUserState } from '@/store/userSlice';
import { deviceReleased, deviceReleaseRequested } from '@/store/pushSlice';
import { liveResumed } from '@/store/liveSlice';
import { toFailure } from '@/backend/errors';
import { keepingChannel } from './session';
import { supervise } from './supervise';
import { SIGN_OUT_RELEASE_TIMEOUT_MS } from '@/timings';

export interface AuthChange {
  user: AuthUser | null;
}

export function createAuthStateChannel(auth: AuthPort): EventChannel<AuthChange> {
  // Channels cannot carry null, so the change is wrapped.
  return eventChannel((emit) => auth.onAuthStateChanged((user) => emit({ user })));
}

export function createUserDocChannel(users: UsersPort, uid: string): EventChannel<{ doc: UserDoc }> {
  return keepingChannel((emit) => users.subscribeUser(uid, (doc) => emit({ doc })));
}

/** Reads the user document; a failure is logged and read as "no document" (spec §4, §8). */
export function* readUserDoc(backend: Backend, uid: string) {
  try {
    const doc: UserDoc | null = yield call([backend.users, backend.users.getUser], uid);
    return doc;
  } catch (error) {
    console.error('Failed to load the user document', error);
    // Unread, not absent: nothing is known of the account (offline), which the page says.
    return undefined;
  }
}

/** Live data flows again after an interruption: the document is read again (a change may have been missed). */
export function* refreshUserDoc(backend: Backend, uid: string) {
  const doc: UserDoc | null = yield call(readUserDoc, backend, uid);
  if (doc) yield put(docChanged({ doc }));
}

export function* watchUserDoc(backend: Backend, uid: string) {
  yield takeLatest(liveResumed.type, refreshUserDoc, backend, uid);
  const channel: EventChannel<{ doc: UserDoc }> = yield call(createUserDocChannel, backend.users, uid);
  try {
    while (true) {
      const { doc }: { doc: UserDoc } = yield take(channel);
      yield put(docChanged({ doc }));
    }
  } finally {
    channel.close();
  }
}

export function* handleAuthStateChanged(backend: Backend, { user }: AuthChange) {
  if (user === null) {
    const before: AuthStatus = yield select(selectAuthStatus);
    const pending: AuthRequestKind | null = yield select(selectAuthPending);
    // spec §4: signed out clears the user state (and stops token monitoring, which listens for it).
    yield put(signedOut());
    // A session that ends without this window asking (signed out from another device or
    // window, a change of password) lands on the sign-in form with a sentence saying why.
    if ((before === 'signedIn' || before === 'loading') && pending !== 'signOut') {
      yield put(signedOutUnasked());
    }
    return;
  }
  yield put(signedIn({ authUser: user }));
  let state: SignedInUserState;
  try {
    const doc: UserDoc | null | undefined = yield call(readUserDoc, backend, user.uid);
    const claims: IdTokenClaims = yield call([backend.auth, backend.auth.getIdTokenClaims]);
    state = buildUserState(user, doc ?? null, claims);
    if (doc === undefined) state.asOf = 0;
  } catch (error) {
    // spec §4: reading the claims or building the state failed: a fallback non-admin, non-consultant state.
    console.error('Failed to build the user state', error);
    state = { ...fallbackUserState(user), asOf: 0 };
  }
  yield put(accountLoaded(state));
  // Live changes of the document until the next auth change cancels this worker (takeLatest).
  yield call(supervise, 'user', watchUserDoc, backend, user.uid);
}

export function* handleSignIn(backend: Backend, action: ReturnType<typeof signInRequested>) {
  try {
    yield call([backend.auth, backend.auth.signIn], action.payload);
    yield put(requestCompleted());
  } catch (error) {
    yield put(requestFailed({ kind: 'signIn', ...toFailure(error) }));
  }
}

export function* handleSignUp(backend: Backend, action: ReturnType<typeof signUpRequested>) {
  try {
    yield call([backend.auth, backend.auth.signUp], action.payload);
    // The same answer for a new and a taken address: "Check your inbox", and nobody signed in.
    yield put(signUpAnswered({ email: action.payload.email }));
  } catch (error) {
    yield put(requestFailed({ kind: 'signUp', ...toFailure(error) }));
  }
}

/**
 * QUALITY.md: this device's token document and provider token go before the session ends. The push saga does
 * the work; the wait is bounded so sign-out never hangs on it. The take is registered before the request is put.
 */
export function* releasePushBeforeSignOut() {
  yield all([
    race({ released: take(deviceReleased.type), timeout: delay(SIGN_OUT_RELEASE_TIMEOUT_MS) }),
    put(deviceReleaseRequested()),
  ]);
}

export function* handleSignOut(backend: Backend) {
  try {
    yield call(releasePushBeforeSignOut);
    yield call([backend.auth, backend.auth.signOut]);
    yield put(requestCompleted());
  } catch (error) {
    yield put(requestFailed({ kind: 'signOut', ...toFailure(error) }));
  } finally {
    if ((yield cancelled()) as boolean) yield put(requestCompleted());
  }
}

/** takeLatest over the auth channel: a newer change cancels the work (and live watch) of the older one. */
export function* watchAuthState(backend: Backend) {
  const channel: EventChannel<AuthChange> = yield call(createAuthStateChannel, backend.auth);
  let worker: Task | undefined;
  try {
    while (true) {
      const change: AuthChange = yield take(channel);
      if (worker) yield cancel(worker);
      worker = yield fork(handleAuthStateChanged, backend, change);
    }
  } finally {
    channel.close();
  }
}

const REQUEST_KINDS = {
  [signInRequested.type]: 'signIn',
  [signUpRequested.type]: 'signUp',
  [signOutRequested.type]: 'signOut',
} as const;

export function* answerUnavailable(action: { type: string }) {
  const kind = REQUEST_KINDS[action.type as keyof typeof REQUEST_KINDS] ?? 'signIn';
  yield put(
    requestFailed({ kind, status: 'UNAVAILABLE', message: "QuPM couldn't start. Reload to try again." }),
  );
}

/**
 * What runs instead of authSaga when the backend cannot be loaded (the root saga starts it): the person is
 * signed out, and every request still gets an answer, so no form waits forever.
 */
export function* authUnavailableSaga() {
  yield put(signedOut());
  yield takeEvery([signInRequested.type, signUpRequested.type, signOutRequested.type], answerUnavailable);
}

export function* authSaga(backend: Backend) {
  yield fork(watchAuthState, backend);
  yield takeLeading(signInRequested.type, handleSignIn, backend);
  yield takeLeading(signUpRequested.type, handleSignUp, backend);
  yield takeLeading(signOutRequested.type, handleSignOut, backend);
}
