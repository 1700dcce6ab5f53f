// GET /api/users/:uid/export and DELETE /api/users/:uid (issue #15 part 7, core/wire.ts API): "Download my data"
// as a JSON file, and "Delete my account" with the password. Both only for the account itself.
import type { FastifyInstance } from 'fastify';
import { accountExportFileName } from '../../core/leaving';
import { accountDeleteBody } from '../../core/schemas';
import type { ServerContext } from '../context';
import { parse, uidParams } from '../http';
import { deleteAccount, exportAccount } from '../services/leaving';

export function registerLeavingRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/api/users/:uid/export', async (request, reply) => {
    const caller = await ctx.authenticate(request);
    const { uid } = parse(uidParams, request.params);
    await ctx.guards.documents(request, caller.uid);
    const data = exportAccount(ctx, caller, uid);
    return reply
      .header('Content-Type', 'application/json; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${accountExportFileName(data.exportedAt)}"`)
      .header('Cache-Control', 'no-store')
      .send(JSON.stringify(data, null, 2));
  });

  app.delete('/api/users/:uid', async (request) => {
    const caller = await ctx.authenticate(request);
    const { uid } = parse(uidParams, request.params);
    const { password } = parse(accountDeleteBody, request.body);
    // As sign-in's: 10 password attempts a minute per address and account.
    await ctx.guards.auth(request, `${request.ip}|delete-account|${caller.uid}`);
    await deleteAccount(ctx, caller, uid, password);
    return { success: true };
  });
}
