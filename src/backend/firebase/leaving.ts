// UsersPort's leaving verbs on Firebase: "Download my data" is the export_my_data callable;
// "Delete my account" proves the password by re-authenticating (Firebase asks for a recent sign-in before it
// deletes an account), then the delete_my_account callable removes the documents and the Auth account, and
// this device signs out.
import { EmailAuthProvider, reauthenticateWithCredential, signOut } from 'firebase/auth';
import { ACCOUNT_EXPORT_FORMAT, ACCOUNT_EXPORT_VERSION, LEAVING_MESSAGES } from '@core/leaving';
import type { AccountExport } from '@core/leaving';
import { BackendError } from '../ports';
import type { UsersPort } from '../ports';
import { LEAVING_CALLABLES, callFunction } from './callables';
import { SIGN_IN_MESSAGE, UNREADABLE_ANSWER_MESSAGE, guarded } from './errors';
import type { FirebaseSdk } from './sdk';

/** What Firebase Auth answers to a password that is not the account's. */
const WRONG_PASSWORD_CODES = new Set([
  'auth/wrong-password',
  'auth/invalid-credential',
  'auth/invalid-login-credentials',
]);

function readExport(data: unknown): AccountExport {
  const value = data as Partial<AccountExport> | null;
  if (value?.format !== ACCOUNT_EXPORT_FORMAT || value.version !== ACCOUNT_EXPORT_VERSION) {
    throw new BackendError('INTERNAL', UNREADABLE_ANSWER_MESSAGE);
  }
  return value as AccountExport;
}

export function createLeaving(sdk: FirebaseSdk): Pick<UsersPort, 'exportMyData' | 'deleteMyAccount'> {
  /** The signed-in user, when `uid` is theirs: only one's own account may be exported or deleted. */
  const self = (uid: string) => {
    const user = sdk.auth().currentUser;
    if (!user) throw new BackendError('UNAUTHENTICATED', SIGN_IN_MESSAGE);
    if (user.uid !== uid) throw new BackendError('PERMISSION_DENIED', LEAVING_MESSAGES.notYours);
    return user;
  };

  return {
    exportMyData: (uid) =>
      guarded(async () => {
        self(uid);
        return callFunction(sdk, LEAVING_CALLABLES.export_my_data, null, readExport);
      }),

    deleteMyAccount: (uid, password) =>
      guarded(async () => {
        const user = self(uid);
        if (password.length === 0)
          throw new BackendError('INVALID_ARGUMENT', LEAVING_MESSAGES.passwordMissing);
        try {
          await reauthenticateWithCredential(user, EmailAuthProvider.credential(user.email ?? '', password));
        } catch (error) {
          const code = (error as { code?: unknown } | null)?.code;
          if (typeof code === 'string' && WRONG_PASSWORD_CODES.has(code)) {
            throw new BackendError('PERMISSION_DENIED', LEAVING_MESSAGES.wrongPassword);
          }
          throw error;
        }
        await callFunction(sdk, LEAVING_CALLABLES.delete_my_account, null, () => undefined);
        // The Auth account is gone; forget its session on this device.
        await signOut(sdk.auth());
      }),
  };
}
