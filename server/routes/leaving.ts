// GET /api/users/:uid/export and DELETE /api/users/:uid (core/wire.ts, core/leaving.ts): "Download my data" as a
// JSON file, and "Delete my account" with the password. Both only for the account itself.
import { accountExportFileName } from '../../core/leaving';
import type { RouteHandlers } from '../api';
import type { ServerContext } from '../context';
import { deleteAccount, exportAccount } from '../services/leaving';

export const leavingRoutes = (ctx: ServerContext) =>
  ({
    exportAccount: {
      // A file a person may open: indented, so written here rather than by the answer's compact serializer.
      handle: ({ caller, params, reply }) => {
        const data = exportAccount(ctx, caller, params.uid);
        return reply
          .header('Content-Type', 'application/json; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="${accountExportFileName(data.exportedAt)}"`)
          .header('Cache-Control', 'no-store')
          .send(JSON.stringify(data, null, 2));
      },
    },
    deleteAccount: {
      handle: async ({ caller, params, body }) => {
        await deleteAccount(ctx, caller, params.uid, body.password);
        return { success: true };
      },
    },
  }) satisfies Partial<RouteHandlers>;
