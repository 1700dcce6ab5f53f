// GET /api/push/config: the public VAPID key clients subscribe with (public by design, so no session needed).
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';

export function registerPushRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/api/push/config', async () => ({ vapidPublicKey: ctx.push.vapid.publicKey }));
}
