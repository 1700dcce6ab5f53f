// Issue #6's admin section, pending counts, and the live events the new endpoints stream ('offers', 'channel',
// 'user'), over the real server with the demo world. That someone was NOT told is shown by order: a later event to
// them (their own user document changing) arrives, and the one they must not get came nowhere before it.
import type { AdminChannel, AdminUser, Channel, UserDoc } from '../../core/model';
import { demoIds, expectError, startTestServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';
import { openStream } from './support/sse';
import type { LiveStream } from './support/sse';

const DAY = 24 * 60 * 60 * 1000;

let server: TestServer;
let ids: DemoIds;
beforeEach(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
});
afterEach(() => server.close());

const get = (token: string | undefined, url: string) =>
  server.request('GET', url, token === undefined ? {} : { token });
const post = (token: string | undefined, url: string, body?: unknown) =>
  server.request('POST', url, {
    ...(token === undefined ? {} : { token }),
    ...(body === undefined ? {} : { body }),
  });
const setRole = (token: string | undefined, uid: string, body: unknown) =>
  post(token, `/api/admin/users/${uid}/role`, body);

let markers = 0;
/** Publishes a 'user' event to `role` only: the order marker of this file's "was not told" checks. */
async function marker(role: keyof DemoIds['uid']): Promise<void> {
  markers += 1;
  const res = await server.request('PATCH', `/api/users/${ids.uid[role]}`, {
    token: ids.token[role],
    body: { nickname: `Marker ${markers}` },
  });
  expect(res.statusCode).toBe(200);
}

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

describe('pending counts (users/{uid}/pending, behind badge_count)', () => {
  /** The counts the server keeps for `uid`, by channel: no route reads them (each push carries its badge). */
  const pendingOf = (uid: string) =>
    Object.fromEntries(
      server
        .query<{ source: string; count: number }>(
          'SELECT source, count FROM pending_notifications WHERE uid = ?',
          uid,
        )
        .map((row) => [row.source, row.count]),
    );

  it('keeps pending counts by channel', () => {
    expect(pendingOf(ids.uid.member)).toEqual({ [ids.strategy]: 1 });
    expect(pendingOf(ids.uid.visitor)).toEqual({});
  });

  it('counts one more for everyone but the sender, and clear_pending_notifications empties them', async () => {
    await post(ids.token.member, `/api/channels/${ids.strategy}/messages`, { text: 'Numbers attached' });
    expect(pendingOf(ids.uid.consultant)).toEqual({ [ids.growth]: 1, [ids.strategy]: 1 });
    expect(pendingOf(ids.uid.member)).toEqual({ [ids.strategy]: 1 });
    await post(ids.token.consultant, '/api/callable/clear_pending_notifications', {
      data: { userId: ids.uid.consultant },
    });
    expect(pendingOf(ids.uid.consultant)).toEqual({});
  });

  it('has no route of its own', async () => {
    expectError(await get(ids.token.member, `/api/users/${ids.uid.member}/pending`), 404, 'NOT_FOUND');
  });
});

describe('live events', () => {
  const streams: LiveStream[] = [];
  const open = async (role: keyof DemoIds['uid']) => {
    const stream = await openStream(server, ids.token[role]);
    streams.push(stream);
    return stream;
  };
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });

  it('tells the person an offer was issued to and its consultant, and nobody else', async () => {
    const member = await open('member');
    const consultant = await open('consultant');
    const visitor = await open('visitor');
    const res = await post(ids.token.consultant, '/api/offers', {
      channelId: ids.strategy,
      userId: ids.uid.member,
      discountPercent: 5,
      expiresAt: server.clock.now() + DAY,
    });
    expect(res.statusCode).toBe(200);
    expect((await member.next('offers')).data).toEqual({ changed: true });
    expect((await consultant.next('offers')).data).toEqual({ changed: true });
    await marker('visitor');
    expect((await visitor.before('user')).map((e) => e.event)).not.toContain('offers');
  });

  it('tells the owner and admins about a new channel, and the members about an edited one', async () => {
    const consultant = await open('consultant');
    const admin = await open('admin');
    const member = await open('member');
    const created = (
      await post(ids.token.consultant, '/api/channels', { channelId: 'new-room', title: 'New' })
    ).json<Channel>();
    expect((await consultant.next('channel')).data).toEqual({ channel: created });
    expect((await admin.next('channel')).data).toEqual({ channel: created });
    await marker('member');
    expect((await member.before('user')).map((e) => e.event)).not.toContain('channel');

    const edited = await server.request('PATCH', `/api/channels/${ids.strategy}`, {
      token: ids.token.consultant,
      body: { title: 'Strategy Studio, renamed' },
    });
    const update = (await waitForChannel(member, 'Strategy Studio, renamed')).data;
    expect(update).toEqual({ channel: edited.json() });
  });

  it("streams the user's document when an admin changes their role", async () => {
    const member = await open('member');
    await setRole(ids.token.admin, ids.uid.member, { isOwner: true });
    const { user } = (await member.next('user')).data as { user: UserDoc };
    expect(user).toMatchObject({ uid: ids.uid.member, isOwner: true, effectiveConId: ids.uid.member });
  });
});

async function waitForChannel(stream: LiveStream, title: string) {
  for (;;) {
    const found = stream.events.find(
      (e) => e.event === 'channel' && (e.data as { channel: Channel }).channel.title === title,
    );
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
