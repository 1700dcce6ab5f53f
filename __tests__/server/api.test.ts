// The API as core/wire.ts's table declares it: every route registered from the table, the one authentication
// hook (every route not marked public refuses a request without a session before reading anything, a public one
// never asks for one), the admin claim checked after the validation, and answers written from their schemas.
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { ROUTES } from '../../core/wire';
import type { RouteName } from '../../core/wire';
import { registerApi } from '../../server/api';
import type { RouteHandler, RouteHandlers } from '../../server/api';
import type { TokenCaller } from '../../server/auth/accessTokens';
import type { ServerContext } from '../../server/context';
import { createGuards } from '../../server/rateLimits';
import { pushRoutes } from '../../server/routes/push';
import { expectError, withDemoServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

let server: TestServer;
let ids: DemoIds;
withDemoServer((world) => ({ server, ids } = world), { once: true });

const names = Object.keys(ROUTES) as RouteName[];
/** A path of the route with every param filled in by a well-formed id. */
const pathOf = (name: RouteName): string => ROUTES[name].path.replace(/:[A-Za-z]+/g, 'AAAAAAAAAAAAAAAAAAAA');

describe('the route table', () => {
  it.each(names)('registers %s', (name) => {
    const app: FastifyInstance = server.app;
    expect(app.hasRoute({ method: ROUTES[name].method, url: ROUTES[name].path })).toBe(true);
  });

  it('lets no route without a handler compile', () => {
    // A type error, checked by `npm run typecheck`: a table route missing from the handlers.
    const partial = (ctx: ServerContext) => {
      // @ts-expect-error: every route of core/wire.ts but health and pushConfig is missing
      const handlers: RouteHandlers = { ...pushRoutes(ctx) };
      return handlers;
    };
    expect(typeof partial).toBe('function');
  });
});

describe('the authentication hook', () => {
  const signedIn = names.filter((name) => ROUTES[name].access !== 'public');
  const open = names.filter((name) => ROUTES[name].access === 'public');

  it.each(signedIn)('refuses %s without a session, before reading its input', async (name) => {
    const res = await server.request(ROUTES[name].method, pathOf(name), {
      payload: '{"not json',
      contentType: 'application/json',
    });
    expectError(res, 401, 'UNAUTHENTICATED');
  });

  it.each(signedIn)('refuses %s with a token that is not one', async (name) => {
    const res = await server.request(ROUTES[name].method, pathOf(name), { token: 'not.a.token' });
    expectError(res, 401, 'UNAUTHENTICATED');
  });

  it.each(open)('never asks for a session on %s', async (name) => {
    const res = await server.request(ROUTES[name].method, pathOf(name));
    expect(res.statusCode).not.toBe(401);
  });

  it('still answers an unknown address under /api as NOT_FOUND, session or not', async () => {
    expectError(await server.request('GET', '/api/no-such-route'), 404, 'NOT_FOUND');
    expectError(
      await server.request('GET', '/api/no-such-route', { token: ids.token.member }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('the admin claim', () => {
  it('is checked after the validation', async () => {
    const url = `/api/admin/users/${ids.uid.visitor}/role`;
    const invalid = await server.request('POST', url, { token: ids.token.member, body: { isOwner: 'yes' } });
    expectError(invalid, 400, 'INVALID_ARGUMENT');
    const valid = await server.request('POST', url, { token: ids.token.member, body: { isOwner: true } });
    expect(expectError(valid, 403, 'PERMISSION_DENIED').message).toBe('Only admins can do this.');
  });

  it('opens the admin routes to an admin', async () => {
    const res = await server.request('GET', '/api/admin/users', { token: ids.token.admin });
    expect(res.statusCode).toBe(200);
  });

  describe('from the table alone', () => {
    // The admin services check the claim again; these handlers check nothing, so only the table's claim stands
    // between a caller without it and an admin route's handler.
    const adminRoutes = names.filter((name) => ROUTES[name].access === 'admin');
    const caller = (isAdmin: boolean): TokenCaller => ({
      uid: 'caller',
      email: 'caller@example.com',
      isAdmin,
      sessionId: null,
      expiresAt: Number.MAX_SAFE_INTEGER,
    });
    const apiAs = async (isAdmin: boolean) => {
      const app = Fastify();
      const handled: string[] = [];
      const handlers = Object.fromEntries(
        names.map((name): [RouteName, RouteHandler<RouteName>] => [
          name,
          { handle: ({ reply }) => (handled.push(name), reply.send('handled')) },
        ]),
      ) as unknown as RouteHandlers;
      const ctx = { guards: await createGuards(app, false) } as unknown as ServerContext;
      await registerApi(app, {
        ctx,
        handlers,
        authenticate: async () => caller(isAdmin),
        checkAnswers: false,
        uploadLimitBytes: 1024,
        uploadTooLarge: () => new Error('too large'),
      });
      return { app, handled };
    };
    const adminRequest = (app: FastifyInstance, name: RouteName) =>
      app.inject({
        method: ROUTES[name].method,
        url: pathOf(name),
        ...('body' in ROUTES[name] ? { payload: { isOwner: true } } : {}),
      });

    it('keeps every admin route from a caller without it', async () => {
      expect(adminRoutes.length).toBeGreaterThan(0);
      const { app, handled } = await apiAs(false);
      for (const name of adminRoutes) {
        const res = await adminRequest(app, name);
        expect(res.body).toMatch(/Only admins can do this\./);
      }
      expect(handled).toEqual([]);
      await app.close();
    });

    it('lets an admin through to the handler', async () => {
      const { app, handled } = await apiAs(true);
      for (const name of adminRoutes) expect((await adminRequest(app, name)).body).toBe('handled');
      expect(handled).toEqual(adminRoutes);
      await app.close();
    });
  });
});

describe('validation', () => {
  it('names the first issue with its path, in the words of core/schemas.ts', async () => {
    const res = await server.request('POST', `/api/channels/${ids.strategy}/read`, {
      token: ids.token.member,
      body: { messageId: 'short' },
    });
    expect(expectError(res, 400, 'INVALID_ARGUMENT').message).toBe('messageId: not a QuPM id');
  });

  it('says a missing body is missing, and a JSON null is null', async () => {
    const url = `/api/channels/${ids.strategy}/read`;
    const missing = await server.request('POST', url, { token: ids.token.member });
    expect(expectError(missing, 400, 'INVALID_ARGUMENT').message).toMatch(/received undefined$/);
    const nothing = await server.request('POST', url, { token: ids.token.member, payload: 'null' });
    expect(expectError(nothing, 400, 'INVALID_ARGUMENT').message).toMatch(/received null$/);
  });
});

describe('answers', () => {
  it('are written from their schema, every field of the document kept', async () => {
    const res = await server.request('GET', `/api/users/${ids.uid.member}`, { token: ids.token.member });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json<Record<string, unknown>>()).sort()).toEqual(
      [
        'credits',
        'displayName',
        'effectiveConId',
        'email',
        'isOwner',
        'nickname',
        'notificationSettings',
        'passCount',
        'uid',
      ].sort(),
    );
  });
});
