// POST /api/callable/:name in Firebase's callable protocol: `{"data": ...}` in, `{"result": ...}` or an
// ErrorBody out. Order (QUALITY.md): session, then validation, then ownership and existence (in the callable).
// As firebase-functions answers (issue #14 part 12): a request that accepts `text/event-stream` (the JS SDK's
// `stream()`) gets the same answer as one server-sent event, `data: {"result": …}` or `data: {"error": …}` with
// HTTP 200, and the stream ends; a GET is INVALID_ARGUMENT, not an unknown address.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { QupmError } from '../../core/errors';
import { callableEnvelope, callablePayloads } from '../../core/schemas';
import type { CallableName } from '../../core/schemas';
import type { ServerContext } from '../context';
import { callableParams, parse } from '../http';
import { callables } from '../services/callables';

// Own keys only: `constructor`, `__proto__` or `toString` are not callables.
const isCallableName = (name: string): name is CallableName => Object.hasOwn(callablePayloads, name);

/** Whether the caller asked for the streaming form (the SDK sends exactly `Accept: text/event-stream`). */
const wantsStream = (request: FastifyRequest): boolean =>
  (request.headers.accept ?? '').split(',').some((type) => type.trim().split(';')[0] === 'text/event-stream');

/**
 * The answer, already serialized (a result or an ErrorBody), as one server-sent event when the caller asked for
 * the stream: what firebase-functions sends, errors included (the SDK reads the body, not the status).
 */
async function asEvent(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (!wantsStream(request) || typeof payload !== 'string') return payload;
  void reply
    .code(200)
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache');
  return `data: ${payload}\n\n`;
}

export function registerCallableRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/api/callable/:name', async () => {
    throw new QupmError('INVALID_ARGUMENT', 'Call a function with POST and a JSON body {"data": …}.');
  });

  app.post('/api/callable/:name', { onSend: asEvent }, async (request) => {
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
