// Channel mutes (issue #13 part 6, core/wire.ts API): the caller's mutes, muting and unmuting one channel.
import type { FastifyInstance } from 'fastify';
import { muteBody } from '../../core/schemas';
import { assertMuteDuration } from '../../core/mutes';
import type { ServerContext } from '../context';
import { idParams, parse } from '../http';
import { listMutes, muteChannel, unmuteChannel } from '../services/mutes';

export function registerMuteRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/api/mutes', async (request) => {
    const caller = await ctx.authenticate(request);
    await ctx.guards.documents(request, caller.uid);
    return { mutes: listMutes(ctx, caller) };
  });

  app.put('/api/channels/:id/mute', async (request) => {
    const caller = await ctx.authenticate(request);
    const { id } = parse(idParams, request.params);
    // The duration is core's to name, in words for a person (not a schema's list of values).
    const duration = assertMuteDuration(parse(muteBody, request.body).duration);
    await ctx.guards.documents(request, caller.uid);
    return muteChannel(ctx, caller, id, duration);
  });

  app.delete('/api/channels/:id/mute', async (request) => {
    const caller = await ctx.authenticate(request);
    const { id } = parse(idParams, request.params);
    await ctx.guards.documents(request, caller.uid);
    unmuteChannel(ctx, caller, id);
    return { success: true };
  });
}
