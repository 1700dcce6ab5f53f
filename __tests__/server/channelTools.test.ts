// The channel endpoints over the real server on a temporary SQLite file with the demo world: the person's
// channel overview with unread counts, a consultant creating and editing channels, members, read markers, and a
// channel's invitations — each with every refusal and its status.
import type { Channel, ChannelMember, ChannelOverview, ChatMessage, Invitation } from '../../core/model';
import { compareMessages } from '../../core/messages';
import { expectError, withDemoServer, requestsTo } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';
import { demoStreams } from './support/sse';
import type { LiveStream } from './support/sse';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let server: TestServer;
let ids: DemoIds;
withDemoServer((world) => ({ server, ids } = world));

const { get, post, patch } = requestsTo(() => server);
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
  const markOf = (uid: string, channel: string) =>
    server.query<{ last_read_at: number; last_read_id: string }>(
      'SELECT last_read_at, last_read_id FROM channel_reads WHERE uid = ? AND channel_id = ?',
      uid,
      channel,
    );
  const messagesOf = async (token: string, channel: string) =>
    (await get(token, `/api/channels/${channel}/messages`)).json<{ messages: ChatMessage[] }>().messages;
  const markRead = (token: string | undefined, channel: string, messageId: unknown) =>
    post(token, `/api/channels/${channel}/read`, { messageId });
  const unreadIn = async (token: string, channel: string) =>
    (await overview(token)).find((o) => o.channel.id === channel)?.unread;

  it("moves the caller's read mark up to a message: nothing up to it is unread, what others write after it is", async () => {
    const newest = (await messagesOf(ids.token.member, ids.strategy)).at(-1);
    if (!newest) throw new Error('no messages');
    expect(await unreadIn(ids.token.member, ids.strategy)).toBe(1);
    const res = await markRead(ids.token.member, ids.strategy, newest.id);
    expect({ code: res.statusCode, body: res.json() }).toEqual({ code: 200, body: { success: true } });
    expect(await unreadIn(ids.token.member, ids.strategy)).toBe(0);
    expect(markOf(ids.uid.member, ids.strategy)).toEqual([
      { last_read_at: newest.createdAt, last_read_id: newest.id },
    ]);
    server.clock.advance(1000);
    await send(ids.token.consultant, ids.strategy, 'One more thing');
    expect(await unreadIn(ids.token.member, ids.strategy)).toBe(1);
    // The consultant's own mark is theirs: the member reading changed nothing for them.
    expect(await unreadIn(ids.token.consultant, ids.growth)).toBe(1);
  });

  it('counts as unread only what others wrote after the marked message, also within its millisecond', async () => {
    // The clock stands still: these three share one millisecond, so only their ids order them.
    const burst = [
      await send(ids.token.consultant, ids.strategy, 'First of three'),
      await send(ids.token.consultant, ids.strategy, 'Second of three'),
      await send(ids.token.consultant, ids.strategy, 'Third of three'),
    ].sort(compareMessages);
    expect(new Set(burst.map((m) => m.createdAt)).size).toBe(1);
    await markRead(ids.token.member, ids.strategy, burst[1]?.id);
    expect(await unreadIn(ids.token.member, ids.strategy)).toBe(1);
    await markRead(ids.token.member, ids.strategy, burst[2]?.id);
    expect(await unreadIn(ids.token.member, ids.strategy)).toBe(0);
  });

  it('never moves a mark back: an older message, a repeat, or marks racing each other change nothing', async () => {
    const messages = await messagesOf(ids.token.member, ids.strategy);
    const newest = messages.at(-1);
    if (!newest) throw new Error('no messages');
    await markRead(ids.token.member, ids.strategy, newest.id);
    const stored = markOf(ids.uid.member, ids.strategy);
    for (const older of messages.slice(0, -1)) {
      expect((await markRead(ids.token.member, ids.strategy, older.id)).statusCode).toBe(200);
    }
    expect((await markRead(ids.token.member, ids.strategy, newest.id)).statusCode).toBe(200);
    await Promise.all([...messages].reverse().map((m) => markRead(ids.token.member, ids.strategy, m.id)));
    expect(markOf(ids.uid.member, ids.strategy)).toEqual(stored);
    expect(await unreadIn(ids.token.member, ids.strategy)).toBe(0);
  });

  it('keeps a mark from before messages were named in it (a whole millisecond) until a later message is marked', async () => {
    // The demo's marks are times (id ''): the member read Strategy Studio up to three hours ago.
    expect(markOf(ids.uid.member, ids.strategy)).toEqual([
      { last_read_at: server.clock.now() - 3 * HOUR, last_read_id: '' },
    ]);
    const messages = await messagesOf(ids.token.member, ids.strategy);
    const older = messages.filter((m) => m.createdAt <= server.clock.now() - 3 * HOUR).at(-1);
    const newest = messages.at(-1);
    if (!older || !newest) throw new Error('the demo changed');
    await markRead(ids.token.member, ids.strategy, older.id);
    expect(markOf(ids.uid.member, ids.strategy)).toEqual([
      { last_read_at: server.clock.now() - 3 * HOUR, last_read_id: '' },
    ]);
    expect(await unreadIn(ids.token.member, ids.strategy)).toBe(1);
    await markRead(ids.token.member, ids.strategy, newest.id);
    expect(markOf(ids.uid.member, ids.strategy)).toEqual([
      { last_read_at: newest.createdAt, last_read_id: newest.id },
    ]);
  });

  it('refuses a message the channel does not have: unknown, or of another channel, as NOT_FOUND', async () => {
    const clinic = (await messagesOf(ids.token.consultant, ids.growth)).at(-1);
    if (!clinic) throw new Error('no messages');
    const before = markOf(ids.uid.consultant, ids.strategy);
    for (const messageId of ['NoSuchMessage0000001', clinic.id]) {
      const error = expectError(
        await markRead(ids.token.consultant, ids.strategy, messageId),
        404,
        'NOT_FOUND',
      );
      expect(error.message).toBe('There is no such message in this channel.');
    }
    expect(markOf(ids.uid.consultant, ids.strategy)).toEqual(before);
  });

  it('refuses those who take no part in the channel (admins too), unknown channels and malformed input', async () => {
    const newest = (await messagesOf(ids.token.member, ids.strategy)).at(-1)?.id;
    expectError(await markRead(ids.token.visitor, ids.strategy, newest), 403, 'PERMISSION_DENIED');
    expectError(await markRead(ids.token.admin, ids.strategy, newest), 403, 'PERMISSION_DENIED');
    // Not even whether a message exists is told to an outsider.
    expectError(
      await markRead(ids.token.visitor, ids.strategy, 'NoSuchMessage0000001'),
      403,
      'PERMISSION_DENIED',
    );
    expectError(await markRead(ids.token.member, 'NoSuchChannel0000001', newest), 404, 'NOT_FOUND');
    expectError(await markRead(ids.token.member, 'strategy-studio', newest), 400, 'INVALID_ARGUMENT');
    expectError(await markRead(undefined, ids.strategy, newest), 401, 'UNAUTHENTICATED');
    for (const messageId of [undefined, '', 'short', 42, null, 'AAAAAAAAAA-AAAAAAAAA']) {
      expectError(await markRead(ids.token.member, ids.strategy, messageId), 400, 'INVALID_ARGUMENT');
    }
    expectError(await post(ids.token.member, `/api/channels/${ids.strategy}/read`), 400, 'INVALID_ARGUMENT');
    expectError(
      await post(ids.token.member, `/api/channels/${ids.strategy}/read`, { messageId: newest, at: 1 }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(
      server.query('SELECT uid FROM channel_reads WHERE uid IN (?, ?)', ids.uid.visitor, ids.uid.admin),
    ).toEqual([]);
    expect(markOf(ids.uid.member, ids.strategy)).toEqual([
      { last_read_at: server.clock.now() - 3 * HOUR, last_read_id: '' },
    ]);
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
  const { open, marker } = demoStreams(() => ({ server, ids }));

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
