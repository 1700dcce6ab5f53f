// The callables of spec §7. The route checks the session and the envelope; runCallable reads the payload by the
// callable's schema; these decide.
import { ERROR_WORDS, QupmError } from '../../core/errors';
import { activeOffersFor } from '../../core/offers';
import type { Caller } from '../../core/permissions';
import { canClearPending, channelPermissions } from '../../core/permissions';
import { callablePayloads, describeIssues } from '../../core/schemas';
import type { CallableName } from '../../core/schemas';
import type { CallableResults } from '../../core/wire';
import type { z } from 'zod';
import { write } from '../db/database';
import type { ServiceContext } from '../context';

type Payload<N extends CallableName> = z.output<(typeof callablePayloads)[N]>;

export const callables: {
  [N in CallableName]: (ctx: ServiceContext, caller: Caller, data: Payload<N>) => CallableResults[N];
} = {
  /** isOwner from the stored channel only; the payload's channel_owner_id is never consulted. */
  check_channel_permissions(ctx, caller, data) {
    const channel = ctx.repos.channels.get(data.channel_id);
    if (!channel) throw new QupmError('NOT_FOUND', ERROR_WORDS.noSuchChannel);
    return channelPermissions(channel, caller.uid);
  },

  get_user_active_offers(ctx, caller) {
    return { offers: activeOffersFor(ctx.repos.offers.listFor(caller.uid), caller.uid, ctx.now()) };
  },

  clear_pending_notifications(ctx, caller, data) {
    if (!canClearPending(caller, data.userId)) {
      throw new QupmError('PERMISSION_DENIED', ERROR_WORDS.notYourNotifications);
    }
    write(ctx.db, () => {
      if (!ctx.repos.users.findAccount(data.userId)) throw new QupmError('NOT_FOUND', ERROR_WORDS.noSuchUser);
      ctx.repos.pending.clear(data.userId);
    });
    return { success: true };
  },
};

// Own keys only: `constructor`, `__proto__` or `toString` are not callables.
const isCallableName = (name: string): name is CallableName => Object.hasOwn(callablePayloads, name);

/**
 * A callable by name, its payload read by its schema (core/schemas.ts callablePayloads): NOT_FOUND for a name
 * that is not one, INVALID_ARGUMENT for a payload it does not take.
 */
export function runCallable(ctx: ServiceContext, caller: Caller, name: string, data: unknown): unknown {
  if (!isCallableName(name)) throw new QupmError('NOT_FOUND', ERROR_WORDS.noSuchFunction);
  switch (name) {
    case 'check_channel_permissions':
      return callables[name](ctx, caller, payloadOf(name, data));
    case 'get_user_active_offers':
      return callables[name](ctx, caller, payloadOf(name, data));
    case 'clear_pending_notifications':
      return callables[name](ctx, caller, payloadOf(name, data));
  }
}

function payloadOf<N extends CallableName>(name: N, data: unknown): Payload<N> {
  const result = callablePayloads[name].safeParse(data);
  if (!result.success) throw new QupmError('INVALID_ARGUMENT', describeIssues(result.error));
  return result.data as Payload<N>;
}
