import net from 'node:net';
import { toAnswer } from '../../server/errors';
import { QupmError } from '../../core/errors';
import { demoIds, expectError, startTestServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

let server: TestServer;
let ids: DemoIds;

beforeAll(async () => {
  server = await startTestServer();
  // A route that fails unexpectedly, to see how an unknown exception is answered (added before the server is ready).
  server.app.get('/api/test/boom', async () => {
    throw new Error(`database exploded at ${__filename}`);
  });
  ids = await demoIds(server);
});
afterAll(() => server.close());

describe('bodies that are not what a route expects', () => {
  it('refuses a 1 MB string as INVALID_ARGUMENT (over the 64 KB body limit)', async () => {
    const res = await server.request('POST', '/api/auth/signin', {
      body: { email: 'member@qupm.demo', password: 'p'.repeat(1024 * 1024) },
    });
    expectError(res, 400, 'INVALID_ARGUMENT');
  });

  it.each([
    ['top level', '{"__proto__": {"isAdmin": true}, "email": "a@b.co", "password": "xxxxxxxx"}'],
    ['nested', '{"data": {"channel_id": "AAAAAAAAAAAAAAAAAAAA", "x": {"__proto__": {"polluted": 1}}}}'],
    ['constructor.prototype', '{"data": {"constructor": {"prototype": {"polluted": 1}}}}'],
  ])('refuses a __proto__ key (%s) and pollutes nothing', async (_label, payload) => {
    for (const url of ['/api/auth/signin', '/api/callable/check_channel_permissions']) {
      const res = await server.request('POST', url, { token: ids.token.member, payload });
      expectError(res, 400, 'INVALID_ARGUMENT');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('refuses a plain "constructor" key through the strict schemas', async () => {
    const res = await server.request('PATCH', `/api/users/${ids.uid.member}`, {
      token: ids.token.member,
      payload: '{"constructor": {"name": "x"}}',
    });
    expectError(res, 400, 'INVALID_ARGUMENT');
  });

  it.each([
    ['broken JSON', '{"email": '],
    ['an empty JSON body', ''],
    ['JSON that is only a number', '12'],
  ])('refuses %s', async (_label, payload) => {
    expectError(await server.request('POST', '/api/auth/signin', { payload }), 400, 'INVALID_ARGUMENT');
  });

  it('does not echo a broken body back', async () => {
    const res = await server.request('POST', '/api/auth/signin', { payload: '{"secret-password-123' });
    expect(res.body).not.toContain('secret-password-123');
  });

  it('refuses a body that is not JSON', async () => {
    const res = await server.request('POST', '/api/auth/signin', {
      payload: 'email=a@b.co&password=xxxxxxxx',
      contentType: 'application/x-www-form-urlencoded',
    });
    expectError(res, 400, 'INVALID_ARGUMENT');
    const text = await server.request('POST', '/api/auth/signin', {
      payload: 'hello',
      contentType: 'text/plain',
    });
    expectError(text, 400, 'INVALID_ARGUMENT');
  });

  it.each([
    ['signup', '/api/auth/signup', { email: ['a@b.co'], password: { length: 10 } }],
    ['messages', `/api/channels/AAAAAAAAAAAAAAAAAAAA/messages`, { text: ['hi'] }],
    [
      'tokens',
      `/api/users/AAAAAAAAAAAAAAAAAAAA/tokens`,
      { token: 1, deviceId: true, platform: null, userAgent: 0 },
    ],
  ])('refuses wrong types on %s', async (_label, url, body) => {
    const res = await server.request('POST', url, { token: ids.token.member, body });
    expect([400, 403]).toContain(res.statusCode);
    expectError(res, res.statusCode, res.statusCode === 400 ? 'INVALID_ARGUMENT' : 'PERMISSION_DENIED');
  });
});

describe('addresses that do not exist or do not parse', () => {
  it('answers an unknown API route with a JSON NOT_FOUND', async () => {
    expectError(await server.request('GET', '/api/nothing/here'), 404, 'NOT_FOUND');
    expectError(await server.request('POST', '/api/users'), 404, 'NOT_FOUND');
    expectError(await server.request('DELETE', '/api/health'), 404, 'NOT_FOUND');
  });

  it('answers a malformed URL with an ErrorBody', async () => {
    expectError(await server.request('GET', '/api/users/%E0%A4%A'), 400, 'INVALID_ARGUMENT');
  });

  it('answers an over-long path parameter with an ErrorBody', async () => {
    // The router matches no route for a parameter over 100 characters.
    expectError(
      await server.request('GET', `/api/users/${'a'.repeat(500)}`, { token: ids.token.member }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses a query key __proto__', async () => {
    const res = await server.request('GET', '/api/channels?__proto__=1&mine=true', {
      token: ids.token.member,
    });
    expectError(res, 400, 'INVALID_ARGUMENT');
  });
});

describe('malformed HTTP', () => {
  it('is answered with an ErrorBody before the connection closes', async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const address = server.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = net.connect(address.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      error: { status: 'INVALID_ARGUMENT', message: 'The request is not valid HTTP.' },
    });
  });
});

describe('unexpected failures', () => {
  it('answers INTERNAL "Something went wrong" without the stack, and logs it', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => {});
    const res = await server.request('GET', '/api/test/boom');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { status: 'INTERNAL', message: 'Something went wrong' } });
    expect(res.body).not.toContain(__filename);
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('maps domain errors to their HTTP status and framework errors to INVALID_ARGUMENT', () => {
    expect(toAnswer(new QupmError('NOT_FOUND', 'gone')).statusCode).toBe(404);
    expect(toAnswer(new QupmError('FAILED_PRECONDITION', 'used', 'invitation-used')).body).toEqual({
      error: { status: 'FAILED_PRECONDITION', message: 'used', details: { reason: 'invitation-used' } },
    });
    expect(
      toAnswer(Object.assign(new Error('x'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' }))
        .statusCode,
    ).toBe(400);
    expect(toAnswer('a thrown string')).toMatchObject({ statusCode: 500, unexpected: true });
    expect(
      toAnswer(new QupmError('INVALID_ARGUMENT', 'm'.repeat(1000))).body.error.message.length,
    ).toBeLessThanOrEqual(300);
  });
});

describe('API responses', () => {
  it('are never cached and carry the security headers', async () => {
    const res = await server.request('GET', `/api/users/${ids.uid.member}`, { token: ids.token.member });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  it('are never cached when they refuse, whether a route, the session or the path refused', async () => {
    const refusals = await Promise.all([
      server.request('GET', `/api/users/${ids.uid.member}`),
      server.request('POST', '/api/auth/signin', { payload: '{"secret-password-123' }),
      server.request('GET', '/api/no-such-route', { token: ids.token.member }),
    ]);
    expect(refusals.map((res) => [res.statusCode, res.headers['cache-control']])).toEqual([
      [401, 'no-store'],
      [400, 'no-store'],
      [404, 'no-store'],
    ]);
  });
});
