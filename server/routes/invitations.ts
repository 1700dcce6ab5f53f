// /api/invitations/:id, its accept and activate (core/wire.ts API). Accept and activate take no body.
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';
import { idParams, parse } from '../http';
import { acceptInvitation, activateInvitation, readInvitation } from '../services/invitations';

export function registerInvitationRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/api/invitations/:id', async (request) => {
    const caller = await ctx.authenticate(request);
    const { id } = parse(idParams, request.params);
    await ctx.guards.documents(request, caller.uid);
    return readInvitation(ctx, caller, id);
  });

  app.post('/api/invitations/:id/accept', async (request) => {
    const caller = await ctx.authenticate(request);
    const { id } = parse(idParams, request.params);
    await ctx.guards.callables(request, caller.uid);
    return acceptInvitation(ctx, caller, id);
  });

  app.post('/api/invitations/:id/activate', async (request) => {
    const caller = await ctx.authenticate(request);
    const { id } = parse(idParams, request.params);
    await ctx.guards.callables(request, caller.uid);
    return activateInvitation(ctx, caller, id);
  });
}
