// POST /api/callable/:name in Firebase's callable protocol: `{"data": ...}` in, `{"result": ...}` or an
// ErrorBody out. Order (QUALITY.md): session, then validation, then ownership and existence (in the callable).
// As firebase-functions answers: a request that accepts `text/event-stream` (the JS SDK's
// `stream()`) gets the same answer as one server-sent event, `data: {"result": …}` or `data: {"error": …}` with
// HTTP 200, and the stream ends; a GET is INVALID_ARGUMENT, not an unknown address.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { QupmError } from '../../core/errors';
import type { RouteHandlers } from '../api';
import type { ServerContext } from '../context';
import { runCallable } from '../services/callables';

/** Whether the caller asked for the streaming form (the SDK sends exactly `Accept: text/event-stream`). */
const wantsStream = (request: FastifyRequest): boolean =>
  (request.headers.accept ?? '').split(',').some((type) => type.trim().split(';')[0] === 'text/event-stream');

/**
 * The answer, already serialized (a result or an ErrorBody), as one server-sent event when the caller asked for
 * the stream: what firebase-functions sends, errors included (the SDK reads the body, not the status). A callback
 * hook, not an async one: every callable's answer passes here.
 */
function asEvent(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  if (!wantsStream(request) || typeof payload !== 'string') {
    done(null, payload);
    return;
  }
  void reply
    .code(200)
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache');
  done(null, `data: ${payload}\n\n`);
}

export const callableRoutes = (ctx: ServerContext) =>
  ({
    callableByGet: {
      handle: () => {
        throw new QupmError('INVALID_ARGUMENT', 'Call a function with POST and a JSON body {"data": …}.');
      },
    },
    callable: {
      onSend: asEvent,
      handle: ({ caller, params, body }) => ({ result: runCallable(ctx, caller, params.name, body.data) }),
    },
  }) satisfies Partial<RouteHandlers>;
