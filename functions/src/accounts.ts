// Accounts (repository.ts) on the Admin SDK's Firebase Auth: what the deployed functions read of Auth, and what
// the contract suite's run on the emulators gives its functions (the Auth emulator behind the same SDK).
import type { Auth } from 'firebase-admin/auth';
import type { Accounts } from './repository';

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
    revokeSessions: (uid) => auth.revokeRefreshTokens(uid),
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
