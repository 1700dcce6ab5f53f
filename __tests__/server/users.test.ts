import type { PushTokenDoc, UserDoc } from '../../core/model';
import { expectError, withDemoServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';
import { pushToken, pushTokens } from '../../drivers/webPushTokens';

const TOKENS = pushTokens([
  'aaaaaaaaaaaa',
  'b-new-000000',
  'b-old-000000',
  'c-one-000000',
  'c-two-000000',
  'd-000000000',
  'e-000000000',
  'shared-00000',
  'x-000000000',
  'z-000000000',
]);

let server: TestServer;
let ids: DemoIds;

withDemoServer((world) => ({ server, ids } = world), { once: true });

const getUser = (token: string, uid: string) => server.request('GET', `/api/users/${uid}`, { token });
const patchUser = (token: string, uid: string, body: unknown) =>
  server.request('PATCH', `/api/users/${uid}`, { token, body });

describe('reading a user document', () => {
  it('gives the member their balances and the consultant they are connected to', async () => {
    const doc = (await getUser(ids.token.member, ids.uid.member)).json<UserDoc>();
    expect(doc).toMatchObject({
      uid: ids.uid.member,
      email: 'member@qupm.demo',
      isOwner: false,
      nickname: 'Morgan',
      displayName: 'Morgan Reyes',
      credits: 3,
      passCount: 1,
      effectiveConId: ids.uid.consultant,
    });
  });

  it('gives a consultant their own uid as effectiveConId, and a visitor an empty one', async () => {
    const consultant = (await getUser(ids.token.consultant, ids.uid.consultant)).json<UserDoc>();
    expect(consultant).toMatchObject({
      isOwner: true,
      effectiveConId: ids.uid.consultant,
      domainId: 'whitfield-advisory',
    });
    const visitor = (await getUser(ids.token.visitor, ids.uid.visitor)).json<UserDoc>();
    expect(visitor).toMatchObject({ isOwner: false, effectiveConId: '', credits: 0, passCount: 0 });
  });

  it("refuses another user's document", async () => {
    expectError(await getUser(ids.token.visitor, ids.uid.member), 403, 'PERMISSION_DENIED');
  });

  it('lets an admin read any document, and answers NOT_FOUND for one that does not exist', async () => {
    expect((await getUser(ids.token.admin, ids.uid.member)).statusCode).toBe(200);
    expectError(await getUser(ids.token.admin, 'AAAAAAAAAAAAAAAAAAAA'), 404, 'NOT_FOUND');
  });

  it('refuses an id that is not a QuPM id before anything else', async () => {
    expectError(await getUser(ids.token.member, 'not-an-id'), 400, 'INVALID_ARGUMENT');
  });

  it('needs a session first', async () => {
    expectError(await server.request('GET', `/api/users/not-an-id`), 401, 'UNAUTHENTICATED');
  });
});

describe('changing a user document', () => {
  it('changes the nickname and notification settings', async () => {
    const res = await patchUser(ids.token.visitor, ids.uid.visitor, {
      nickname: '  Sam  ',
      notificationSettings: { enabled: true, delivery: { channels: ['push'] } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<UserDoc>()).toMatchObject({
      nickname: 'Sam',
      notificationSettings: { enabled: true, delivery: { channels: ['push'] } },
    });
    expect((await getUser(ids.token.visitor, ids.uid.visitor)).json<UserDoc>().nickname).toBe('Sam');
  });

  it('removes the nickname when it is set to an empty string', async () => {
    await patchUser(ids.token.visitor, ids.uid.visitor, { nickname: 'Temp' });
    const res = await patchUser(ids.token.visitor, ids.uid.visitor, { nickname: '' });
    expect(res.json<UserDoc>().nickname).toBeUndefined();
  });

  it.each([
    ['isOwner', { isOwner: true }],
    ['domainId', { domainId: 'mine' }],
    ['credits', { credits: 1000 }],
    ['passCount', { passCount: 99 }],
    ['isAdmin', { isAdmin: true }],
    ['admin', { admin: true }],
    ['effectiveConId', { effectiveConId: 'AAAAAAAAAAAAAAAAAAAA' }],
    ['email', { email: 'boss@qupm.demo' }],
    ['a role field beside a valid one', { nickname: 'ok', isOwner: true }],
  ])('refuses %s and changes nothing', async (_label, body) => {
    const before = (await getUser(ids.token.member, ids.uid.member)).json<UserDoc>();
    expectError(await patchUser(ids.token.member, ids.uid.member, body), 400, 'INVALID_ARGUMENT');
    expect((await getUser(ids.token.member, ids.uid.member)).json<UserDoc>()).toEqual(before);
  });

  it.each([
    ['an empty patch', {}],
    ['a nickname of the wrong type', { nickname: 42 }],
    ['a nickname that is too long', { nickname: 'n'.repeat(41) }],
    [
      'an unknown delivery channel',
      { notificationSettings: { enabled: true, delivery: { channels: ['fax'] } } },
    ],
    [
      'repeated delivery channels',
      { notificationSettings: { enabled: true, delivery: { channels: ['push', 'push'] } } },
    ],
    ['an array', [{ nickname: 'x' }]],
    ['null', null],
  ])('refuses %s', async (_label, body) => {
    expectError(await patchUser(ids.token.member, ids.uid.member, body), 400, 'INVALID_ARGUMENT');
  });

  it("refuses to change another user's document, even for an admin", async () => {
    expectError(
      await patchUser(ids.token.visitor, ids.uid.member, { nickname: 'hacked' }),
      403,
      'PERMISSION_DENIED',
    );
    expectError(
      await patchUser(ids.token.admin, ids.uid.member, { nickname: 'hacked' }),
      403,
      'PERMISSION_DENIED',
    );
  });
});

describe('push token documents', () => {
  const tokens = (token: string, uid: string, query = '') =>
    server.request('GET', `/api/users/${uid}/tokens${query}`, { token });
  const add = (token: string, uid: string, body: Record<string, unknown>) =>
    server.request('POST', `/api/users/${uid}/tokens`, { token, body });
  const device = (deviceId: string, pushToken: string) => ({
    token: pushToken,
    deviceId,
    platform: 'web',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140',
  });

  it('adds a document with status active, and the same token again answers the same document', async () => {
    const first = await add(ids.token.member, ids.uid.member, device('device-a', TOKENS['aaaaaaaaaaaa']));
    expect(first.statusCode).toBe(200);
    const doc = first.json<PushTokenDoc>();
    expect(doc).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      token: TOKENS['aaaaaaaaaaaa'],
      deviceId: 'device-a',
      createdAt: server.clock.now(),
      lastUsed: server.clock.now(),
      status: 'active',
      platform: 'web',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140',
    });
    const again = await add(ids.token.member, ids.uid.member, device('device-a', TOKENS['aaaaaaaaaaaa']));
    expect(again.json<PushTokenDoc>().id).toBe(doc.id);
  });

  it('replaces the document of a device when it gets a new token', async () => {
    const old = (
      await add(ids.token.member, ids.uid.member, device('device-b', TOKENS['b-old-000000']))
    ).json<PushTokenDoc>();
    const fresh = (
      await add(ids.token.member, ids.uid.member, device('device-b', TOKENS['b-new-000000']))
    ).json<PushTokenDoc>();
    expect(fresh.id).not.toBe(old.id);
    const list = (await tokens(ids.token.member, ids.uid.member)).json<{ tokens: PushTokenDoc[] }>().tokens;
    expect(list.filter((t) => t.deviceId === 'device-b')).toEqual([fresh]);
  });

  it('keeps one document per device when two tabs post at the same time', async () => {
    const results = await Promise.all([
      add(ids.token.member, ids.uid.member, device('device-c', TOKENS['c-one-000000'])),
      add(ids.token.member, ids.uid.member, device('device-c', TOKENS['c-two-000000'])),
      add(ids.token.member, ids.uid.member, device('device-c', TOKENS['c-one-000000'])),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const list = (await tokens(ids.token.member, ids.uid.member)).json<{ tokens: PushTokenDoc[] }>().tokens;
    expect(list.filter((t) => t.deviceId === 'device-c')).toHaveLength(1);
    expect(server.query('SELECT id FROM push_tokens WHERE device_id = ?', 'device-c')).toHaveLength(1);
  });

  it('finds a document by token and status active (spec §7 query)', async () => {
    const res = await tokens(
      ids.token.member,
      ids.uid.member,
      `?token=${TOKENS['aaaaaaaaaaaa']}&status=active`,
    );
    const list = res.json<{ tokens: PushTokenDoc[] }>().tokens;
    expect(list.map((t) => t.deviceId)).toEqual(['device-a']);
    const none = await tokens(ids.token.member, ids.uid.member, `?token=${pushToken('unknown-00000')}`);
    expect(none.json()).toEqual({ tokens: [] });
    expectError(await tokens(ids.token.member, ids.uid.member, '?status=deleted'), 400, 'INVALID_ARGUMENT');
  });

  it('updates lastUsed', async () => {
    const doc = (
      await add(ids.token.member, ids.uid.member, device('device-d', TOKENS['d-000000000']))
    ).json<PushTokenDoc>();
    server.clock.advance(60_000);
    const res = await server.request('POST', `/api/users/${ids.uid.member}/tokens/${doc.id}/touch`, {
      token: ids.token.member,
    });
    expect(res.json<PushTokenDoc>().lastUsed).toBe(doc.lastUsed + 60_000);
    expectError(
      await server.request('POST', `/api/users/${ids.uid.member}/tokens/AAAAAAAAAAAAAAAAAAAA/touch`, {
        token: ids.token.member,
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('deletes a document, and deleting it again succeeds too', async () => {
    const doc = (
      await add(ids.token.member, ids.uid.member, device('device-e', TOKENS['e-000000000']))
    ).json<PushTokenDoc>();
    const url = `/api/users/${ids.uid.member}/tokens/${doc.id}`;
    expect((await server.request('DELETE', url, { token: ids.token.member })).json()).toEqual({
      success: true,
    });
    expect((await server.request('DELETE', url, { token: ids.token.member })).json()).toEqual({
      success: true,
    });
    const list = (await tokens(ids.token.member, ids.uid.member)).json<{ tokens: PushTokenDoc[] }>().tokens;
    expect(list.find((t) => t.id === doc.id)).toBeUndefined();
  });

  it("keeps every user's token documents to themselves, admins included", async () => {
    expectError(await tokens(ids.token.visitor, ids.uid.member), 403, 'PERMISSION_DENIED');
    expectError(await tokens(ids.token.admin, ids.uid.member), 403, 'PERMISSION_DENIED');
    expectError(
      await add(ids.token.visitor, ids.uid.member, device('device-x', TOKENS['x-000000000'])),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('moves a browser’s token to the account that registers it now (a shared device)', async () => {
    await add(ids.token.consultant, ids.uid.consultant, device('shared-1', TOKENS['shared-00000']));
    await add(ids.token.visitor, ids.uid.visitor, device('shared-1', TOKENS['shared-00000']));
    const consultant = (await tokens(ids.token.consultant, ids.uid.consultant)).json<{
      tokens: PushTokenDoc[];
    }>();
    expect(consultant.tokens.find((t) => t.token === TOKENS['shared-00000'])).toBeUndefined();
  });

  it.each([
    ['a short token', { token: 'short', deviceId: 'd', platform: 'web', userAgent: '' }],
    ['an unknown platform', { token: TOKENS['z-000000000'], deviceId: 'd', platform: 'beos', userAgent: '' }],
    [
      'an extra status',
      { token: TOKENS['z-000000000'], deviceId: 'd', platform: 'web', userAgent: '', status: 'active' },
    ],
    [
      'a device id with a slash',
      { token: TOKENS['z-000000000'], deviceId: '../x', platform: 'web', userAgent: '' },
    ],
  ])('refuses %s', async (_label, body) => {
    expectError(await add(ids.token.member, ids.uid.member, body), 400, 'INVALID_ARGUMENT');
  });
});
