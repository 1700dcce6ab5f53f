import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { channel } from 'redux-saga';
import { call, delay, fork, put, take } from 'redux-saga/effects';
import { deviceReleased, deviceReleaseRequested } from '@/store/pushSlice';
import { SIGN_OUT_RELEASE_TIMEOUT_MS } from '@/timings';
import { createVirtualTime } from '../support/virtualTime';
import { combineReducers } from '@reduxjs/toolkit';
import {
  authSaga,
  authUnavailableSaga,
  createAuthStateChannel,
  createUserDocChannel,
  handleAuthStateChanged,
  handleSignIn,
  handleSignOut,
  handleSignUp,
  releasePushBeforeSignOut,
  watchAuthState,
} from '@/sagas/authSaga';
import type { AuthChange } from '@/sagas/authSaga';
import { createRootSaga } from '@/app/rootSaga';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import user, { accountLoaded, fallbackUserState, signedIn } from '@/store/userSlice';
import auth, { signInRequested, signOutRequested, signUpRequested } from '@/store/authSlice';
import type { UserDoc } from '@core/model';
import { createFakeBackend } from '../support/fakeBackend';

const reducer = combineReducers({ user, auth });
type State = ReturnType<typeof reducer>;

const ada = { uid: 'u1', email: 'ada@example.com', displayName: 'Ada' };
const doc: UserDoc = {
  uid: 'u1',
  email: 'ada@example.com',
  isOwner: true,
  domainId: 'dom-1',
  nickname: 'Ada',
  notificationSettings: { enabled: true, delivery: { channels: ['push'] } },
  credits: 4,
  passCount: 1,
  effectiveConId: '',
};

function signedInRun(backend: Backend, providers: Parameters<ReturnType<typeof expectSaga>['provide']>[0]) {
  return expectSaga(handleAuthStateChanged, backend, { user: ada }).withReducer(reducer).provide(providers);
}

describe('handleAuthStateChanged', () => {
  const backend = createFakeBackend() as unknown as Backend;

  it('tells the sign-in form why when the session ended without this window asking (issue #15)', async () => {
    const signedInState = reducer(
      reducer(undefined, signedIn({ authUser: ada })),
      accountLoaded(fallbackUserState(ada)),
    );
    const { storeState } = await expectSaga(handleAuthStateChanged, backend, { user: null })
      .withReducer(reducer, signedInState)
      .run();
    expect((storeState as State).auth.sessionEnded).toBe(true);
    // Asked for here: no such sentence.
    const asked = await expectSaga(handleAuthStateChanged, backend, { user: null })
      .withReducer(reducer, reducer(signedInState, signOutRequested()))
      .run();
    expect((asked.storeState as State).auth.sessionEnded).toBeUndefined();
    // Nobody was signed in (a first visit): none either.
    const first = await expectSaga(handleAuthStateChanged, backend, { user: null })
      .withReducer(reducer)
      .run();
    expect((first.storeState as State).auth.sessionEnded).toBeUndefined();
  });

  it('clears the user state when signed out', async () => {
    const { storeState } = await expectSaga(handleAuthStateChanged, backend, { user: null })
      .withReducer(reducer)
      .run();
    expect((storeState as State).user).toMatchObject({ status: 'signedOut', authUser: null, credits: 0 });
  });

  it('loads the document and the claims of a signed-in consultant', async () => {
    const { storeState } = await signedInRun(backend, [
      [matchers.call.fn(backend.users.getUser), doc],
      [matchers.call.fn(backend.auth.getIdTokenClaims), { isAdmin: false }],
      [matchers.call.fn(createUserDocChannel), channel()],
    ]).silentRun(20);
    expect((storeState as State).user).toMatchObject({
      status: 'signedIn',
      authUser: ada,
      isConsultant: true,
      effectiveConId: 'u1',
      nickname: 'Ada',
      credits: 4,
      passCount: 1,
      domainId: 'dom-1',
      isAdmin: false,
    });
  });

  it('makes an admin from the isAdmin claim', async () => {
    const { storeState } = await signedInRun(backend, [
      [matchers.call.fn(backend.users.getUser), { ...doc, isOwner: false }],
      [matchers.call.fn(backend.auth.getIdTokenClaims), { isAdmin: true }],
      [matchers.call.fn(createUserDocChannel), channel()],
    ]).silentRun(20);
    expect((storeState as State).user).toMatchObject({ isAdmin: true, isConsultant: false });
  });

  it('logs a failed document read and still builds the state with defaults', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { storeState } = await signedInRun(backend, [
      [matchers.call.fn(backend.users.getUser), throwError(new BackendError('UNAVAILABLE', 'offline'))],
      [matchers.call.fn(backend.auth.getIdTokenClaims), { isAdmin: true }],
      [matchers.call.fn(createUserDocChannel), channel()],
    ]).silentRun(20);
    expect(log).toHaveBeenCalledWith('Failed to load the user document', expect.any(BackendError));
    expect((storeState as State).user).toMatchObject({
      status: 'signedIn',
      isConsultant: false,
      nickname: '',
      domainId: undefined,
      isAdmin: true,
      userDocExists: false,
      // Unread is not zero: the balances say "unknown".
      asOf: 0,
    });
  });

  it('gives the same defaults, without an error, when the document does not exist', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { storeState } = await signedInRun(backend, [
      [matchers.call.fn(backend.users.getUser), null],
      [matchers.call.fn(backend.auth.getIdTokenClaims), { isAdmin: false }],
      [matchers.call.fn(createUserDocChannel), channel()],
    ]).silentRun(20);
    expect(log).not.toHaveBeenCalled();
    expect((storeState as State).user).toMatchObject({
      isConsultant: false,
      nickname: '',
      domainId: undefined,
    });
    // No document is known: its zeros are the truth, not an unknown.
    expect((storeState as State).user.asOf).toBeUndefined();
  });

  it('sets the fallback non-admin, non-consultant state when the claims cannot be read', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { storeState } = await signedInRun(backend, [
      [matchers.call.fn(backend.users.getUser), doc],
      [matchers.call.fn(backend.auth.getIdTokenClaims), throwError(new Error('token unreadable'))],
      [matchers.call.fn(createUserDocChannel), channel()],
    ]).silentRun(20);
    expect(log).toHaveBeenCalledWith('Failed to build the user state', expect.any(Error));
    expect((storeState as State).user).toMatchObject({
      status: 'signedIn',
      authUser: ada,
      isAdmin: false,
      isConsultant: false,
      credits: 0,
      asOf: 0,
    });
  });

  it('follows live changes of the document (balances granted elsewhere)', async () => {
    const docs = channel<{ doc: UserDoc }>();
    const running = signedInRun(backend, [
      [matchers.call.fn(backend.users.getUser), doc],
      [matchers.call.fn(backend.auth.getIdTokenClaims), { isAdmin: false }],
      [matchers.call.fn(createUserDocChannel), docs],
    ]).silentRun(40);
    docs.put({ doc: { ...doc, credits: 9, passCount: 3 } });
    const { storeState } = await running;
    expect((storeState as State).user).toMatchObject({ credits: 9, passCount: 3 });
  });
});

describe('watchAuthState', () => {
  it('cancels the work of an older auth change when a newer one arrives', async () => {
    const backend = createFakeBackend() as unknown as Backend;
    const changes = channel<AuthChange>();
    let resolveSlowRead!: (doc: UserDoc) => void;
    const slowRead = new Promise<UserDoc>((resolve) => (resolveSlowRead = resolve));
    const running = expectSaga(watchAuthState, backend)
      .withReducer(reducer)
      .provide([
        [matchers.call.fn(createAuthStateChannel), changes],
        [matchers.call.fn(backend.users.getUser), slowRead],
      ])
      .silentRun(40);
    changes.put({ user: ada });
    changes.put({ user: null });
    resolveSlowRead(doc);
    const { storeState } = await running;
    expect((storeState as State).user).toMatchObject({ status: 'signedOut', authUser: null, credits: 0 });
  });
});

describe('sign-in, sign-up and sign-out requests', () => {
  const backend = createFakeBackend() as unknown as Backend;

  it('clears the pending request when sign-in succeeds', async () => {
    const { storeState } = await expectSaga(
      handleSignIn,
      backend,
      signInRequested({ email: 'a@b.co', password: 'x' }),
    )
      .withReducer(reducer, reducer(undefined, signInRequested({ email: 'a@b.co', password: 'x' })))
      .provide([[matchers.call.fn(backend.auth.signIn), ada]])
      .call([backend.auth, backend.auth.signIn], { email: 'a@b.co', password: 'x' })
      .run();
    expect((storeState as State).auth).toEqual({ pending: null, failure: null });
  });

  it('keeps the reason of a refused sign-in for the form', async () => {
    const refused = new BackendError('UNAUTHENTICATED', 'Wrong email or password', 'invalid-credentials');
    const { storeState } = await expectSaga(
      handleSignIn,
      backend,
      signInRequested({ email: 'a@b.co', password: 'x' }),
    )
      .withReducer(reducer)
      .provide([[matchers.call.fn(backend.auth.signIn), throwError(refused)]])
      .run();
    expect((storeState as State).auth.failure).toEqual({
      kind: 'signIn',
      status: 'UNAUTHENTICATED',
      message: 'Wrong email or password',
      reason: 'invalid-credentials',
    });
  });

  it('answers a sign-up with the address to check, and nobody signed in', async () => {
    const asked = { email: 'a@b.co', password: 'longenough', displayName: 'Ada' };
    const { storeState } = await expectSaga(handleSignUp, backend, signUpRequested(asked))
      .withReducer(reducer, reducer(undefined, signUpRequested(asked)))
      .provide([[matchers.call.fn(backend.auth.signUp), undefined]])
      .call([backend.auth, backend.auth.signUp], asked)
      .run();
    expect((storeState as State).auth).toEqual({ pending: null, failure: null, signUpSentTo: 'a@b.co' });
    expect((storeState as State).user.status).not.toBe('signedIn');
  });

  it('keeps the words of a refused sign-up for the form', async () => {
    const refused = new BackendError('RESOURCE_EXHAUSTED', 'Too many requests');
    const { storeState } = await expectSaga(
      handleSignUp,
      backend,
      signUpRequested({ email: 'a@b.co', password: 'longenough' }),
    )
      .withReducer(reducer)
      .provide([[matchers.call.fn(backend.auth.signUp), throwError(refused)]])
      .run();
    expect((storeState as State).auth).toEqual({
      pending: null,
      failure: { kind: 'signUp', status: 'RESOURCE_EXHAUSTED', message: 'Too many requests' },
    });
  });

  it('turns an unknown failure into a plain message, never an Error in the store', async () => {
    const { storeState } = await expectSaga(handleSignOut, backend)
      .withReducer(reducer)
      .provide([
        [matchers.call.fn(releasePushBeforeSignOut), undefined],
        [matchers.call.fn(backend.auth.signOut), throwError(new TypeError('boom'))],
      ])
      .run();
    expect((storeState as State).auth.failure).toEqual({
      kind: 'signOut',
      status: 'INTERNAL',
      message: 'Something went wrong. Please try again.',
    });
  });
});

describe('authSaga', () => {
  /** The app's root saga with auth, when the backend's chunk cannot be loaded. */
  const rootWithoutBackend = createRootSaga(
    {},
    {
      sagas: { auth: authSaga },
      unavailable: authUnavailableSaga,
      load: () => Promise.reject(new Error('ChunkLoadError')),
    },
  );

  it('signs out when the backend cannot be loaded', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { storeState } = await expectSaga(rootWithoutBackend).withReducer(reducer).run();
    expect((storeState as State).user.status).toBe('signedOut');
  });

  it('still answers a sign-in when the backend could not be loaded, so the form never waits forever', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { storeState } = await expectSaga(rootWithoutBackend)
      .withReducer(reducer)
      .dispatch(signInRequested({ email: 'a@b.co', password: 'x' }))
      .silentRun(30);
    expect((storeState as State).auth).toMatchObject({
      pending: null,
      failure: { kind: 'signIn', status: 'UNAVAILABLE' },
    });
  });

  it('routes the requests to the backend, one at a time', async () => {
    const backend = createFakeBackend() as unknown as Backend;
    let finishSignOut!: () => void;
    const signOut = jest.fn(() => new Promise<void>((resolve) => (finishSignOut = resolve)));
    (backend.auth as unknown as { signOut: typeof signOut }).signOut = signOut;
    const saga = expectSaga(authSaga, backend)
      .withReducer(reducer)
      .provide([
        [matchers.call.fn(createAuthStateChannel), channel()],
        [matchers.call.fn(releasePushBeforeSignOut), undefined],
      ]);
    const running = saga.silentRun(500);
    await new Promise((resolve) => setTimeout(resolve, 5));
    saga.dispatch(signOutRequested());
    saga.dispatch(signOutRequested()); // a second press while the first is running is ignored
    // The first sign-out reaches the backend (on a loaded machine, later than a fixed few milliseconds).
    for (let waited = 0; signOut.mock.calls.length === 0 && waited < 400; waited += 5)
      await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 5));
    finishSignOut();
    await running;
    expect(signOut).toHaveBeenCalledTimes(1);
  });
});

describe('handleSignOut and push', () => {
  const events: string[] = [];
  function* pushResponder(answerAfterMs: number | null) {
    yield take(deviceReleaseRequested.type);
    events.push('release requested');
    if (answerAfterMs === null) return;
    yield delay(answerAfterMs);
    events.push('released');
    yield put(deviceReleased());
  }
  function* signOutWithPush(backend: Backend, answerAfterMs: number | null) {
    yield fork(pushResponder, answerAfterMs);
    yield call(handleSignOut, backend);
  }

  beforeEach(() => events.splice(0));

  it("releases this device's push token before the session ends", async () => {
    const backend = createFakeBackend();
    backend.auth.signOut.mockImplementation(async () => void events.push('session ended'));
    const time = createVirtualTime();
    const pending = expectSaga(signOutWithPush, backend, 800)
      .withReducer(reducer)
      .provide([time.provider])
      .run();
    await time.advance(800);
    await pending;
    expect(events).toEqual(['release requested', 'released', 'session ended']);
  });

  it('ends the session anyway when the release does not answer within 11 s', async () => {
    const backend = createFakeBackend();
    backend.auth.signOut.mockImplementation(async () => void events.push('session ended'));
    const time = createVirtualTime();
    const pending = expectSaga(signOutWithPush, backend, null)
      .withReducer(reducer)
      .provide([time.provider])
      .run();
    await time.advance(SIGN_OUT_RELEASE_TIMEOUT_MS - 1);
    expect(events).toEqual(['release requested']);
    await time.advance(1);
    await pending;
    expect(events).toEqual(['release requested', 'session ended']);
  });
});
