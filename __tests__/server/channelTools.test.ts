// Issue #6's channel endpoints over the real server on a temporary SQLite file with the demo world: the person's
// channel overview with unread counts, a consultant creating and editing channels, members, read markers, and a
// channel's invitations — each with every refusal and its status.
import type { Channel, ChannelMember, ChannelOverview, ChatMessage, Invitation } from '../../core/model';
import { demoIds, expectError, startTestServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

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
const patch = (token: string | undefined, url: string, body: unknown) =>
  server.request('PATCH', url, { ...(token === undefined ? {} : { token }), body });
const overview = async (token: string) =>
  (await get(token, '/api/channels/overview')).json<{ channels: ChannelOverview[] }>().channels;
const send = async (token: string, channel: string, text: string) => {
  const res = await post(token, `/api/channels/${channel}/messages`, { text });
  expect(res.statusCode).toBe(200);
  return res.json<ChatMessage>();
};
const channelCount = () => server.query<{ n: number }>('SELECT COUNT(*) AS n FROM channels')[0]?.n;

describe('GET /api/channels/overview', () => {
  it("answers the consultant's channels, newest activity first, with the last message and what is unread", async () => {
    const list = await overview(ids.token.consultant);
    expect(list.map((o) => [o.channel.channelId, o.unread])).toEqual([
      // Leo wrote 40 minutes ago, after Dana last read Growth Clinic.
      ['growth-clinic', 1],
      ['strategy-studio', 0],
    ]);
    expect(list[0]?.lastMessage).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      channelId: ids.growth,
      senderId: expect.any(String),
      senderName: 'Leo Martins',
      text: expect.stringMatching(/^Stop date set/),
      createdAt: server.clock.now() - 40 * 60 * 1000,
    });
    expect(list[1]?.channel).toMatchObject({ id: ids.strategy, members: [ids.uid.member] });
  });

  it('answers a member their channel, and nobody else’s; someone in no channel gets an empty list', async () => {
    expect((await overview(ids.token.member)).map((o) => [o.channel.id, o.unread])).toEqual([
      [ids.strategy, 1],
    ]);
    expect(await overview(ids.token.visitor)).toEqual([]);
    // Admins read every channel in the admin section, but their own list is their own.
    expect(await overview(ids.token.admin)).toEqual([]);
  });

  it('counts every message by others when the person never read the channel', async () => {
    const invitation = await post(ids.token.visitor, `/api/invitations/${ids.pendingInvitation}/accept`);
    expect(invitation.statusCode).toBe(200);
    const byOthers = server.query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM messages WHERE channel_id = ?',
      ids.growth,
    )[0]?.n;
    expect(await overview(ids.token.visitor)).toEqual([expect.objectContaining({ unread: byOthers })]);
    await send(ids.token.visitor, ids.growth, 'Hello, I am new here');
    // One's own message is never unread.
    expect((await overview(ids.token.visitor))[0]?.unread).toBe(byOthers);
  });

  it('moves a channel to the top when a message arrives, and counts it unread for the others only', async () => {
    const message = await send(ids.token.member, ids.strategy, 'New numbers are in');
    const consultant = await overview(ids.token.consultant);
    expect(consultant.map((o) => [o.channel.channelId, o.unread])).toEqual([
      ['strategy-studio', 1],
      ['growth-clinic', 1],
    ]);
    expect(consultant[0]?.lastMessage).toEqual(message);
    expect((await overview(ids.token.member))[0]?.unread).toBe(1);
  });

  it('refuses a caller without a session', async () => {
    expectError(await get(undefined, '/api/channels/overview'), 401, 'UNAUTHENTICATED');
  });
});

describe('POST /api/channels/:id/read', () => {
  it("sets the caller's read marker to now: nothing is unread there until someone else writes", async () => {
    const res = await post(ids.token.member, `/api/channels/${ids.strategy}/read`);
    expect({ code: res.statusCode, body: res.json() }).toEqual({ code: 200, body: { success: true } });
    expect((await overview(ids.token.member))[0]?.unread).toBe(0);
    expect(
      server.query(
        'SELECT last_read_at FROM channel_reads WHERE uid = ? AND channel_id = ?',
        ids.uid.member,
        ids.strategy,
      ),
    ).toEqual([{ last_read_at: server.clock.now() }]);
    server.clock.advance(1000);
    await send(ids.token.consultant, ids.strategy, 'One more thing');
    expect((await overview(ids.token.member))[0]?.unread).toBe(1);
    // The consultant's own marker is theirs: the member reading changed nothing for them.
    expect((await overview(ids.token.consultant)).find((o) => o.channel.id === ids.growth)?.unread).toBe(1);
  });

  it('never moves a marker back', async () => {
    await post(ids.token.member, `/api/channels/${ids.strategy}/read`);
    server.clock.advance(-HOUR);
    await post(ids.token.member, `/api/channels/${ids.strategy}/read`);
    server.clock.advance(HOUR);
    expect((await overview(ids.token.member))[0]?.unread).toBe(0);
  });

  it('refuses those who take no part in the channel (admins too), unknown channels and malformed ids', async () => {
    expectError(
      await post(ids.token.visitor, `/api/channels/${ids.strategy}/read`),
      403,
      'PERMISSION_DENIED',
    );
    expectError(await post(ids.token.admin, `/api/channels/${ids.strategy}/read`), 403, 'PERMISSION_DENIED');
    expectError(await post(ids.token.member, '/api/channels/NoSuchChannel0000001/read'), 404, 'NOT_FOUND');
    expectError(await post(ids.token.member, '/api/channels/strategy-studio/read'), 400, 'INVALID_ARGUMENT');
    expectError(await post(undefined, `/api/channels/${ids.strategy}/read`), 401, 'UNAUTHENTICATED');
    expect(
      server.query('SELECT uid FROM channel_reads WHERE uid IN (?, ?)', ids.uid.visitor, ids.uid.admin),
    ).toEqual([]);
  });
});

describe('POST /api/channels', () => {
  const body = { channelId: 'pricing-lab', title: '  Pricing Lab  ', description: 'Prices, tested.' };

  it('lets a consultant create a channel they own, with no members yet, under a free handle', async () => {
    const res = await post(ids.token.consultant, '/api/channels', body);
    expect(res.statusCode).toBe(200);
    const channel = res.json<Channel>();
    expect(channel).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      channelId: 'pricing-lab',
      ownerId: ids.uid.consultant,
      title: 'Pricing Lab',
      description: 'Prices, tested.',
      members: [],
      createdAt: server.clock.now(),
    });
    expect((await get(ids.token.consultant, `/api/channels/${channel.id}`)).json()).toEqual(channel);
    // Newest activity first: a channel just created is the newest.
    expect((await overview(ids.token.consultant))[0]).toEqual({ channel, lastMessage: null, unread: 0 });
  });

  it('gives a channel without a description an empty one', async () => {
    const res = await post(ids.token.consultant, '/api/channels', {
      channelId: 'quiet-room',
      title: 'Quiet',
    });
    expect(res.json<Channel>().description).toBe('');
  });

  it('refuses a handle that is taken with ALREADY_EXISTS, and stores nothing', async () => {
    const before = channelCount();
    const error = expectError(
      await post(ids.token.consultant, '/api/channels', { ...body, channelId: 'strategy-studio' }),
      409,
      'ALREADY_EXISTS',
    );
    expect(error.message).toMatch(/taken/);
    expect(channelCount()).toBe(before);
  });

  it.each(['member', 'visitor', 'admin'] as const)('refuses the %s, who is no consultant', async (role) => {
    const before = channelCount();
    const error = expectError(await post(ids.token[role], '/api/channels', body), 403, 'PERMISSION_DENIED');
    expect(error.message).toBe('Only consultants can create channels.');
    expect(channelCount()).toBe(before);
  });

  it.each([
    ['a handle with capitals and underscores', { ...body, channelId: 'Pricing_Lab' }],
    ['a handle of two characters', { ...body, channelId: 'ab' }],
    ['a handle over 40 characters', { ...body, channelId: 'a'.repeat(41) }],
    ['a handle with a double dash', { ...body, channelId: 'pricing--lab' }],
    ['a whitespace-only title', { ...body, title: '   ' }],
    ['a title over 80 characters', { ...body, title: 't'.repeat(81) }],
    ['a description over 500 characters', { ...body, description: 'd'.repeat(501) }],
    ['no title', { channelId: 'pricing-lab' }],
    ['an owner of its own choosing', { ...body, ownerId: 'MemberUid00000000001' }],
    ['members of its own choosing', { ...body, members: ['MemberUid00000000001'] }],
  ])('refuses %s as INVALID_ARGUMENT, and stores nothing', async (_label, input) => {
    const before = channelCount();
    const error = expectError(
      await post(ids.token.consultant, '/api/channels', input),
      400,
      'INVALID_ARGUMENT',
    );
    expect(error.message.length).toBeGreaterThan(0);
    expect(channelCount()).toBe(before);
  });

  it('checks the session first, then the body, then the role', async () => {
    expectError(await post(undefined, '/api/channels', { channelId: 'X' }), 401, 'UNAUTHENTICATED');
    expectError(await post(ids.token.member, '/api/channels', { channelId: 'X' }), 400, 'INVALID_ARGUMENT');
  });
});

describe('PATCH /api/channels/:id', () => {
  it('lets the owner change the title or the description, keeping the rest', async () => {
    const before = (await get(ids.token.consultant, `/api/channels/${ids.strategy}`)).json<Channel>();
    const res = await patch(ids.token.consultant, `/api/channels/${ids.strategy}`, {
      title: ' Strategy Studio 2026 ',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...before, title: 'Strategy Studio 2026' });
    const cleared = await patch(ids.token.consultant, `/api/channels/${ids.strategy}`, { description: '' });
    expect(cleared.json()).toEqual({ ...before, title: 'Strategy Studio 2026', description: '' });
    expect((await get(ids.token.member, `/api/channels/${ids.strategy}`)).json()).toEqual(cleared.json());
  });

  it.each(['member', 'visitor', 'admin'] as const)('refuses the %s, who does not own it', async (role) => {
    expectError(
      await patch(ids.token[role], `/api/channels/${ids.strategy}`, { title: 'Mine now' }),
      403,
      'PERMISSION_DENIED',
    );
    expect(server.query('SELECT title FROM channels WHERE id = ?', ids.strategy)).toEqual([
      { title: 'Strategy Studio' },
    ]);
  });

  it('answers NOT_FOUND for a channel that does not exist, before asking whose it is', async () => {
    expectError(
      await patch(ids.token.member, '/api/channels/NoSuchChannel0000001', { title: 'x' }),
      404,
      'NOT_FOUND',
    );
  });

  it.each([
    ['nothing to change', {}],
    ['a whitespace-only title', { title: ' ' }],
    ['a new handle', { channelId: 'new-handle' }],
    ['a new owner', { ownerId: 'MemberUid00000000001' }],
    ['a description over 500 characters', { description: 'd'.repeat(501) }],
  ])('refuses %s as INVALID_ARGUMENT', async (_label, input) => {
    expectError(
      await patch(ids.token.consultant, `/api/channels/${ids.strategy}`, input),
      400,
      'INVALID_ARGUMENT',
    );
  });

  it('refuses a malformed id and a caller without a session', async () => {
    expectError(
      await patch(ids.token.consultant, '/api/channels/strategy-studio', { title: 'x' }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(
      await patch(undefined, `/api/channels/${ids.strategy}`, { title: 'x' }),
      401,
      'UNAUTHENTICATED',
    );
  });
});

describe('GET /api/channels/:id/members', () => {
  it('answers the owner first, then the members in the order they joined, with their public names', async () => {
    const strategy = (await get(ids.token.member, `/api/channels/${ids.strategy}`)).json<Channel>();
    const res = await get(ids.token.member, `/api/channels/${ids.strategy}/members`);
    expect(res.json()).toEqual({
      members: [
        { uid: ids.uid.consultant, name: 'Dana', role: 'owner', joinedAt: strategy.createdAt },
        { uid: ids.uid.member, name: 'Morgan', role: 'member', joinedAt: server.clock.now() - 20 * DAY },
      ],
    });
    const growth = (await get(ids.token.consultant, `/api/channels/${ids.growth}/members`)).json<{
      members: ChannelMember[];
    }>().members;
    expect(growth.map((m) => [m.name, m.role])).toEqual([
      ['Dana', 'owner'],
      ['Priya', 'member'],
      ['Leo Martins', 'member'],
    ]);
  });

  it('shows someone who just joined last', async () => {
    await post(ids.token.visitor, `/api/invitations/${ids.pendingInvitation}/accept`);
    const members = (await get(ids.token.visitor, `/api/channels/${ids.growth}/members`)).json<{
      members: ChannelMember[];
    }>().members;
    expect(members.at(-1)).toEqual({
      uid: ids.uid.visitor,
      name: 'Sam Patel',
      role: 'member',
      joinedAt: server.clock.now(),
    });
  });

  it('lets an admin read them, and refuses anyone outside the channel', async () => {
    expect((await get(ids.token.admin, `/api/channels/${ids.strategy}/members`)).statusCode).toBe(200);
    expectError(
      await get(ids.token.visitor, `/api/channels/${ids.strategy}/members`),
      403,
      'PERMISSION_DENIED',
    );
    expectError(await get(ids.token.member, `/api/channels/${ids.growth}/members`), 403, 'PERMISSION_DENIED');
    expectError(await get(ids.token.member, '/api/channels/NoSuchChannel0000001/members'), 404, 'NOT_FOUND');
    expectError(await get(undefined, `/api/channels/${ids.strategy}/members`), 401, 'UNAUTHENTICATED');
  });
});

describe('GET /api/channels/:id/invitations', () => {
  it('answers the owner every invitation of the channel, newest first, as they stand now', async () => {
    const res = await get(ids.token.consultant, `/api/channels/${ids.growth}/invitations`);
    const invitations = res.json<{ invitations: Invitation[] }>().invitations;
    expect(invitations.map((i) => [i.inviteeEmail ?? 'anyone with the link', i.status])).toEqual([
      ['anyone with the link', 'pending'],
      ['visitor@qupm.demo', 'pending'],
      ['leo@qupm.demo', 'activated'],
      ['priya@qupm.demo', 'activated'],
    ]);
    for (const invitation of invitations) {
      expect(invitation).toMatchObject({
        channelId: ids.growth,
        channelTitle: 'Growth Clinic',
        consultantName: 'Dana',
      });
    }
    const strategy = (await get(ids.token.consultant, `/api/channels/${ids.strategy}/invitations`)).json<{
      invitations: Invitation[];
    }>().invitations;
    // A pending invitation past its date reads as expired.
    expect(strategy.map((i) => [i.id, i.status])).toEqual([
      [ids.expiredInvitation, 'expired'],
      [ids.usedInvitation, 'activated'],
    ]);
  });

  it('lets an admin read them, and refuses members and others', async () => {
    expect((await get(ids.token.admin, `/api/channels/${ids.growth}/invitations`)).statusCode).toBe(200);
    expectError(
      await get(ids.token.member, `/api/channels/${ids.strategy}/invitations`),
      403,
      'PERMISSION_DENIED',
    );
    expectError(
      await get(ids.token.visitor, `/api/channels/${ids.growth}/invitations`),
      403,
      'PERMISSION_DENIED',
    );
    expectError(
      await get(ids.token.consultant, '/api/channels/NoSuchChannel0000001/invitations'),
      404,
      'NOT_FOUND',
    );
    expectError(await get(undefined, `/api/channels/${ids.growth}/invitations`), 401, 'UNAUTHENTICATED');
  });
});
