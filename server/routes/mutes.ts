// Channel mutes (core/wire.ts): the caller's mutes, muting and unmuting one channel.
import { assertMuteDuration } from '../../core/mutes';
import type { RouteHandlers } from '../api';
import type { ServerContext } from '../context';
import { listMutes, muteChannel, unmuteChannel } from '../services/mutes';

export const muteRoutes = (ctx: ServerContext) =>
  ({
    listMutes: { handle: ({ caller }) => ({ mutes: listMutes(ctx, caller) }) },
    muteChannel: {
      // The duration is core's to name, in words for a person (not a schema's list of values).
      check: ({ body }) => void assertMuteDuration(body.duration),
      handle: ({ caller, params, body }) =>
        muteChannel(ctx, caller, params.id, assertMuteDuration(body.duration)),
    },
    unmuteChannel: {
      handle: ({ caller, params }) => {
        unmuteChannel(ctx, caller, params.id);
        return { success: true };
      },
    },
  }) satisfies Partial<RouteHandlers>;
