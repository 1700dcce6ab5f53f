// /api/invitations (create; list the caller's own) and /api/invitations/:id, its accept and activate
// (core/wire.ts). Accept and activate take no body. Its preview is the one route here that needs no session
// (the table marks it public): a signed-out visitor of the link sees who invites to what, limited per IP.
import { assertInviteeIsSomeoneElse } from '../../core/channels';
import { assertExpiry } from '../../core/expiry';
import type { RouteHandlers } from '../api';
import type { ServerContext } from '../context';
import {
  acceptInvitation,
  activateInvitation,
  createInvitation,
  listMyInvitations,
  previewInvitation,
  readInvitation,
} from '../services/invitations';
import { withVerifiedEmail } from '../services/emailVerification';

export const invitationRoutes = (ctx: ServerContext) =>
  ({
    createInvitation: {
      // Validation against the server's clock, still before the rate limit (server/README.md order of checks).
      check: ({ caller, body }) => {
        assertExpiry(body.expiresAt, ctx.now());
        assertInviteeIsSomeoneElse(body.inviteeEmail, caller);
      },
      handle: ({ caller, body }) => createInvitation(ctx, caller, body),
    },
    // An invitation bound to an email is theirs only once the address is confirmed.
    listMyInvitations: {
      handle: ({ caller }) => ({ invitations: listMyInvitations(ctx, withVerifiedEmail(ctx, caller)) }),
    },
    getInvitation: {
      handle: ({ caller, params }) => readInvitation(ctx, withVerifiedEmail(ctx, caller), params.id),
    },
    previewInvitation: { handle: ({ params }) => previewInvitation(ctx, params.id) },
    acceptInvitation: {
      handle: ({ caller, params }) => acceptInvitation(ctx, withVerifiedEmail(ctx, caller), params.id),
    },
    activateInvitation: {
      handle: ({ caller, params }) => activateInvitation(ctx, withVerifiedEmail(ctx, caller), params.id),
    },
  }) satisfies Partial<RouteHandlers>;
