// Sessions on the Firebase backend (issue #15 part 5): Firebase Auth keeps no list of an account's sessions and
// cannot end one alone, so revoke_sessions ends them all (refresh tokens revoked; the callables that matter check
// ID tokens with verifyIdToken(token, true), functions/src/callable.ts). The embedded server does more (lists
// them, ends one, keeps the caller's): docs/decisions/auth.md.
import type { sessionCallablePayloads, SessionCallableName } from '../../../core/schemas';
import type { Handler } from '../callable';

export const sessionCallables: {
  [N in SessionCallableName]: Handler<(typeof sessionCallablePayloads)[N], { success: true }>;
} = {
  /**
   * Every session of the caller's ends, and with them every device's push token document (as the embedded server
   * deletes an ended session's token): a signed-out device receives nothing more.
   */
  async revoke_sessions({ accounts, repo }, caller) {
    await accounts.revokeSessions(caller.uid);
    await repo.deleteTokens(await repo.listActiveTokens([caller.uid]));
    return { success: true };
  },
};
