// /api/admin/… (core/wire.ts): the admin section. The table gives it to the isAdmin claim only (checked after the
// session, the validation and the rate limit, as every ownership check is).
import type { RouteHandlers } from '../api';
import type { ServerContext } from '../context';
import { listChannels, listUsers, setConsultant } from '../services/admin';

export const adminRoutes = (ctx: ServerContext) =>
  ({
    adminUsers: { handle: ({ caller }) => ({ users: listUsers(ctx, caller) }) },
    adminSetRole: {
      handle: ({ caller, params, body }) => setConsultant(ctx, caller, params.uid, body.isOwner),
    },
    adminChannels: { handle: ({ caller }) => ({ channels: listChannels(ctx, caller) }) },
  }) satisfies Partial<RouteHandlers>;
