// The admin section (server/services/admin.ts) over the real server with the demo world: listing users
// and channels, setting a consultant's role, and the user document streamed to the person whose role changed.
import type { AdminChannel, AdminUser, Channel, UserDoc } from '../../core/model';
import { expectError, withDemoServer, requestsTo } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';
import { openStream } from './support/sse';

let server: TestServer;
let ids: DemoIds;
withDemoServer((world) => ({ server, ids } = world));

const { get, post } = requestsTo(() => server);
const setRole = (token: string | undefined, uid: string, body: unknown) =>
  post(token, `/api/admin/users/${uid}/role`, body);

describe('GET /api/admin/users', () => {
  it('answers every account with its name and roles, oldest first', async () => {
    const res = await get(ids.token.admin, '/api/admin/users');
    const users = res.json<{ users: AdminUser[] }>().users;
    expect(users.map((u) => [u.email, u.name, u.isOwner, u.isAdmin])).toEqual([
      ['consultant@qupm.demo', 'Dana', true, false],
      ['member@qupm.demo', 'Morgan', false, false],
      ['visitor@qupm.demo', 'Sam Patel', false, false],
      ['admin@qupm.demo', 'QuPM Admin', false, true],
      ['priya@qupm.demo', 'Priya', false, false],
      ['leo@qupm.demo', 'Leo Martins', false, false],
    ]);
    expect(users[0]).toEqual({
      uid: ids.uid.consultant,
      email: 'consultant@qupm.demo',
      name: 'Dana',
      isOwner: true,
      isAdmin: false,
      createdAt: expect.any(Number),
    });
    // Nothing but these fields: no password hash, no balances.
    for (const user of users)
      expect(Object.keys(user).sort()).toEqual(['createdAt', 'email', 'isAdmin', 'isOwner', 'name', 'uid']);
  });

  it.each(['consultant', 'member', 'visitor'] as const)(
    'refuses the %s, who has no admin claim',
    async (role) => {
      expectError(await get(ids.token[role], '/api/admin/users'), 403, 'PERMISSION_DENIED');
    },
  );

  it('refuses a caller without a session', async () => {
    expectError(await get(undefined, '/api/admin/users'), 401, 'UNAUTHENTICATED');
  });
});

describe('GET /api/admin/channels', () => {
  it("answers every channel with its owner's name and how many messages it holds", async () => {
    const channels = (await get(ids.token.admin, '/api/admin/channels')).json<{ channels: AdminChannel[] }>()
      .channels;
    const count = (id: string) =>
      server.query<{ n: number }>('SELECT COUNT(*) AS n FROM messages WHERE channel_id = ?', id)[0]?.n;
    expect(channels.map((c) => [c.channel.channelId, c.ownerName, c.messageCount])).toEqual([
      ['strategy-studio', 'Dana', count(ids.strategy)],
      ['growth-clinic', 'Dana', count(ids.growth)],
    ]);
    expect(channels[0]?.channel).toEqual(
      (await get(ids.token.admin, `/api/channels/${ids.strategy}`)).json(),
    );
  });

  it.each(['consultant', 'member', 'visitor'] as const)('refuses the %s', async (role) => {
    expectError(await get(ids.token[role], '/api/admin/channels'), 403, 'PERMISSION_DENIED');
  });
});

describe('POST /api/admin/users/:uid/role', () => {
  it('makes a user a consultant, who may then create channels, and unmakes them again', async () => {
    const made = await setRole(ids.token.admin, ids.uid.member, { isOwner: true });
    expect(made.statusCode).toBe(200);
    expect(made.json()).toEqual({
      uid: ids.uid.member,
      email: 'member@qupm.demo',
      name: 'Morgan',
      isOwner: true,
      isAdmin: false,
      createdAt: expect.any(Number),
    });
    expect((await get(ids.token.member, `/api/users/${ids.uid.member}`)).json()).toMatchObject({
      isOwner: true,
      effectiveConId: ids.uid.member,
    });
    const created = await post(ids.token.member, '/api/channels', {
      channelId: 'morgans-room',
      title: 'Morgan',
    });
    expect(created.statusCode).toBe(200);

    const unmade = await setRole(ids.token.admin, ids.uid.member, { isOwner: false });
    expect(unmade.json()).toMatchObject({ isOwner: false });
    // Back to the consultant of the channel they joined; the channel they created stays theirs.
    expect((await get(ids.token.member, `/api/users/${ids.uid.member}`)).json()).toMatchObject({
      isOwner: false,
      effectiveConId: ids.uid.consultant,
    });
    expect((await get(ids.token.member, `/api/channels/${created.json<Channel>().id}`)).json()).toMatchObject(
      {
        ownerId: ids.uid.member,
      },
    );
    expectError(
      await post(ids.token.member, '/api/channels', { channelId: 'second-room', title: 'Again' }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it("refuses an admin's own role, and anyone without the admin claim", async () => {
    const own = expectError(
      await setRole(ids.token.admin, ids.uid.admin, { isOwner: true }),
      403,
      'PERMISSION_DENIED',
    );
    expect(own.message).toMatch(/your own role/);
    expectError(
      await setRole(ids.token.consultant, ids.uid.member, { isOwner: true }),
      403,
      'PERMISSION_DENIED',
    );
    expectError(await setRole(ids.token.member, ids.uid.member, { isOwner: true }), 403, 'PERMISSION_DENIED');
    expect(server.query('SELECT uid FROM users WHERE is_owner = 1')).toEqual([{ uid: ids.uid.consultant }]);
  });

  it('answers NOT_FOUND for a user that does not exist', async () => {
    expectError(await setRole(ids.token.admin, 'NoSuchUser0000000001', { isOwner: true }), 404, 'NOT_FOUND');
  });

  it.each([
    ['a role that is not a boolean', { isOwner: 'yes' }],
    ['an admin claim', { isOwner: true, isAdmin: true }],
    ['credits', { isOwner: false, credits: 100 }],
    ['no role', {}],
  ])('refuses %s as INVALID_ARGUMENT, and changes nothing', async (_label, body) => {
    expectError(await setRole(ids.token.admin, ids.uid.member, body), 400, 'INVALID_ARGUMENT');
    expect(
      server.query('SELECT is_owner, is_admin, credits FROM users WHERE uid = ?', ids.uid.member),
    ).toEqual([{ is_owner: 0, is_admin: 0, credits: 3 }]);
  });

  it('checks the session, then the address and body, then the claim', async () => {
    expectError(await setRole(undefined, 'bad', { isOwner: 'x' }), 401, 'UNAUTHENTICATED');
    expectError(await setRole(ids.token.member, 'bad', { isOwner: true }), 400, 'INVALID_ARGUMENT');
  });
});

describe('live events', () => {
  it("streams the user's document when an admin changes their role", async () => {
    const member = await openStream(server, ids.token.member);
    try {
      await setRole(ids.token.admin, ids.uid.member, { isOwner: true });
      const { user } = (await member.next('user')).data as { user: UserDoc };
      expect(user).toMatchObject({ uid: ids.uid.member, isOwner: true, effectiveConId: ids.uid.member });
    } finally {
      member.close();
    }
  });
});
