// SessionsPort on Firebase. Firebase Auth keeps no list of an account's sessions and cannot
// end one alone: the list holds this session only (from this browser's user agent and the last sign-in), and
// "Sign out everywhere" is the revoke_sessions callable (Admin SDK revokeRefreshTokens, recorded for the rules),
// which ends this session too, so this device signs out after it. The password changes with
// reauthenticateWithCredential (the current password proves who asks) and updatePassword, which ends the account's
// sessions on Firebase's side; this one is proven again with the new password and the revocation reported
// (record_revocation), so the others are refused at once.
import { EmailAuthProvider, reauthenticateWithCredential, signOut, updatePassword } from 'firebase/auth';
import { ERROR_WORDS } from '@core/errors';
import { LIMITS } from '@core/limits';
import type { SignedInSession } from '@core/model';
import { BackendError } from '../ports';
import type { SessionsPort } from '../ports';
import { callFunction, reportRevocation } from './callables';
import { SIGN_IN_MESSAGE, guarded, toBackendError } from './errors';
import type { FirebaseSdk } from './sdk';

/** The one session Firebase lets this device name: its own. */
export const THIS_SESSION_ID = 'this-device';
export const WRONG_PASSWORD_MESSAGE = ERROR_WORDS.wrongCurrentPassword;
const NO_SUCH_SESSION = ERROR_WORDS.noSuchSession;

// Bowser (a user-agent parser) loads with the sessions list in Settings, not with the adapter: the signed-in
// first screen does not draw it.
async function describeThisBrowser(): Promise<{ browser: string; platform: string }> {
  const userAgent = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  if (userAgent.trim() === '') return { browser: 'Unknown browser', platform: 'unknown system' };
  const { default: Bowser } = await import(/* webpackChunkName: "bowser" */ 'bowser');
  const parsed = Bowser.parse(userAgent);
  return {
    browser: parsed.browser.name?.trim() || 'Unknown browser',
    platform: parsed.os.name?.trim() || 'unknown system',
  };
}

export function createSessionsPort(sdk: FirebaseSdk): SessionsPort {
  const signedIn = () => {
    const user = sdk.auth().currentUser;
    if (!user) throw new BackendError('UNAUTHENTICATED', SIGN_IN_MESSAGE);
    return user;
  };
  return {
    listsEverySession: false,

    listSessions: () =>
      guarded(async (): Promise<SignedInSession[]> => {
        const user = signedIn();
        const now = Date.now();
        const signedInAt = Date.parse(user.metadata?.lastSignInTime ?? '');
        return [
          {
            id: THIS_SESSION_ID,
            ...(await describeThisBrowser()),
            createdAt: Number.isFinite(signedInAt) ? signedInAt : now,
            lastUsedAt: now,
            current: true,
          },
        ];
      }),

    signOutSession: (id) =>
      guarded(async () => {
        signedIn();
        if (id !== THIS_SESSION_ID) throw new BackendError('NOT_FOUND', NO_SUCH_SESSION);
        await signOut(sdk.auth());
      }),

    signOutOtherSessions: () =>
      guarded(async () => {
        signedIn();
        await callFunction(sdk, 'revoke_sessions', null, () => undefined);
        // This session's refresh token was revoked with the others: end it here now rather than at its next
        // token refresh.
        await signOut(sdk.auth());
      }),

    changePassword: (currentPassword, newPassword) =>
      guarded(async () => {
        const user = signedIn();
        if (currentPassword.length === 0 || currentPassword.length > LIMITS.passwordMax) {
          throw new BackendError('INVALID_ARGUMENT', 'Enter your current password.');
        }
        if (newPassword.length < LIMITS.passwordMin || newPassword.length > LIMITS.passwordMax) {
          throw new BackendError(
            'INVALID_ARGUMENT',
            `Choose a new password of ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters.`,
          );
        }
        try {
          await reauthenticateWithCredential(
            user,
            EmailAuthProvider.credential(user.email ?? '', currentPassword),
          );
        } catch (error) {
          const failure = toBackendError(error);
          if (failure.reason === 'invalid-credentials') {
            throw new BackendError('PERMISSION_DENIED', WRONG_PASSWORD_MESSAGE, 'wrong-password');
          }
          throw failure;
        }
        await updatePassword(user, newPassword);
        // Firebase Auth has revoked every session of the account. This one goes on, as on the embedded server:
        // proven again with the new password, it is a session begun after the revocation. Then functions/ record
        // the revocation, so that the other sessions are refused at once (firestore.rules, every callable).
        try {
          await reauthenticateWithCredential(
            user,
            EmailAuthProvider.credential(user.email ?? '', newPassword),
          );
        } catch (error) {
          // Recorded now, the revocation would end this session too: the callables that ask Auth record it.
          console.warn('The new password is set; the other sessions end within the hour', error);
          return;
        }
        await reportRevocation(sdk, user.email ?? '');
      }),
  };
}
