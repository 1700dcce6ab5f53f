// GET /api/push/config: the public VAPID key clients subscribe with (public by design, so no session needed), and
// GET /api/health.
import type { RouteHandlers } from '../api';
import type { ServerContext } from '../context';

export const pushRoutes = (ctx: ServerContext) =>
  ({
    health: { handle: () => ({ status: 'ok' }) },
    pushConfig: { handle: () => ({ vapidPublicKey: ctx.push.vapid.publicKey }) },
  }) satisfies Partial<RouteHandlers>;
