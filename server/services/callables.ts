// The callables of spec §7. The route checks the session and validates the payload; these decide.
import { QupmError } from '../../core/errors';
import { activeOffersFor } from '../../core/offers';
import type { Caller } from '../../core/permissions';
import { canClearPending, channelPermissions } from '../../core/permissions';
import type { CallableName } from '../../core/schemas';
import type { callablePayloads } from '../../core/schemas';
import type { CallableResults } from '../../core/wire';
import type { z } from 'zod';
import { write } from '../db/database';
import type { ServiceContext } from './users';

type Payload<N extends CallableName> = z.output<(typeof callablePayloads)[N]>;

export const callables: {
  [N in CallableName]: (ctx: ServiceContext, caller: Caller, data: Payload<N>) => CallableResults[N];
} = {
  /** isOwner from the stored channel only; the payload's channel_owner_id is never consulted. */
  check_channel_permissions(ctx, caller, data) {
    const channel = ctx.repos.channels.get(data.channel_id);
    if (!channel) throw new QupmError('NOT_FOUND', 'There is no such channel.');
    return channelPermissions(channel, caller.uid);
  },

  get_user_active_offers(ctx, caller) {
    return { offers: activeOffersFor(ctx.repos.offers.listFor(caller.uid), caller.uid, ctx.now()) };
  },

  clear_pending_notifications(ctx, caller, data) {
    if (!canClearPending(caller, data.userId)) {
      throw new QupmError('PERMISSION_DENIED', 'You can only clear your own notifications.');
    }
    write(ctx.db, () => {
      if (!ctx.repos.users.findAccount(data.userId))
        throw new QupmError('NOT_FOUND', 'There is no such user.');
      ctx.repos.pending.clear(data.userId);
    });
    return { success: true };
  },
};
