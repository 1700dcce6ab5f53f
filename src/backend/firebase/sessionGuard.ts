// A session ended elsewhere, on Firebase, as on the embedded server (src/backend/local/index.ts api()): the refused
// request says "Your session has ended. Sign in again." and this window signs out, so the app shows the sign-in
// form with why (authSaga signedOutUnasked). Callables refuse a revoked session as UNAUTHENTICATED themselves
// (functions/src/callable.ts). firestore.rules can only refuse it, as they refuse anything else: so after a
// refusal the adapter reads revocations/{uid} (its own account may, even revoked) and compares it with its ID
// token's auth_time, as the rules did — one read, only after a refusal.
import { getIdTokenResult, signOut } from 'firebase/auth';
import type { User } from 'firebase/auth';
import { SESSION_ENDED_MESSAGE } from '@core/errors';
import { BackendError } from '../ports';
import type { FirebaseSdk } from './sdk';

export interface SessionGuard {
  /**
   * After a refusal: when it says this session is over (UNAUTHENTICATED, or a rules refusal of a revoked session),
   * signs this window out and throws the embedded server's words; otherwise returns, and the refusal stands.
   */
  check(error: BackendError): Promise<void>;
  /**
   * revocations/{uid} as a live listener delivers it (src/backend/firebase/live.ts, while the app follows the
   * live status): a revocation after this session began signs this window out at once, as the embedded server
   * ends the session's stream.
   */
  endIfRevoked(revocation: Record<string, unknown> | undefined): Promise<void>;
}

export function createSessionGuard(sdk: FirebaseSdk): SessionGuard {
  /** Whether `revocation` ended the session of `user` (as firestore.rules sessionStands() decides). */
  async function ends(user: User, revocation: Record<string, unknown> | undefined): Promise<boolean> {
    const revokedBefore: unknown = revocation?.revokedBefore;
    if (typeof revokedBefore !== 'number') return false;
    // The token this session holds (no refresh: its auth_time never changes within a session).
    const { claims } = await getIdTokenResult(user);
    return !(Number(claims.auth_time) >= revokedBefore);
  }

  /** Whether the account's sessions were revoked after this one began. */
  async function revoked(user: User): Promise<boolean> {
    try {
      const { sdk: fs, db } = await sdk.firestore();
      const snapshot = await fs.getDoc(fs.doc(db, 'revocations', user.uid));
      return await ends(user, snapshot.data());
    } catch {
      // Unreadable (offline): the refusal stands as it came.
      return false;
    }
  }

  const end = async (): Promise<void> => {
    await signOut(sdk.auth()).catch(() => undefined);
  };

  return {
    async endIfRevoked(revocation) {
      const user = sdk.auth().currentUser;
      if (user && (await ends(user, revocation).catch(() => false))) await end();
    },

    async check(error) {
      const user = sdk.auth().currentUser;
      if (!user) return;
      if (error.status === 'UNAUTHENTICATED') {
        await end();
        return;
      }
      if (error.status !== 'PERMISSION_DENIED' || !(await revoked(user))) return;
      await end();
      throw new BackendError('UNAUTHENTICATED', SESSION_ENDED_MESSAGE, 'session-expired');
    },
  };
}

/**
 * The port with every method that answers a promise passed through the guard on failure: what a port refuses
 * reaches the caller after the guard has had its say.
 */
export function withSessionGuard<T extends object>(port: T, guard: SessionGuard): T {
  const guarded: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(port)) {
    if (typeof member !== 'function') {
      guarded[name] = member;
      continue;
    }
    guarded[name] = (...args: unknown[]): unknown => {
      const answer: unknown = (member as (...a: unknown[]) => unknown).apply(port, args);
      if (!(answer instanceof Promise)) return answer;
      return answer.catch(async (error: unknown) => {
        if (error instanceof BackendError) await guard.check(error);
        throw error;
      });
    };
  }
  return guarded as T;
}
