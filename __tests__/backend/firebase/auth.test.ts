import { createFirebaseBackend } from '@/backend/firebase';
import { USER_DOCUMENT_WAIT_MS } from '@/timings';
import { CONFIG, FakeFirebaseError, docSnapshot, fakeUser, flushPromises, resetSdkFakes } from './sdkFakes';
import type * as Fakes from './sdkFakes';
import type { AppFake, AuthFake, FakeDocSnapshot, FakeUser, FirestoreFake } from './sdkFakes';

jest.mock('firebase/app', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAppModule());
jest.mock('firebase/auth', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAuthModule());
jest.mock('firebase/firestore', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFirestoreModule());
jest.mock('firebase/functions', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFunctionsModule());
jest.mock('firebase/messaging', () => jest.requireActual<typeof Fakes>('./sdkFakes').createMessagingModule());

const app = jest.requireMock<AppFake>('firebase/app');
const auth = jest.requireMock<AuthFake>('firebase/auth');
const fs = jest.requireMock<FirestoreFake>('firebase/firestore');

/** users/{uid} as on_user_created wrote it: at once unless `later`, with or without a name. */
function userDocument(data: Record<string, unknown> | undefined): void {
  fs.onSnapshot.mockImplementation((...args: unknown[]) => {
    const next = args[1] as (snapshot: FakeDocSnapshot) => void;
    queueMicrotask(() => next(docSnapshot('u1', data)));
    return jest.fn();
  });
}

beforeEach(() => {
  resetSdkFakes();
  userDocument({ email: 'ann@example.com', displayName: 'Ann' });
});

function signedInAs(user: FakeUser): void {
  auth.instance.currentUser = user;
}

describe('Firebase initialisation', () => {
  it('initialises the app with the web config only (the VAPID key and region are not app options)', () => {
    createFirebaseBackend(CONFIG).auth.currentUser();
    expect(app.initializeApp).toHaveBeenCalledWith({
      apiKey: 'api-key',
      authDomain: 'qupm-test.firebaseapp.com',
      projectId: 'qupm-test',
      appId: '1:123:web:abc',
      messagingSenderId: '123',
    });
  });

  it('passes the storage bucket when one is configured', () => {
    createFirebaseBackend({ ...CONFIG, storageBucket: 'qupm-test.appspot.com' }).auth.currentUser();
    expect(app.initializeApp.mock.calls[0]?.[0]).toMatchObject({ storageBucket: 'qupm-test.appspot.com' });
  });

  it('initialises auth with IndexedDB then localStorage persistence and without the popup/redirect resolver', () => {
    createFirebaseBackend(CONFIG).auth.currentUser();
    expect(auth.initializeAuth).toHaveBeenCalledTimes(1);
    const [firebaseApp, deps] = auth.initializeAuth.mock.calls[0] ?? [];
    expect(firebaseApp).toBe(app.initializeApp.mock.results[0]?.value);
    expect(deps).toStrictEqual({
      persistence: [auth.indexedDBLocalPersistence, auth.browserLocalPersistence],
    });
  });

  it('initialises the app and auth once, however many calls the ports make', async () => {
    const backend = createFirebaseBackend(CONFIG);
    auth.signInWithEmailAndPassword.mockResolvedValue({ user: fakeUser() });
    backend.auth.currentUser();
    await backend.auth.signIn({ email: 'ann@example.com', password: 'secret-password' });
    backend.auth.onAuthStateChanged(() => undefined);
    expect(app.initializeApp).toHaveBeenCalledTimes(1);
    expect(auth.initializeAuth).toHaveBeenCalledTimes(1);
  });

  it('does not touch the SDK until a port is used', () => {
    createFirebaseBackend(CONFIG);
    expect(app.initializeApp).not.toHaveBeenCalled();
    expect(auth.initializeAuth).not.toHaveBeenCalled();
  });

  it('says it is the firebase backend', () => {
    expect(createFirebaseBackend(CONFIG).kind).toBe('firebase');
  });
});

describe('auth.signUp', () => {
  /** The Auth object of the detached app the sign-up ran in (one per sign-up). */
  const detachedAuth = () => {
    expect(auth.others).toHaveLength(1);
    return auth.others[0]!;
  };

  it('creates the account in a detached app, names it, mails the confirmation link, and signs nobody in', async () => {
    const user = fakeUser({ displayName: null });
    auth.createUserWithEmailAndPassword.mockResolvedValue({ user });
    const result = await createFirebaseBackend(CONFIG).auth.signUp({
      email: ' ann@example.com ',
      password: 'long-enough',
      displayName: ' Ann ',
    });
    expect(result).toBeUndefined();
    const created = detachedAuth();
    expect(created.appName).not.toBe('[DEFAULT]');
    // Its session in memory only: nothing of it outlives the sign-up.
    expect(auth.initializeAuth).toHaveBeenCalledWith(expect.objectContaining({ name: created.appName }), {
      persistence: auth.inMemoryPersistence,
    });
    expect(auth.createUserWithEmailAndPassword).toHaveBeenCalledWith(
      created,
      'ann@example.com',
      'long-enough',
    );
    expect(auth.updateProfile).toHaveBeenCalledWith(user, { displayName: 'Ann' });
    // The confirmation link: an email-bound invitation is theirs once the email is confirmed.
    expect(auth.sendEmailVerification).toHaveBeenCalledWith(user);
    // Signed out there, the app deleted, and this page's own session never touched.
    expect(auth.signOut).toHaveBeenCalledWith(created);
    expect(auth.signOut).not.toHaveBeenCalledWith(auth.instance);
    expect(app.deleteApp).toHaveBeenCalledWith(expect.objectContaining({ name: created.appName }));
    expect(auth.instance.currentUser).toBeNull();
  });

  it('answers a taken address as a new one, and mails its owner a link to choose a new password', async () => {
    auth.createUserWithEmailAndPassword.mockRejectedValue(new FakeFirebaseError('auth/email-already-in-use'));
    await expect(
      createFirebaseBackend(CONFIG).auth.signUp({ email: 'ann@example.com', password: 'long-enough' }),
    ).resolves.toBeUndefined();
    expect(auth.sendPasswordResetEmail).toHaveBeenCalledWith(detachedAuth(), 'ann@example.com');
    expect(auth.sendEmailVerification).not.toHaveBeenCalled();
    expect(app.deleteApp).toHaveBeenCalledTimes(1);
  });

  it('answers a taken address as a new one even when the owner cannot be mailed', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    auth.createUserWithEmailAndPassword.mockRejectedValue(new FakeFirebaseError('auth/email-already-in-use'));
    auth.sendPasswordResetEmail.mockRejectedValue(new FakeFirebaseError('auth/too-many-requests'));
    await expect(
      createFirebaseBackend(CONFIG).auth.signUp({ email: 'ann@example.com', password: 'long-enough' }),
    ).resolves.toBeUndefined();
  });

  it('names the users document when the trigger wrote it before the name was saved on the account', async () => {
    auth.createUserWithEmailAndPassword.mockResolvedValue({ user: fakeUser({ displayName: null }) });
    userDocument({ email: 'ann@example.com' });
    await createFirebaseBackend(CONFIG).auth.signUp({
      email: 'ann@example.com',
      password: 'long-enough',
      displayName: 'Ann',
    });
    expect(fs.updateDoc).toHaveBeenCalledWith(expect.objectContaining({ path: 'users/u1' }), {
      displayName: 'Ann',
    });
    // In the detached app, signed in as the new account, before it signs out; its cache in memory only.
    expect(fs.initializeFirestore).toHaveBeenCalledWith(
      expect.objectContaining({ name: detachedAuth().appName }),
      {},
    );
  });

  it('leaves the users document alone when the trigger read the name already', async () => {
    auth.createUserWithEmailAndPassword.mockResolvedValue({ user: fakeUser({ displayName: null }) });
    await createFirebaseBackend(CONFIG).auth.signUp({
      email: 'ann@example.com',
      password: 'long-enough',
      displayName: 'Ann',
    });
    expect(fs.doc).toHaveBeenCalledWith(fs.db, 'users', 'u1');
    expect(fs.updateDoc).not.toHaveBeenCalled();
  });

  it('waits for the users document, and names it when it comes', async () => {
    auth.createUserWithEmailAndPassword.mockResolvedValue({ user: fakeUser({ displayName: null }) });
    let next: ((snapshot: FakeDocSnapshot) => void) | null = null;
    const stop = jest.fn();
    fs.onSnapshot.mockImplementation((...args: unknown[]) => {
      next = args[1] as (snapshot: FakeDocSnapshot) => void;
      return stop;
    });
    let done = false;
    const signUp = createFirebaseBackend(CONFIG)
      .auth.signUp({ email: 'ann@example.com', password: 'long-enough', displayName: 'Ann' })
      .then(() => {
        done = true;
      });
    await flushPromises();
    next!(docSnapshot('u1'));
    await flushPromises();
    expect(done).toBe(false);
    next!(docSnapshot('u1', { email: 'ann@example.com' }));
    await signUp;
    expect(fs.updateDoc).toHaveBeenCalledWith(expect.objectContaining({ path: 'users/u1' }), {
      displayName: 'Ann',
    });
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('gives up waiting for a users document that does not come, and signs up all the same', async () => {
    jest.useFakeTimers();
    try {
      auth.createUserWithEmailAndPassword.mockResolvedValue({ user: fakeUser({ displayName: null }) });
      const stop = jest.fn();
      fs.onSnapshot.mockImplementation(() => stop);
      const signUp = createFirebaseBackend(CONFIG).auth.signUp({
        email: 'ann@example.com',
        password: 'long-enough',
        displayName: 'Ann',
      });
      await jest.advanceTimersByTimeAsync(USER_DOCUMENT_WAIT_MS);
      await expect(signUp).resolves.toBeUndefined();
      expect(fs.updateDoc).not.toHaveBeenCalled();
      expect(stop).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('signs up even when the confirmation email cannot be sent, and still signs out', async () => {
    const user = fakeUser({ displayName: null });
    auth.createUserWithEmailAndPassword.mockResolvedValue({ user });
    auth.sendEmailVerification.mockRejectedValue(new Error('auth/too-many-requests'));
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(
      createFirebaseBackend(CONFIG).auth.signUp({ email: 'ann@example.com', password: 'long-enough' }),
    ).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalled();
    expect(auth.signOut).toHaveBeenCalledWith(detachedAuth());
  });

  it('leaves the profile alone when no display name is given', async () => {
    auth.createUserWithEmailAndPassword.mockResolvedValue({ user: fakeUser({ displayName: null }) });
    await createFirebaseBackend(CONFIG).auth.signUp({ email: 'a@b.co', password: 'long-enough' });
    expect(auth.updateProfile).not.toHaveBeenCalled();
  });

  it('still signs the person up when only saving the display name fails', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const user = fakeUser({ displayName: null });
    auth.createUserWithEmailAndPassword.mockResolvedValue({ user });
    auth.updateProfile.mockRejectedValue(new FakeFirebaseError('auth/network-request-failed'));
    await expect(
      createFirebaseBackend(CONFIG).auth.signUp({
        email: 'a@b.co',
        password: 'long-enough',
        displayName: 'Ann',
      }),
    ).resolves.toBeUndefined();
    expect(auth.sendEmailVerification).toHaveBeenCalledWith(user);
  });

  it('deletes the detached app when Firebase refuses the sign-up, and says why', async () => {
    auth.createUserWithEmailAndPassword.mockRejectedValue(new FakeFirebaseError('auth/too-many-requests'));
    const signUp = createFirebaseBackend(CONFIG).auth.signUp({ email: 'a@b.co', password: 'long-enough' });
    await expect(signUp).rejects.toMatchObject({ status: 'RESOURCE_EXHAUSTED', name: 'BackendError' });
    expect(app.deleteApp).toHaveBeenCalledTimes(1);
  });

  it('refuses a password shorter than the embedded server accepts, before creating anything', async () => {
    const signUp = createFirebaseBackend(CONFIG).auth.signUp({ email: 'a@b.co', password: 'short' });
    await expect(signUp).rejects.toMatchObject({ status: 'INVALID_ARGUMENT', name: 'BackendError' });
    expect(auth.createUserWithEmailAndPassword).not.toHaveBeenCalled();
  });

  it.each(['not-an-email', 'ann@example', 'ann@exa mple.com', `${'a'.repeat(250)}@b.co`])(
    'refuses an email the embedded server refuses (%s), before creating anything',
    async (email) => {
      const signUp = createFirebaseBackend(CONFIG).auth.signUp({ email, password: 'long-enough' });
      await expect(signUp).rejects.toMatchObject({ status: 'INVALID_ARGUMENT', name: 'BackendError' });
      expect(auth.createUserWithEmailAndPassword).not.toHaveBeenCalled();
    },
  );
});

describe('auth.signIn', () => {
  it('signs in with email and password and answers a plain summary, not the Firebase user', async () => {
    auth.signInWithEmailAndPassword.mockResolvedValue({ user: fakeUser() });
    const result = await createFirebaseBackend(CONFIG).auth.signIn({
      email: 'ann@example.com ',
      password: 'pw',
    });
    expect(auth.signInWithEmailAndPassword).toHaveBeenCalledWith(auth.instance, 'ann@example.com', 'pw');
    expect(result).toStrictEqual({ uid: 'u1', email: 'ann@example.com', displayName: 'Ann' });
  });

  it('answers "invalid credentials" for a wrong password', async () => {
    auth.signInWithEmailAndPassword.mockRejectedValue(new FakeFirebaseError('auth/invalid-credential'));
    await expect(
      createFirebaseBackend(CONFIG).auth.signIn({ email: 'a@b.co', password: 'x' }),
    ).rejects.toMatchObject({
      name: 'BackendError',
      status: 'UNAUTHENTICATED',
      reason: 'invalid-credentials',
      message: "That email and password don't match.",
    });
  });

  it('answers "too many attempts" when Firebase throttles', async () => {
    auth.signInWithEmailAndPassword.mockRejectedValue(new FakeFirebaseError('auth/too-many-requests'));
    await expect(
      createFirebaseBackend(CONFIG).auth.signIn({ email: 'a@b.co', password: 'x' }),
    ).rejects.toMatchObject({
      status: 'RESOURCE_EXHAUSTED',
    });
  });

  it('answers UNAVAILABLE when offline', async () => {
    auth.signInWithEmailAndPassword.mockRejectedValue(new FakeFirebaseError('auth/network-request-failed'));
    await expect(
      createFirebaseBackend(CONFIG).auth.signIn({ email: 'a@b.co', password: 'x' }),
    ).rejects.toMatchObject({
      status: 'UNAVAILABLE',
    });
  });
});

describe('auth.signOut', () => {
  it('signs out of Firebase', async () => {
    await createFirebaseBackend(CONFIG).auth.signOut();
    expect(auth.signOut).toHaveBeenCalledWith(auth.instance);
  });
});

describe('auth.currentUser', () => {
  it('is null when nobody is signed in', () => {
    expect(createFirebaseBackend(CONFIG).auth.currentUser()).toBeNull();
  });

  it('is a serializable summary of the signed-in account', () => {
    signedInAs(fakeUser({ email: null, displayName: null }));
    expect(createFirebaseBackend(CONFIG).auth.currentUser()).toStrictEqual({
      uid: 'u1',
      email: '',
      displayName: null,
    });
  });
});

describe('auth.getIdTokenClaims', () => {
  it('reads isAdmin from the ID token claims', async () => {
    const user = fakeUser();
    signedInAs(user);
    auth.getIdTokenResult.mockResolvedValue({ claims: { isAdmin: true, email: 'ann@example.com' } });
    await expect(createFirebaseBackend(CONFIG).auth.getIdTokenClaims()).resolves.toStrictEqual({
      isAdmin: true,
    });
    expect(auth.getIdTokenResult).toHaveBeenCalledWith(user);
  });

  it('is not admin unless the claim is exactly true', async () => {
    signedInAs(fakeUser());
    auth.getIdTokenResult.mockResolvedValue({ claims: { isAdmin: 'true' } });
    await expect(createFirebaseBackend(CONFIG).auth.getIdTokenClaims()).resolves.toStrictEqual({
      isAdmin: false,
    });
  });

  it('asks to sign in when nobody is signed in', async () => {
    await expect(createFirebaseBackend(CONFIG).auth.getIdTokenClaims()).rejects.toMatchObject({
      status: 'UNAUTHENTICATED',
    });
    expect(auth.getIdTokenResult).not.toHaveBeenCalled();
  });
});

describe('auth.verifyEmail', () => {
  const CODE = 'M76J6McKYsxzCzMs0bRguSY8qt-VikSaNrr0pPUmd0Xn0ETQZC4IKe';

  it('uses the code, then refreshes the ID token of the session restored meanwhile (a fresh page)', async () => {
    const user = fakeUser();
    // The link opened a new page: the session comes back from IndexedDB only once authStateReady resolves.
    auth.instance.authStateReady.mockImplementation(async () => {
      signedInAs(user);
    });
    await createFirebaseBackend(CONFIG).auth.verifyEmail(CODE);
    expect(auth.applyActionCode).toHaveBeenCalledWith(auth.instance, CODE);
    expect(auth.reload).toHaveBeenCalledWith(user);
    expect(auth.getIdToken).toHaveBeenCalledWith(user, true);
    expect(auth.applyActionCode.mock.invocationCallOrder[0]).toBeLessThan(
      auth.getIdToken.mock.invocationCallOrder[0] ?? 0,
    );
  });

  it('confirms the address signed out too, with no session to refresh', async () => {
    await createFirebaseBackend(CONFIG).auth.verifyEmail(CODE);
    expect(auth.applyActionCode).toHaveBeenCalledWith(auth.instance, CODE);
    expect(auth.getIdToken).not.toHaveBeenCalled();
  });
});

describe('auth.onAuthStateChanged', () => {
  it('passes each auth state on as a summary, or null when signed out', () => {
    const seen: unknown[] = [];
    createFirebaseBackend(CONFIG).auth.onAuthStateChanged((user) => seen.push(user));
    // The last listener: the adapter's own (sdk.ts, which clears Firestore's cache as a session ends) comes first.
    const [target, next] = auth.onAuthStateChanged.mock.calls.at(-1) ?? [];
    expect(target).toBe(auth.instance);
    next?.(fakeUser());
    next?.(null);
    expect(seen).toStrictEqual([{ uid: 'u1', email: 'ann@example.com', displayName: 'Ann' }, null]);
  });

  it('stops listening when unsubscribed', () => {
    const sdkUnsubscribe = jest.fn();
    auth.onAuthStateChanged.mockReturnValue(sdkUnsubscribe);
    const unsubscribe = createFirebaseBackend(CONFIG).auth.onAuthStateChanged(() => undefined);
    expect(sdkUnsubscribe).not.toHaveBeenCalled();
    unsubscribe();
    expect(sdkUnsubscribe).toHaveBeenCalledTimes(1);
  });
});
