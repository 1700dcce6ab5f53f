// Accounts (repository.ts) on the Admin SDK's Firebase Auth: who an account is, which are admins, deleting one,
// and its sessions (revoking them, reading when they were last revoked, verifying an ID token against that). The
// deployed functions and the emulator tests (functions/__tests__/emulator) share it.
import type { Auth, UserRecord } from 'firebase-admin/auth';
import type { Accounts } from './repository';

/** An account's tokensValidAfterTime (a UTC date string) in seconds, as an ID token's auth_time counts; 0 if none. */
function tokensValidAfter(user: UserRecord): number {
  const at = Date.parse(user.tokensValidAfterTime ?? '');
  return Number.isFinite(at) ? Math.floor(at / 1000) : 0;
}

export function createAdminAccounts(auth: Auth): Accounts {
  return {
    lookup: (uid) =>
      auth.getUser(uid).then(
        (user) => ({
          email: user.email ?? null,
          displayName: user.displayName ?? null,
          emailVerified: user.emailVerified,
        }),
        (error: unknown) => {
          if ((error as { code?: unknown } | null)?.code === 'auth/user-not-found') return null;
          throw error;
        },
      ),
    async admins(uids) {
      const admins = new Set<string>();
      // getUsers takes at most 100 identifiers a call.
      for (let i = 0; i < uids.length; i += 100) {
        const { users } = await auth.getUsers(uids.slice(i, i + 100).map((uid) => ({ uid })));
        for (const user of users) if (user.customClaims?.isAdmin === true) admins.add(user.uid);
      }
      return admins;
    },
    deleteAccount: (uid) => auth.deleteUser(uid),
    async revokeSessions(uid) {
      await auth.revokeRefreshTokens(uid);
      // Firebase documents reading the time back ("Detect ID token revocation in Firebase Security Rules").
      return tokensValidAfter(await auth.getUser(uid));
    },
    async revokedBefore(who) {
      try {
        const user = 'uid' in who ? await auth.getUser(who.uid) : await auth.getUserByEmail(who.email);
        return { uid: user.uid, revokedBefore: tokensValidAfter(user) };
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code === 'auth/user-not-found') return null;
        throw error;
      }
    },
    async sessionStands(idToken) {
      try {
        await auth.verifyIdToken(idToken, true);
        return true;
      } catch (error) {
        const code = (error as { code?: unknown } | null)?.code;
        if (code === 'auth/id-token-revoked' || code === 'auth/user-disabled') return false;
        throw error;
      }
    },
  };
}
