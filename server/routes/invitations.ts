// /api/invitations (create; list the caller's own) and /api/invitations/:id, its accept and activate
// (core/wire.ts API). Accept and activate take no body. Its preview is the one route here that needs no session
// (issue #13 part 8): a signed-out visitor of the link sees who invites to what, limited per IP.
import type { FastifyInstance } from 'fastify';
import { assertInviteeIsSomeoneElse } from '../../core/channels';
import { assertExpiry } from '../../core/expiry';
import { invitationCreateBody } from '../../core/schemas';
import type { ServerContext } from '../context';
import { idParams, parse } from '../http';
import {
  acceptInvitation,
  activateInvitation,
  createInvitation,
  listMyInvitations,
  previewInvitation,
  readInvitation,
} from '../services/invitations';
import { withVerifiedEmail } from '../services/emailVerification';

export function registerInvitationRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/api/invitations', async (request) => {
    const caller = await ctx.authenticate(request);
    const body = parse(invitationCreateBody, request.body);
    // Validation against the server's clock, still before the rate limit (server/README.md order of checks).
    assertExpiry(body.expiresAt, ctx.now());
    assertInviteeIsSomeoneElse(body.inviteeEmail, caller);
    await ctx.guards.callables(request, caller.uid);
    return createInvitation(ctx, caller, body);
  });

  app.get('/api/invitations', async (request) => {
    // An invitation bound to an email is theirs only once the address is confirmed (issue #15 part 2).
    const caller = withVerifiedEmail(ctx, await ctx.authenticate(request));
    await ctx.guards.documents(request, caller.uid);
    return { invitations: listMyInvitations(ctx, caller) };
  });

  app.get('/api/invitations/:id', async (request) => {
    // An invitation bound to an email is theirs only once the address is confirmed (issue #15 part 2).
    const caller = withVerifiedEmail(ctx, await ctx.authenticate(request));
    const { id } = parse(idParams, request.params);
    await ctx.guards.documents(request, caller.uid);
    return readInvitation(ctx, caller, id);
  });

  app.get('/api/invitations/:id/preview', async (request) => {
    const { id } = parse(idParams, request.params);
    await ctx.guards.invitationPreview(request, request.ip);
    return previewInvitation(ctx, id);
  });

  app.post('/api/invitations/:id/accept', async (request) => {
    // An invitation bound to an email is theirs only once the address is confirmed (issue #15 part 2).
    const caller = withVerifiedEmail(ctx, await ctx.authenticate(request));
    const { id } = parse(idParams, request.params);
    await ctx.guards.callables(request, caller.uid);
    return acceptInvitation(ctx, caller, id);
  });

  app.post('/api/invitations/:id/activate', async (request) => {
    // An invitation bound to an email is theirs only once the address is confirmed (issue #15 part 2).
    const caller = withVerifiedEmail(ctx, await ctx.authenticate(request));
    const { id } = parse(idParams, request.params);
    await ctx.guards.callables(request, caller.uid);
    return activateInvitation(ctx, caller, id);
  });
}
