// Sessions on the Firebase backend: Firebase Auth keeps no list of an account's sessions and
// cannot end one alone, so revoke_sessions ends them all. An ID token outlives its revocation by up to an hour, so
// every revocation is also recorded in revocations/{uid} ({revokedBefore}, Auth's tokensValidAfterTime in seconds),
// which firestore.rules and every callable compare with a token's auth_time (functions/src/callable.ts): a revoked
// session is refused at once, as on the embedded server. Firebase Auth revokes by itself on a password reset or
// change, which the client does with the Auth SDK; record_revocation copies that revocation when the client
// reports it. The embedded server does more (lists sessions, ends one, keeps the caller's): docs/decisions/auth.md.
import type {
  publicSessionCallablePayloads,
  sessionCallablePayloads,
  SessionCallableName,
} from '../../../core/schemas';
import type { Handler, PublicHandler } from '../callable';

export const sessionCallables: {
  [N in SessionCallableName]: Handler<(typeof sessionCallablePayloads)[N], { success: true }>;
} = {
  /**
   * Every session of the caller's ends, and with them every device's push token document (as the embedded server
   * deletes an ended session's token): a signed-out device receives nothing more.
   */
  async revoke_sessions({ accounts, repo }, caller) {
    const revokedBefore = await accounts.revokeSessions(caller.uid);
    await repo.recordRevocation(caller.uid, revokedBefore);
    await repo.deleteTokens(await repo.listActiveTokens([caller.uid]));
    return { success: true };
  },
};

/**
 * A password reset or change ended an account's sessions in Firebase Auth (the client did it with the Auth SDK,
 * which no trigger sees): record it, so the rules refuse those sessions now rather than within the hour. Open to
 * anyone, signed in or not (a reset happens signed out): it only copies what Auth says, so it can neither revoke
 * nor restore anything, and it answers the same whether the address has an account or not.
 */
export const recordRevocation: PublicHandler<
  (typeof publicSessionCallablePayloads)['record_revocation'],
  { success: true }
> = async ({ accounts, repo }, { email }) => {
  const revocation = await accounts.revokedBefore({ email });
  if (revocation) await repo.recordRevocation(revocation.uid, revocation.revokedBefore);
  return { success: true };
};
