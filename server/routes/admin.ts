// /api/admin/… (core/wire.ts API): the admin section, for the isAdmin claim only (checked after the session,
// the validation and the rate limit, as every ownership check is).
import type { FastifyInstance } from 'fastify';
import { roleBody } from '../../core/schemas';
import type { ServerContext } from '../context';
import { parse, uidParams } from '../http';
import { listChannels, listUsers, setConsultant } from '../services/admin';

export function registerAdminRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/api/admin/users', async (request) => {
    const caller = await ctx.authenticate(request);
    await ctx.guards.documents(request, caller.uid);
    return { users: listUsers(ctx, caller) };
  });

  app.post('/api/admin/users/:uid/role', async (request) => {
    const caller = await ctx.authenticate(request);
    const { uid } = parse(uidParams, request.params);
    const { isOwner } = parse(roleBody, request.body);
    await ctx.guards.callables(request, caller.uid);
    return setConsultant(ctx, caller, uid, isOwner);
  });

  app.get('/api/admin/channels', async (request) => {
    const caller = await ctx.authenticate(request);
    await ctx.guards.documents(request, caller.uid);
    return { channels: listChannels(ctx, caller) };
  });
}
