// AuthPort on Firebase Auth: email and password accounts, the session Firebase keeps in IndexedDB, and the
// isAdmin custom claim read from the ID token.
import {
  createUserWithEmailAndPassword,
  getIdTokenResult,
  onAuthStateChanged,
  sendEmailVerification,
  signInWithEmailAndPassword,
  signOut,
  updateProfile,
} from 'firebase/auth';
import { BackendError } from '../ports';
import type { AuthPort } from '../ports';
import { isEmail } from '@core/email';
import { LIMITS } from '@core/limits';
import { toAuthUser } from './convert';
import { SIGN_IN_MESSAGE, guarded } from './errors';
import type { FirebaseSdk } from './sdk';

/** The same bounds the embedded server puts on sign-up (core/schemas.ts signUpBody), checked before any call. */
function checkSignUp(email: string, password: string, displayName: string | undefined): void {
  if (!isEmail(email)) throw new BackendError('INVALID_ARGUMENT', 'Enter a valid email address.');
  if (password.length < LIMITS.passwordMin || password.length > LIMITS.passwordMax) {
    throw new BackendError(
      'INVALID_ARGUMENT',
      `Choose a password of ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters.`,
    );
  }
  if (displayName !== undefined && displayName.length > LIMITS.displayNameMax) {
    throw new BackendError(
      'INVALID_ARGUMENT',
      `A name can have at most ${LIMITS.displayNameMax} characters.`,
    );
  }
}

export function createAuthPort(sdk: FirebaseSdk): AuthPort {
  return {
    signUp: ({ email, password, displayName }) =>
      guarded(async () => {
        const name = displayName?.trim() || undefined;
        checkSignUp(email, password, name);
        const { user } = await createUserWithEmailAndPassword(sdk.auth(), email.trim(), password);
        // An invitation bound to an email is theirs once the email is confirmed (functions/src/callable.ts
        // callerFrom, firestore.rules isInvitee): Firebase sends the confirmation link. Not sent is no failure of
        // the sign-up; the invitation screen says what is missing.
        await sendEmailVerification(user).catch((error: unknown) =>
          console.warn(
            'The confirmation email could not be sent',
            error instanceof Error ? error.message : error,
          ),
        );
        if (!name) return toAuthUser(user);
        try {
          await updateProfile(user, { displayName: name });
        } catch (error) {
          // The account exists and is signed in; a missing display name is no reason to fail the sign-up.
          console.warn('The display name could not be saved', error instanceof Error ? error.message : error);
          return toAuthUser(user);
        }
        return { ...toAuthUser(user), displayName: name };
      }),

    signIn: ({ email, password }) =>
      guarded(async () => {
        const { user } = await signInWithEmailAndPassword(sdk.auth(), email.trim(), password);
        return toAuthUser(user);
      }),

    signOut: () => guarded(() => signOut(sdk.auth())),

    currentUser() {
      const user = sdk.auth().currentUser;
      return user ? toAuthUser(user) : null;
    },

    getIdTokenClaims: () =>
      guarded(async () => {
        const user = sdk.auth().currentUser;
        if (!user) throw new BackendError('UNAUTHENTICATED', SIGN_IN_MESSAGE);
        // Not forced: Firebase refreshes the token hourly; an admin granted now is seen within the hour or at
        // the next sign-in (README "Deploying to Firebase", custom claims).
        const { claims } = await getIdTokenResult(user);
        return { isAdmin: claims.isAdmin === true };
      }),

    onAuthStateChanged(listener) {
      // Firebase calls back once the persisted session is restored (null when there is none), then on changes.
      const unsubscribe = onAuthStateChanged(sdk.auth(), (user) => listener(user ? toAuthUser(user) : null));
      return () => unsubscribe();
    },
  };
}
