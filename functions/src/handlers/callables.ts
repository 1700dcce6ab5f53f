// The callables of spec §7, decided by core/ exactly as the embedded server's server/services/callables.ts does.
import { ERROR_WORDS, QupmError } from '../../../core/errors';
import { activeOffersFor } from '../../../core/offers';
import { canClearPending, channelPermissions } from '../../../core/permissions';
import type { callablePayloads, CallableName } from '../../../core/schemas';
import type { CallableResults } from '../../../core/wire';
import type { Handler } from '../callable';

export const NO_SUCH_CHANNEL = ERROR_WORDS.noSuchChannel;
export const NO_SUCH_USER = ERROR_WORDS.noSuchUser;
export const NOT_YOUR_NOTIFICATIONS = ERROR_WORDS.notYourNotifications;

export const specCallables: {
  [N in CallableName]: Handler<(typeof callablePayloads)[N], CallableResults[N]>;
} = {
  /** isOwner from the stored channel only; the payload's channel_owner_id is never consulted. */
  async check_channel_permissions({ repo }, caller, data) {
    const channel = await repo.getChannel(data.channel_id);
    if (!channel) throw new QupmError('NOT_FOUND', NO_SUCH_CHANNEL);
    return channelPermissions(channel, caller.uid);
  },

  async get_user_active_offers({ repo, now }, caller) {
    return { offers: activeOffersFor(await repo.listOffersFor(caller.uid), caller.uid, now()) };
  },

  /** ARCHITECTURE.md: only for the caller's own id, or an admin's. */
  async clear_pending_notifications({ repo }, caller, data) {
    if (!canClearPending(caller, data.userId))
      throw new QupmError('PERMISSION_DENIED', NOT_YOUR_NOTIFICATIONS);
    if (!(await repo.clearPending(data.userId))) throw new QupmError('NOT_FOUND', NO_SUCH_USER);
    return { success: true };
  },
};
