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

/** Sign-up's work in `detached`, whose session is its own: the account made (or its owner told), then signed out. */
async function signUpIn(
  detached: FirebaseSdk,
  email: string,
  password: string,
  name: string | undefined,
): Promise<void> {
  const auth = detached.auth();
  let user;
  try {
    ({ user } = await createUserWithEmailAndPassword(auth, email, password));
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== 'auth/email-already-in-use') throw error;
    // Firebase limits these mails itself; one not sent must not answer differently from a new address.
    await sendPasswordResetEmail(auth, email).catch((reason: unknown) =>
      console.warn('The reset email could not be sent', reason instanceof Error ? reason.message : reason),
    );
    return;
  }
  try {
    if (name) {
      // A name not saved is no reason to fail the sign-up: it can be set in settings.
      try {
        await updateProfile(user, { displayName: name });
        await nameUserDocument(detached, user.uid, name);
      } catch (error) {
        console.warn('The display name could not be saved', error instanceof Error ? error.message : error);
      }
    }
    // The confirmation link: an invitation bound to an email is theirs once the email is confirmed
    // (functions/src/callable.ts callerFrom, firestore.rules isInvitee). Not sent is no failure of the sign-up:
    // settings offers another.
    await sendEmailVerification(user).catch((error: unknown) =>
      console.warn(
        'The confirmation email could not be sent',
        error instanceof Error ? error.message : error,
      ),
    );
  } finally {
    await signOut(auth);
  }
}

export function createAuthPort(sdk: FirebaseSdk): AuthPort {
  return {
    // Sign-up answers as the embedded server's does (server/services/signUp.ts): the same for a new and a taken
    // address, and nobody signed in by it. Firebase Auth creates the account at once and signs it in where it
    // creates it, so that happens in a detached app (memory only) and this page's session never changes. A new
    // account is mailed its confirmation link; for a taken address (auth/email-already-in-use: email enumeration
    // protection does not cover sign-up) the owner is mailed Firebase's link to choose a new password, the
    // nearest Firebase has to "someone tried to sign up with your address". What Firebase's own API still tells a
    // client that calls it directly: docs/decisions/auth.md.
    signUp: ({ email, password, displayName }) =>
      guarded(async () => {
        const name = displayName?.trim() || undefined;
        checkSignUp(email, password, name);
        const detached = sdk.detached();
        try {
          await signUpIn(detached, email.trim(), password, name);
        } finally {
          await detached
            .dispose()
            .catch((error: unknown) =>
              console.warn(
                'The sign-up app could not be deleted',
                error instanceof Error ? error.message : error,
              ),
            );
        }
      }),

    signIn: ({ email, password }) =>
      guarded(async () => {
        const { user } = await signInWithEmailAndPassword(sdk.auth(), email.trim(), password);
        return toAuthUser(user);
      }),

    // Firestore's cache on the device goes first (bounded), so the signed-out screen never shows over it.
    signOut: () =>
      guarded(async () => {
        await sdk.forgetFirestore();
        await signOut(sdk.auth());
      }),

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
        // The mailed link opens a fresh page, where the stored session may not be restored yet: without the
        // wait, currentUser is null, the ID token keeps email_verified false for up to an hour, and the invitation
        // the person just confirmed their address for still says "confirm your email address first".
        await sdk.auth().authStateReady();
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
