// The API under /api, registered from core/wire.ts's route table: one encapsulated plugin whose one onRequest
// hook authenticates every route the table does not mark public, then Fastify's own lifecycle in the order of
// checks (server/README.md): session (onRequest), validation (the route's zod schemas, server/typeProvider.ts),
// the route's own checks and its rate-limit class, the table's admin claim (preHandler), then the handler, whose
// answer is written from its schema. A route of the table without a handler, or a handler for a route the table
// does not have, is a type error (RouteHandlers).
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { assertAdmin } from '../core/admin';
import * as inputs from '../core/schemas';
import { ROUTES } from '../core/wire';
import type {
  RouteAnswer,
  RouteBody,
  RouteKind,
  RouteName,
  RouteParams,
  RouteQuery,
  RouteSpec,
  Routes,
} from '../core/wire';
import type { TokenCaller } from './auth/accessTokens';
import type { ServerContext } from './context';
import { limitRequest } from './rateLimits';
import { createSerializerCompiler, NO_BODY, validateInput, validatorCompiler } from './typeProvider';
import type { ZodTypeProvider } from './typeProvider';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller of a route the table does not mark public (set by the /api onRequest hook). */
    caller: TokenCaller | null;
  }
  interface FastifyContextConfig {
    /** Who may call the route (core/wire.ts Access), read by the authentication hook. */
    access?: RouteSpec['access'];
  }
}

/** What a handler of route K is given: its caller (none on a public route) and its validated inputs. */
export interface RouteInput<K extends RouteName> {
  caller: Routes[K]['access'] extends 'public' ? null : TokenCaller;
  params: RouteParams<K>;
  query: RouteQuery<K>;
  /** An upload's body is its bytes. */
  body: Routes[K]['kind'] extends 'upload' ? Buffer | undefined : RouteBody<K>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A JSON route answers its schema's model type; any route may answer through `reply` itself (a file, a page). */
type Answer<K extends RouteName> =
  (Routes[K]['kind'] extends 'json' | 'upload' ? RouteAnswer<K> : never) | FastifyReply;

export interface RouteHandler<K extends RouteName> {
  /**
   * Checks beyond the schemas that belong with the validation (the server's clock, core's words for a value):
   * after it, before the rate limit.
   */
  check?(input: RouteInput<K>): void;
  /** An upload's checks before its body is read (membership), after its session, validation and rate limit. */
  beforeBody?(input: Omit<RouteInput<K>, 'body'>): void;
  /** The answer as it leaves, errors included (the callables' event-stream form), handed to `done`. */
  onSend?(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: null, payload: unknown) => void,
  ): void;
  handle(input: RouteInput<K>): Answer<K> | Promise<Answer<K>>;
}

export type RouteHandlers = { [K in RouteName]: RouteHandler<K> };

export interface ApiOptions {
  ctx: ServerContext;
  handlers: RouteHandlers;
  /**
   * The caller of a request with a valid bearer access token of a live session; UNAUTHENTICATED otherwise
   * (thrown, or the promise's rejection). Without a promise when it can answer at once.
   */
  authenticate(request: FastifyRequest): TokenCaller | Promise<TokenCaller>;
  /** Read every answer with its schema before it leaves (tests: server/typeProvider.ts). */
  checkAnswers: boolean;
  /** Bodies of upload routes: their raw bytes, up to this many. */
  uploadLimitBytes: number;
  /** An upload's body over the limit: the words for it. */
  uploadTooLarge: () => Error;
}

const API_PREFIX = '/api';

/** Marks a missing body so its schema's words say "undefined", as they did before Fastify validated it. */
function markMissingBody(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  if (request.body === undefined) request.body = NO_BODY;
  done();
}

/**
 * A handler's answer as Fastify takes it: a plain answer at once (a sync route handler's value is sent as it is);
 * a reply or a promise as an async handler's, as they always were. An async wrapper cost every request a promise
 * and a turn of the microtask queue.
 */
function answerOf(answer: unknown, reply: FastifyReply): unknown {
  const thenable = typeof (answer as { then?: unknown } | null)?.then === 'function';
  return answer === reply || thenable ? Promise.resolve(answer) : answer;
}

export async function registerApi(app: FastifyInstance, options: ApiOptions): Promise<void> {
  const { ctx, handlers, authenticate } = options;

  const routeOf = (name: RouteName): RouteOptions => {
    const spec: RouteSpec = ROUTES[name];
    const handler = handlers[name] as unknown as RouteHandler<RouteName>;
    const early = spec.kind === 'upload';
    const input = (request: FastifyRequest, reply: FastifyReply): RouteInput<RouteName> =>
      ({
        caller: request.caller,
        params: request.params,
        query: request.query,
        body: request.body === NO_BODY ? undefined : request.body,
        request,
        reply,
      }) as RouteInput<RouteName>;
    const guard = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      handler.check?.(input(request, reply));
      await limitRequest(ctx.guards, spec.rate, {
        request,
        caller: request.caller,
        body: request.body,
      });
      if (spec.access === 'admin' && request.caller) assertAdmin(request.caller);
    };
    const schema: Record<string, unknown> = {};
    if (!early && spec.params) schema.params = inputs[spec.params];
    if (!early && spec.query) schema.querystring = inputs[spec.query];
    if (spec.body) schema.body = inputs[spec.body];
    if (spec.answer) schema.response = { 200: spec.answer };
    return {
      method: spec.method,
      url: spec.path.slice(API_PREFIX.length),
      config: { access: spec.access },
      schema,
      ...(spec.body ? { preValidation: markMissingBody } : {}),
      ...(handler.onSend ? { onSend: handler.onSend } : {}),
      ...(early
        ? {
            // Before the body is read: who, what, how often, and whether they may post files here at all.
            onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
              if (spec.params) request.params = validateInput(inputs[spec.params], request.params);
              if (spec.query) request.query = validateInput(inputs[spec.query], request.query);
              await guard(request, reply);
              handler.beforeBody?.(input(request, reply));
            },
          }
        : { preHandler: guard }),
      handler: (request, reply) => answerOf(handler.handle(input(request, reply)), reply),
    };
  };

  const names = (kinds: readonly RouteKind[]): RouteName[] =>
    (Object.keys(ROUTES) as RouteName[]).filter((name) => kinds.includes(ROUTES[name].kind));

  await app.register(
    async (api) => {
      const typed = api.withTypeProvider<ZodTypeProvider>();
      typed.setValidatorCompiler(validatorCompiler);
      typed.setSerializerCompiler(createSerializerCompiler({ check: options.checkAnswers }));
      typed.decorateRequest('caller', null);
      // The one authentication of the API: every route but those the table marks public. Without a promise for
      // a token verified lately (nearly every request).
      typed.addHook('onRequest', (request, _reply, done) => {
        const { access } = request.routeOptions.config;
        if (access === undefined || access === 'public') {
          done();
          return;
        }
        let caller: TokenCaller | Promise<TokenCaller>;
        try {
          caller = authenticate(request);
        } catch (error) {
          done(error as Error);
          return;
        }
        if (!(caller instanceof Promise)) {
          request.caller = caller;
          done();
          return;
        }
        caller.then(
          (verified) => {
            request.caller = verified;
            done();
          },
          (error: unknown) => done(error as Error),
        );
      });

      for (const name of names(['json', 'download', 'stream'])) typed.route(routeOf(name));

      await typed.register(async (scope) => {
        // Only uploads take raw bytes, of any declared type (the declared type is ignored: the bytes decide).
        scope.removeAllContentTypeParsers();
        scope.addContentTypeParser(
          '*',
          { parseAs: 'buffer', bodyLimit: options.uploadLimitBytes },
          (_request, body, done) => done(null, body),
        );
        scope.setErrorHandler((error) => {
          // Fastify's own "too large" names the JSON limit; this one names the file limit.
          if ((error as { code?: unknown }).code === 'FST_ERR_CTP_BODY_TOO_LARGE')
            throw options.uploadTooLarge();
          throw error;
        });
        for (const name of names(['upload'])) scope.route(routeOf(name));
      });

      await typed.register(async (scope) => {
        // Only the mailed pages read forms; the rest of the API stays JSON only.
        scope.addContentTypeParser(
          ['application/x-www-form-urlencoded', 'multipart/form-data'],
          { parseAs: 'string', bodyLimit: 4096 },
          (_request, body, done) => done(null, body),
        );
        for (const name of names(['page'])) scope.route(routeOf(name));
      });
    },
    { prefix: API_PREFIX },
  );
}
