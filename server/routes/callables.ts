// POST /api/callable/:name in Firebase's callable protocol: `{"data": ...}` in, `{"result": ...}` or an
// ErrorBody out. Order (QUALITY.md): session, then validation, then ownership and existence (in the callable).
import type { FastifyInstance } from 'fastify';
import { QupmError } from '../../core/errors';
import { callableEnvelope, callablePayloads } from '../../core/schemas';
import type { CallableName } from '../../core/schemas';
import type { ServerContext } from '../context';
import { callableParams, parse } from '../http';
import { callables } from '../services/callables';

// Own keys only: `constructor`, `__proto__` or `toString` are not callables.
const isCallableName = (name: string): name is CallableName => Object.hasOwn(callablePayloads, name);

export function registerCallableRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/api/callable/:name', async (request) => {
    const caller = await ctx.authenticate(request);
    await ctx.guards.callables(request, caller.uid);
    const { name } = parse(callableParams, request.params);
    if (!isCallableName(name)) throw new QupmError('NOT_FOUND', 'There is no such function.');
    const { data } = parse(callableEnvelope, request.body);
    return { result: run(ctx, caller, name, data) };
  });
}

function run(
  ctx: ServerContext,
  caller: Parameters<typeof callables.get_user_active_offers>[1],
  name: CallableName,
  data: unknown,
): unknown {
  switch (name) {
    case 'check_channel_permissions':
      return callables.check_channel_permissions(ctx, caller, parse(callablePayloads[name], data));
    case 'get_user_active_offers':
      return callables.get_user_active_offers(ctx, caller, parse(callablePayloads[name], data));
    case 'clear_pending_notifications':
      return callables.clear_pending_notifications(ctx, caller, parse(callablePayloads[name], data));
  }
}
