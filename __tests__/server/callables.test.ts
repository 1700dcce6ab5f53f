import type { Offer } from '../../core/model';
import { expectError, withDemoServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

let server: TestServer;
let ids: DemoIds;

withDemoServer((world) => ({ server, ids } = world), { once: true });

const DAY = 24 * 60 * 60 * 1000;
const call = (name: string, data: unknown, token?: string) =>
  server.request('POST', `/api/callable/${name}`, {
    ...(token !== undefined ? { token } : {}),
    body: data === undefined ? {} : { data },
  });

describe('check_channel_permissions', () => {
  it.each([
    ['consultant', { canMessage: true, isOwner: true }],
    ['member', { canMessage: true, isOwner: false }],
    ['visitor', { canMessage: false, isOwner: false }],
    ['admin', { canMessage: false, isOwner: false }],
  ] as const)('answers the %s’s permissions from the stored channel', async (role, permissions) => {
    const res = await call('check_channel_permissions', { channel_id: ids.strategy }, ids.token[role]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ result: { permissions } });
  });

  it('ignores a channel_owner_id that lies', async () => {
    const res = await call(
      'check_channel_permissions',
      { channel_id: ids.strategy, channel_owner_id: ids.uid.visitor },
      ids.token.visitor,
    );
    expect(res.json()).toEqual({ result: { permissions: { canMessage: false, isOwner: false } } });
    const honest = await call(
      'check_channel_permissions',
      { channel_id: ids.strategy, channel_owner_id: 'someone-else' },
      ids.token.consultant,
    );
    expect(honest.json()).toEqual({ result: { permissions: { canMessage: true, isOwner: true } } });
  });

  it('answers NOT_FOUND for an unknown channel', async () => {
    expectError(
      await call('check_channel_permissions', { channel_id: 'AAAAAAAAAAAAAAAAAAAA' }, ids.token.member),
      404,
      'NOT_FOUND',
    );
  });

  it.each([
    ['no data', undefined],
    ['null data', null],
    ['a missing channel_id', {}],
    ['a channel_id of the wrong type', { channel_id: 123 }],
    ['a channel_id that is not an id', { channel_id: '../../etc/passwd' }],
    ['a channel_owner_id of the wrong type', { channel_id: 'AAAAAAAAAAAAAAAAAAAA', channel_owner_id: 7 }],
    ['an extra field', { channel_id: 'AAAAAAAAAAAAAAAAAAAA', isOwner: true }],
    ['a 1 MB string... (within the body limit: 60 KB)', { channel_id: 'x'.repeat(60_000) }],
  ])('refuses %s as INVALID_ARGUMENT, never INTERNAL', async (_label, data) => {
    expectError(await call('check_channel_permissions', data, ids.token.member), 400, 'INVALID_ARGUMENT');
  });

  it('checks the session before anything else', async () => {
    expectError(await call('check_channel_permissions', { channel_id: 5 }), 401, 'UNAUTHENTICATED');
    expectError(await call('no_such_function', {}), 401, 'UNAUTHENTICATED');
  });
});

describe('get_user_active_offers', () => {
  it('answers the caller’s active offers only, with exactly the spec’s fields', async () => {
    const res = await call('get_user_active_offers', null, ids.token.member);
    const { offers } = res.json<{ result: { offers: Offer[] } }>().result;
    // Soonest to expire first; the demo member's expired offer is not among them.
    expect(offers).toEqual([
      {
        offeringId: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
        discountPercent: 15,
        source: 'Follow-up session',
        channelId: ids.strategy,
        status: 'active',
        expiresAt: server.clock.now() + 20 * 60 * 60 * 1000,
        createdAt: expect.any(Number),
      },
      {
        offeringId: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
        discountPercent: 20,
        source: 'Pricing review',
        channelId: ids.strategy,
        status: 'active',
        expiresAt: server.clock.now() + 14 * DAY,
        createdAt: expect.any(Number),
      },
    ]);
  });

  it('answers an empty list for someone without offers', async () => {
    expect((await call('get_user_active_offers', null, ids.token.visitor)).json()).toEqual({
      result: { offers: [] },
    });
    expect((await call('get_user_active_offers', {}, ids.token.consultant)).json()).toEqual({
      result: { offers: [] },
    });
  });

  it('stops listing an offer once it expires', async () => {
    server.clock.advance(15 * DAY);
    try {
      const token = (await server.signIn('member')).accessToken;
      expect((await call('get_user_active_offers', null, token)).json()).toEqual({ result: { offers: [] } });
    } finally {
      server.clock.advance(-15 * DAY);
    }
  });

  it('refuses a payload', async () => {
    expectError(
      await call('get_user_active_offers', { userId: ids.uid.member }, ids.token.visitor),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(await call('get_user_active_offers', 'all', ids.token.visitor), 400, 'INVALID_ARGUMENT');
  });
});

describe('clear_pending_notifications', () => {
  const pendingOf = (uid: string) =>
    server.query<{ count: number }>('SELECT count FROM pending_notifications WHERE uid = ?', uid);

  it('clears the caller’s own pending counts', async () => {
    expect(pendingOf(ids.uid.member).length).toBeGreaterThan(0);
    const res = await call('clear_pending_notifications', { userId: ids.uid.member }, ids.token.member);
    expect(res.json()).toEqual({ result: { success: true } });
    expect(pendingOf(ids.uid.member)).toEqual([]);
  });

  it('refuses another user’s id with PERMISSION_DENIED and clears nothing', async () => {
    await server.request('POST', `/api/channels/${ids.strategy}/messages`, {
      token: ids.token.member,
      body: { text: 'ping' },
    });
    const before = pendingOf(ids.uid.consultant);
    expect(before.length).toBeGreaterThan(0);
    expectError(
      await call('clear_pending_notifications', { userId: ids.uid.consultant }, ids.token.member),
      403,
      'PERMISSION_DENIED',
    );
    expect(pendingOf(ids.uid.consultant)).toEqual(before);
  });

  it('lets an admin clear anyone’s, and answers NOT_FOUND for an unknown user', async () => {
    const res = await call('clear_pending_notifications', { userId: ids.uid.consultant }, ids.token.admin);
    expect(res.json()).toEqual({ result: { success: true } });
    expect(pendingOf(ids.uid.consultant)).toEqual([]);
    expectError(
      await call('clear_pending_notifications', { userId: 'nobody' }, ids.token.admin),
      404,
      'NOT_FOUND',
    );
  });

  it('validates before checking ownership', async () => {
    expectError(
      await call('clear_pending_notifications', { userId: 42 }, ids.token.member),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(await call('clear_pending_notifications', {}, ids.token.member), 400, 'INVALID_ARGUMENT');
    expectError(
      await call('clear_pending_notifications', { userId: ids.uid.member, all: true }, ids.token.member),
      400,
      'INVALID_ARGUMENT',
    );
  });

  it('needs a session', async () => {
    expectError(
      await call('clear_pending_notifications', { userId: ids.uid.member }),
      401,
      'UNAUTHENTICATED',
    );
  });
});

describe('the callable protocol', () => {
  it.each(['no_such_function', 'constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'answers NOT_FOUND for %s',
    async (name) => {
      expectError(await call(name, {}, ids.token.member), 404, 'NOT_FOUND');
    },
  );

  it.each([
    ['a body without the data envelope', { channel_id: 'AAAAAAAAAAAAAAAAAAAA' }],
    ['an envelope with an extra key', { data: null, extra: 1 }],
    ['an empty body object (Firebase always sends data, null when there is none)', {}],
    ['an array', [1, 2]],
    ['a string', 'data'],
  ])('refuses %s', async (_label, body) => {
    const res = await server.request('POST', '/api/callable/get_user_active_offers', {
      token: ids.token.member,
      body,
    });
    expectError(res, 400, 'INVALID_ARGUMENT');
  });
});
