// GET/PATCH /api/users/:uid and the token documents under it (core/wire.ts API).
import type { FastifyInstance } from 'fastify';
import { profilePatchBody, pushTokenCreateBody, tokensQuery } from '../../core/schemas';
import type { ServerContext } from '../context';
import { parse, tokenParams, uidParams } from '../http';
import { assertDeliverableToken } from '../services/push';
import { addToken, deleteToken, listTokens, readUser, touchToken, updateProfile } from '../services/users';

export function registerUserRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/api/users/:uid', async (request) => {
    const caller = await ctx.authenticate(request);
    const { uid } = parse(uidParams, request.params);
    await ctx.guards.documents(request, caller.uid);
    return readUser(ctx, caller, uid);
  });

  app.patch('/api/users/:uid', async (request) => {
    const caller = await ctx.authenticate(request);
    const { uid } = parse(uidParams, request.params);
    const changes = parse(profilePatchBody, request.body);
    await ctx.guards.documents(request, caller.uid);
    return updateProfile(ctx, caller, uid, changes);
  });

  app.get('/api/users/:uid/tokens', async (request) => {
    const caller = await ctx.authenticate(request);
    const { uid } = parse(uidParams, request.params);
    const query = parse(tokensQuery, request.query);
    await ctx.guards.documents(request, caller.uid);
    return { tokens: listTokens(ctx, caller, uid, query) };
  });

  app.post('/api/users/:uid/tokens', async (request) => {
    const caller = await ctx.authenticate(request);
    const { uid } = parse(uidParams, request.params);
    const body = parse(pushTokenCreateBody, request.body);
    assertDeliverableToken(ctx.push, body.token);
    await ctx.guards.documents(request, caller.uid);
    return addToken(ctx, caller, uid, body, caller.sessionId);
  });

  app.post('/api/users/:uid/tokens/:id/touch', async (request) => {
    const caller = await ctx.authenticate(request);
    const { uid, id } = parse(tokenParams, request.params);
    await ctx.guards.documents(request, caller.uid);
    return touchToken(ctx, caller, uid, id, caller.sessionId);
  });

  app.delete('/api/users/:uid/tokens/:id', async (request) => {
    const caller = await ctx.authenticate(request);
    const { uid, id } = parse(tokenParams, request.params);
    await ctx.guards.documents(request, caller.uid);
    deleteToken(ctx, caller, uid, id);
    return { success: true };
  });
}
