// POST /api/private-channels {withUid, viaChannelId} (core/wire.ts): opens the caller's private consultation with
// someone they share a channel with, or answers the one that exists (server/services/privateChannels.ts).
import type { RouteHandlers } from '../api';
import type { ServerContext } from '../context';
import { openPrivateChannel } from '../services/privateChannels';

export const privateChannelRoutes = (ctx: ServerContext) =>
  ({
    openPrivateChannel: { handle: ({ caller, body }) => openPrivateChannel(ctx, caller, body) },
  }) satisfies Partial<RouteHandlers>;
