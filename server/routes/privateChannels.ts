// POST /api/private-channels {withUid, viaChannelId} (core/wire.ts API): opens the caller's private consultation
// with someone they share a channel with, or answers the one that exists (server/services/privateChannels.ts).
import type { FastifyInstance } from 'fastify';
import { privateChannelCreateBody } from '../../core/schemas';
import type { ServerContext } from '../context';
import { parse } from '../http';
import { openPrivateChannel } from '../services/privateChannels';

export function registerPrivateChannelRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/api/private-channels', async (request) => {
    const caller = await ctx.authenticate(request);
    const body = parse(privateChannelCreateBody, request.body);
    await ctx.guards.callables(request, caller.uid);
    return openPrivateChannel(ctx, caller, body);
  });
}
