// Push token documents (QUALITY.md "Push and tokens"): save_push_token, the one writer of a device's token
// document on Firebase (firestore.rules let no client create one), and the daily prune of tokens unused for 30 days,
// by the same rules as the embedded server (core/pushTokens.ts).
import { ERROR_WORDS, QupmError } from '../../../core/errors';
import type { PushTokenDoc } from '../../../core/model';
import { newTokenDoc, planTokenSave, TOKEN_UNUSED_PRUNE_AFTER_MS } from '../../../core/pushTokens';
import type { tokenCallablePayloads, TokenCallableName } from '../../../core/schemas';
import type { Handler } from '../callable';
import type { Deps } from '../repository';

export const NOT_YOUR_DEVICES = ERROR_WORDS.notYourDevices;

export async function handlePruneStaleTokens({ repo, now }: Deps): Promise<number> {
  return repo.deleteTokensUnusedSince(now() - TOKEN_UNUSED_PRUNE_AFTER_MS);
}

export const tokenCallables: {
  [N in TokenCallableName]: Handler<(typeof tokenCallablePayloads)[N], PushTokenDoc>;
} = {
  /**
   * Saves this device's push token as the embedded server's POST /api/users/:uid/tokens does: inside one
   * transaction, the same token for the same device answers the document there is; otherwise whatever the caller
   * held for this device, and this token under any other account, is replaced by a new document (spec §4: the
   * replaced old token document is deleted; a shared browser pushes only to whoever uses it now). Times are the
   * backend's, so the daily prune never trusts a device's clock. The client keeps the answer.
   */
  async save_push_token({ repo, now }, caller, { userId, ...input }) {
    if (caller.uid !== userId) throw new QupmError('PERMISSION_DENIED', NOT_YOUR_DEVICES);
    const created = newTokenDoc(repo.newId(), input, now());
    return repo.saveDeviceToken(caller.uid, created, (related) => planTokenSave(caller.uid, input, related));
  },
};
