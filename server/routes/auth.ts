// POST /api/auth/signup | signin | refresh | signout (core/wire.ts API).
import type { FastifyInstance } from 'fastify';
import { refreshBody, signInBody, signUpBody } from '../../core/schemas';
import type { ServerContext } from '../context';
import { parse } from '../http';

export function registerAuthRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/api/auth/signup', async (request) => {
    const body = parse(signUpBody, request.body);
    await ctx.guards.authPerIp(request, request.ip);
    await ctx.guards.auth(request, `${request.ip}|${body.email}`);
    return ctx.sessions.signUp(body);
  });

  app.post('/api/auth/signin', async (request) => {
    const body = parse(signInBody, request.body);
    await ctx.guards.authPerIp(request, request.ip);
    await ctx.guards.auth(request, `${request.ip}|${body.email}`);
    return ctx.sessions.signIn(body);
  });

  app.post('/api/auth/refresh', async (request) => {
    const body = parse(refreshBody, request.body);
    await ctx.guards.refresh(request, request.ip);
    return ctx.sessions.refresh(body.refreshToken);
  });

  app.post('/api/auth/signout', async (request) => {
    const caller = await ctx.authenticate(request);
    const body = parse(refreshBody, request.body);
    await ctx.guards.refresh(request, request.ip);
    ctx.sessions.signOut(caller, body.refreshToken);
    return { success: true };
  });
}
