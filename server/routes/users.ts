// GET/PATCH /api/users/:uid and the token documents under it (core/wire.ts).
import type { RouteHandlers } from '../api';
import type { ServerContext } from '../context';
import { assertDeliverableToken } from '../services/push';
import { addToken, deleteToken, listTokens, readUser, touchToken, updateProfile } from '../services/users';

export const userRoutes = (ctx: ServerContext) =>
  ({
    getUser: { handle: ({ caller, params }) => readUser(ctx, caller, params.uid) },
    updateUser: { handle: ({ caller, params, body }) => updateProfile(ctx, caller, params.uid, body) },
    listTokens: {
      handle: ({ caller, params, query }) => ({ tokens: listTokens(ctx, caller, params.uid, query) }),
    },
    addToken: {
      // A Web Push subscription to a push service this server may reach, checked with the validation.
      check: ({ body }) => assertDeliverableToken(ctx.push, body.token),
      handle: ({ caller, params, body }) => addToken(ctx, caller, params.uid, body, caller.sessionId),
    },
    touchToken: {
      handle: ({ caller, params }) => touchToken(ctx, caller, params.uid, params.id, caller.sessionId),
    },
    deleteToken: {
      handle: ({ caller, params }) => {
        deleteToken(ctx, caller, params.uid, params.id);
        return { success: true };
      },
    },
  }) satisfies Partial<RouteHandlers>;
