// AuthPort on Firebase Auth: email and password accounts, the session Firebase keeps in IndexedDB, and the
// isAdmin custom claim read from the ID token.
import {
  EmailAuthProvider,
  applyActionCode,
  confirmPasswordReset,
  createUserWithEmailAndPassword,
  getIdToken,
  getIdTokenResult,
  onAuthStateChanged,
  reauthenticateWithCredential,
  reload,
  sendEmailVerification,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signOut,
  updateProfile,
  verifyBeforeUpdateEmail,
  verifyPasswordResetCode,
} from 'firebase/auth';
import { BackendError } from '../ports';
import type { AuthPort } from '../ports';
import { isEmail, normalizeEmail } from '@core/email';
import { EMAIL_CHANGE_MESSAGES, EMAIL_LINK_MESSAGES, isLinkToken } from '@core/emailLinks';
import { LIMITS } from '@core/limits';
import { USER_DOCUMENT_WAIT_MS } from '@/timings';
import { reportRevocation } from './callables';
import { toAuthUser } from './convert';
import { SIGN_IN_MESSAGE, guarded } from './errors';
import type { FirebaseSdk } from './sdk';

/** A password within the bounds the embedded server puts on it (core/schemas.ts), checked before any call. */
function checkPassword(password: string): void {
  if (password.length < LIMITS.passwordMin || password.length > LIMITS.passwordMax) {
    throw new BackendError(
      'INVALID_ARGUMENT',
      `Choose a password of ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters.`,
    );
  }
}

/** A mailed link's token (Firebase's oobCode), refused before any call when it cannot be one. */
function checkToken(token: string): void {
  if (!isLinkToken(token)) throw new BackendError('INVALID_ARGUMENT', EMAIL_LINK_MESSAGES.invalid);
}

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

/**
 * Gives users/{uid} the name chosen at sign-up. functions/ on_user_created writes the document from the account as
 * it reads it, and a quick trigger reads it before updateProfile has named it: the document, whose name the
 * person's messages carry (firestore.rules callersPublicName), would never have it. So sign-up waits for the
 * document (bounded: a trigger later than that reads the account after the name) and names it when it does not
 * have the name; firestore.rules let a person change their own display name.
 */
async function nameUserDocument(sdk: FirebaseSdk, uid: string, name: string): Promise<void> {
  const { sdk: fs, db } = await sdk.firestore();
  const ref = fs.doc(db, 'users', uid);
  const stored = await new Promise<{ displayName?: unknown } | null>((resolve) => {
    let stop: (() => void) | null = null;
    const done = (data: { displayName?: unknown } | null) => {
      clearTimeout(timer);
      stop?.();
      stop = null;
      resolve(data);
    };
    const timer = setTimeout(() => done(null), USER_DOCUMENT_WAIT_MS);
    stop = fs.onSnapshot(
      ref,
      (snapshot) => {
        if (snapshot.exists()) done(snapshot.data());
      },
      () => done(null),
    );
  });
  if (stored !== null && stored.displayName !== name) await fs.updateDoc(ref, { displayName: name });
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
        await nameUserDocument(sdk, user.uid, name).catch((error: unknown) =>
          console.warn(
            'The display name could not be saved with the profile',
            error instanceof Error ? error.message : error,
          ),
        );
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

    getEmailVerification: () =>
      guarded(async () => {
        const user = sdk.auth().currentUser;
        if (!user) throw new BackendError('UNAUTHENTICATED', SIGN_IN_MESSAGE);
        // The User object keeps what it was told at sign-in: reload asks Firebase Auth now; a newly confirmed
        // address also takes a new ID token, so the functions and rules see email_verified at once.
        await reload(user);
        if (user.emailVerified) await getIdToken(user, true);
        return { email: user.email ?? '', verified: user.emailVerified };
      }),

    sendEmailVerification: () =>
      guarded(async () => {
        const user = sdk.auth().currentUser;
        if (!user) throw new BackendError('UNAUTHENTICATED', SIGN_IN_MESSAGE);
        await sendEmailVerification(user);
      }),

    verifyEmail: (token) =>
      guarded(async () => {
        checkToken(token);
        await applyActionCode(sdk.auth(), token);
        const user = sdk.auth().currentUser;
        if (user) {
          await reload(user);
          await getIdToken(user, true);
        }
      }),

    requestPasswordReset: (email) =>
      guarded(async () => {
        if (!isEmail(email)) throw new BackendError('INVALID_ARGUMENT', 'Enter a valid email address.');
        try {
          await sendPasswordResetEmail(sdk.auth(), email.trim());
        } catch (error) {
          // The same answer whether an account has the address or not (as with email enumeration protection).
          if ((error as { code?: unknown }).code === 'auth/user-not-found') return;
          throw error;
        }
      }),

    confirmPasswordReset: (token, newPassword) =>
      guarded(async () => {
        checkToken(token);
        checkPassword(newPassword);
        // Whose password the link changes: the code says (a code that is not one is refused here already).
        const email = await verifyPasswordResetCode(sdk.auth(), token);
        // Firebase Auth revokes the account's refresh tokens when its password changes: its sessions end, and
        // functions/ record it so that the rules and callables refuse them at once (as the embedded server does).
        await confirmPasswordReset(sdk.auth(), token, newPassword);
        await reportRevocation(sdk, email);
        // This device's session of that account ended with the others.
        const current = sdk.auth().currentUser?.email;
        if (current && normalizeEmail(current) === normalizeEmail(email)) await signOut(sdk.auth());
      }),

    changeEmail: (currentPassword, newEmail) =>
      guarded(async () => {
        const user = sdk.auth().currentUser;
        if (!user || !user.email) throw new BackendError('UNAUTHENTICATED', SIGN_IN_MESSAGE);
        if (!isEmail(newEmail)) throw new BackendError('INVALID_ARGUMENT', 'Enter a valid email address.');
        // Firebase asks for a recent sign-in before an address changes: the current password proves it.
        try {
          await reauthenticateWithCredential(user, EmailAuthProvider.credential(user.email, currentPassword));
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          // A wrong current password is no reason to end the session (UNAUTHENTICATED would sign out).
          if (code === 'auth/invalid-credential' || code === 'auth/wrong-password') {
            throw new BackendError(
              'PERMISSION_DENIED',
              EMAIL_CHANGE_MESSAGES.wrongPassword,
              'invalid-credentials',
            );
          }
          throw error;
        }
        // The new address gets the link; Firebase changes the address when it is used, and tells the old one.
        await verifyBeforeUpdateEmail(user, newEmail.trim());
      }),

    onAuthStateChanged(listener) {
      // Firebase calls back once the persisted session is restored (null when there is none), then on changes.
      const unsubscribe = onAuthStateChanged(sdk.auth(), (user) => listener(user ? toAuthUser(user) : null));
      return () => unsubscribe();
    },
  };
}
