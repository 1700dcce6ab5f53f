// POST /api/private-channels and every read path of a private consultation on the embedded server:
// one per pair even when two windows ask at once; its messages, stream events, overview entries, pending
// counts and pushes reach its two participants only; a third client of the same channel and an admin are refused
// its messages; an invitation "for a private consultation" opens one on accept.
import type { Channel, ChannelOverview, ChatMessage, Invitation } from '../../core/model';
import { newDocumentId } from '../../core/ids';
import { openStream, waitFor } from './support/sse';
import { expectError, withDemoServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

let server: TestServer;
let ids: DemoIds;

withDemoServer((world) => ({ server, ids } = world));

const DAY = 86_400_000;

const open = (token: string, withUid: string, viaChannelId = ids.strategy) =>
  server.request('POST', '/api/private-channels', { token, body: { withUid, viaChannelId } });
const send = (token: string, channel: string, text: string) =>
  server.request('POST', `/api/channels/${channel}/messages`, { token, body: { id: newDocumentId(), text } });

async function opened(): Promise<Channel> {
  const res = await open(ids.token.member, ids.uid.consultant);
  expect(res.statusCode).toBe(200);
  return res.json<Channel>();
}

/** The visitor joins Strategy Studio: a second client of the consultant's channel. */
async function visitorJoinsStudio(): Promise<void> {
  const created = await server.request('POST', '/api/invitations', {
    token: ids.token.consultant,
    body: { channelId: ids.strategy, passes: 0, credits: 0, expiresAt: server.clock.now() + DAY },
  });
  const accepted = await server.request('POST', `/api/invitations/${created.json<Invitation>().id}/accept`, {
    token: ids.token.visitor,
  });
  expect(accepted.statusCode).toBe(200);
}

describe('opening a private consultation', () => {
  it('opens one between the client and the consultant of their channel, owned by the consultant', async () => {
    const channel = await opened();
    expect(channel).toMatchObject({
      kind: 'private',
      ownerId: ids.uid.consultant,
      members: [ids.uid.member],
      channelId: `private-${channel.id.toLowerCase()}`,
    });
    expect(Object.keys(channel.names ?? {}).sort()).toEqual([ids.uid.consultant, ids.uid.member].sort());
  });

  it('answers the same one again, from either side', async () => {
    const channel = await opened();
    expect((await open(ids.token.member, ids.uid.consultant)).json()).toEqual(channel);
    expect((await open(ids.token.consultant, ids.uid.member)).json()).toEqual(channel);
  });

  it('makes one when many windows press at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0 ? open(ids.token.member, ids.uid.consultant) : open(ids.token.consultant, ids.uid.member),
      ),
    );
    const channelIds = new Set(answers.map((res) => res.json<Channel>().id));
    expect(channelIds.size).toBe(1);
    expect(server.query("SELECT id FROM channels WHERE kind = 'private'")).toHaveLength(1);
  });

  it('refuses bad input with a clear message and writes nothing', async () => {
    expectError(await open(ids.token.member, ids.uid.member), 400, 'INVALID_ARGUMENT');
    expectError(await open(ids.token.member, ids.uid.visitor), 403, 'PERMISSION_DENIED');
    expectError(await open(ids.token.member, ids.uid.consultant, ids.growth), 403, 'PERMISSION_DENIED');
    expectError(await open(ids.token.member, ids.uid.consultant, 'AAAAAAAAAAAAAAAAAAAA'), 404, 'NOT_FOUND');
    expectError(await open(ids.token.member, '../../x'), 400, 'INVALID_ARGUMENT');
    for (const body of [{}, { withUid: ids.uid.consultant }, { withUid: 7, viaChannelId: ids.strategy }]) {
      expectError(
        await server.request('POST', '/api/private-channels', { token: ids.token.member, body }),
        400,
        'INVALID_ARGUMENT',
      );
    }
    expectError(
      await server.request('POST', '/api/private-channels', {
        body: { withUid: ids.uid.consultant, viaChannelId: ids.strategy },
      }),
      401,
      'UNAUTHENTICATED',
    );
    expect(server.query("SELECT id FROM channels WHERE kind = 'private'")).toEqual([]);
  });

  it('refuses a consultation started from a private one, and a handle of the private kind', async () => {
    const channel = await opened();
    expectError(await open(ids.token.consultant, ids.uid.member, channel.id), 400, 'FAILED_PRECONDITION');
    expectError(
      await server.request('POST', '/api/channels', {
        token: ids.token.consultant,
        body: { channelId: 'private-room', title: 'Mine', description: '' },
      }),
      400,
      'INVALID_ARGUMENT',
    );
  });
});

describe('a third client of the same channel', () => {
  it('is refused its messages, its document, its read mark and writing in it', async () => {
    const channel = await opened();
    const sent = (await send(ids.token.member, channel.id, 'Between us')).json<ChatMessage>();
    await visitorJoinsStudio();
    const token = ids.token.visitor;
    expectError(
      await server.request('GET', `/api/channels/${channel.id}/messages`, { token }),
      403,
      'PERMISSION_DENIED',
    );
    expectError(
      await server.request('GET', `/api/channels/${channel.id}`, { token }),
      403,
      'PERMISSION_DENIED',
    );
    expectError(await send(token, channel.id, 'Let me in'), 403, 'PERMISSION_DENIED');
    expectError(
      await server.request('POST', `/api/channels/${channel.id}/read`, {
        token,
        body: { messageId: sent.id },
      }),
      403,
      'PERMISSION_DENIED',
    );
    const overview = (await server.request('GET', '/api/channels/overview', { token })).json<{
      channels: ChannelOverview[];
    }>().channels;
    expect(overview.map((o) => o.channel.id)).toEqual([ids.strategy]);
    expect(
      (await server.request('GET', `/api/channels?channelId=${channel.channelId}`, { token })).json(),
    ).toEqual({ channels: [] });
  });

  it('gets neither its channel nor its messages on the stream, nor a pending count or push', async () => {
    await visitorJoinsStudio();
    const visitorStream = await openStream(server, ids.token.visitor);
    const consultantStream = await openStream(server, ids.token.consultant);
    try {
      const channel = await opened();
      const secret = (await send(ids.token.member, channel.id, 'Between us')).json<ChatMessage>();
      const open = (await send(ids.token.member, ids.strategy, 'For everyone')).json<ChatMessage>();
      await visitorStream.next('message');
      expect(visitorStream.events.map((e) => e.data)).toEqual([{ message: open }]);
      // The consultant got both, in order.
      await consultantStream.next('message');
      const consultantMessages = () =>
        consultantStream.events.filter((e) => e.event === 'message').map((e) => e.data);
      await waitFor(() => (consultantMessages().length === 2 ? true : undefined));
      expect(consultantMessages()).toEqual([{ message: secret }, { message: open }]);
      expect(
        server.query<{ uid: string }>('SELECT uid FROM pending_notifications WHERE source = ?', channel.id),
      ).toEqual([{ uid: ids.uid.consultant }]);
      expect(
        server.query<{ uid: string }>('SELECT DISTINCT uid FROM push_jobs WHERE message_id = ?', secret.id),
      ).not.toContainEqual({ uid: ids.uid.visitor });
    } finally {
      visitorStream.close();
      consultantStream.close();
    }
  });
});

describe('admins', () => {
  it('see that it exists in their listing, never its messages, live or read', async () => {
    const adminStream = await openStream(server, ids.token.admin);
    try {
      const channel = await opened();
      await send(ids.token.member, channel.id, 'Confidential');
      const open = (await send(ids.token.member, ids.strategy, 'Public')).json<ChatMessage>();
      await adminStream.next('message');
      expect(adminStream.events.filter((e) => e.event === 'message').map((e) => e.data)).toEqual([
        { message: open },
      ]);
      expect(adminStream.events.some((e) => e.event === 'channel')).toBe(true);
    } finally {
      adminStream.close();
    }
    const listed = (await server.request('GET', '/api/admin/channels', { token: ids.token.admin })).json<{
      channels: Array<{ channel: Channel }>;
    }>().channels;
    const mine = listed.find((c) => c.channel.kind === 'private');
    expect(mine?.channel.members).toEqual([ids.uid.member]);
    expectError(
      await server.request('GET', `/api/channels/${mine?.channel.id ?? ''}/messages`, {
        token: ids.token.admin,
      }),
      403,
      'PERMISSION_DENIED',
    );
  });
});

describe('the two participants', () => {
  it('exchange messages, each seeing the other’s as unread', async () => {
    const channel = await opened();
    await send(ids.token.member, channel.id, 'A question');
    server.clock.advance(10);
    await send(ids.token.consultant, channel.id, 'An answer');
    for (const role of ['member', 'consultant'] as const) {
      const overview = (
        await server.request('GET', '/api/channels/overview', { token: ids.token[role] })
      ).json<{
        channels: ChannelOverview[];
      }>().channels;
      expect(overview.find((o) => o.channel.id === channel.id)).toMatchObject({ unread: 1 });
      const messages = (
        await server.request('GET', `/api/channels/${channel.id}/messages`, { token: ids.token[role] })
      ).json<{ messages: ChatMessage[] }>().messages;
      expect(messages.map((m) => m.text)).toEqual(['A question', 'An answer']);
    }
  });

  it('cannot manage it: no edits, invitations or offers', async () => {
    const channel = await opened();
    const token = ids.token.consultant;
    expectError(
      await server.request('PATCH', `/api/channels/${channel.id}`, { token, body: { title: 'x' } }),
      400,
      'FAILED_PRECONDITION',
    );
    expectError(
      await server.request('POST', '/api/invitations', {
        token,
        body: { channelId: channel.id, passes: 0, credits: 0, expiresAt: server.clock.now() + DAY },
      }),
      400,
      'FAILED_PRECONDITION',
    );
    expectError(
      await server.request('POST', '/api/offers', {
        token,
        body: {
          channelId: channel.id,
          userId: ids.uid.member,
          serviceId: server.query<{ id: string }>('SELECT id FROM services LIMIT 1')[0]?.id,
          discountPercent: 5,
          expiresAt: server.clock.now() + DAY,
        },
      }),
      400,
      'FAILED_PRECONDITION',
    );
  });
});

describe('a participant renamed', () => {
  const overviewOf = async (token: string, id: string): Promise<Channel | undefined> =>
    (await server.request('GET', '/api/channels/overview', { token }))
      .json<{ channels: ChannelOverview[] }>()
      .channels.find((o) => o.channel.id === id)?.channel;

  it('is listed under the new name for the other one, live, and stays so after a reload', async () => {
    const channel = await opened();
    const consultantStream = await openStream(server, ids.token.consultant);
    try {
      const renamed = await server.request('PATCH', `/api/users/${ids.uid.member}`, {
        token: ids.token.member,
        body: { nickname: 'Morgana' },
      });
      expect(renamed.statusCode).toBe(200);
      const event = await consultantStream.next('channel');
      expect((event.data as { channel: Channel }).channel).toMatchObject({
        id: channel.id,
        names: { [ids.uid.member]: 'Morgana' },
        title: expect.stringContaining('Morgana') as unknown,
      });
      expect((await overviewOf(ids.token.consultant, channel.id))?.names?.[ids.uid.member]).toBe('Morgana');
    } finally {
      consultantStream.close();
    }
  });

  it('changes no channel when the name stays the same', async () => {
    const channel = await opened();
    const name = channel.names?.[ids.uid.member] ?? '';
    await server.request('PATCH', `/api/users/${ids.uid.member}`, {
      token: ids.token.member,
      body: { notificationSettings: { enabled: true, delivery: { channels: ['push'] } } },
    });
    expect((await overviewOf(ids.token.consultant, channel.id))?.names?.[ids.uid.member]).toBe(name);
  });
});

describe('an invitation for a private consultation', () => {
  it('opens one with the consultant on accept, and does not join the channel', async () => {
    const created = await server.request('POST', '/api/invitations', {
      token: ids.token.consultant,
      body: {
        channelId: ids.growth,
        inviteeEmail: 'visitor@qupm.demo',
        passes: 1,
        credits: 0,
        expiresAt: server.clock.now() + DAY,
        privateConsultation: true,
      },
    });
    expect(created.json<Invitation>().privateConsultation).toBe(true);
    const accepted = (
      await server.request('POST', `/api/invitations/${created.json<Invitation>().id}/accept`, {
        token: ids.token.visitor,
      })
    ).json<Invitation>();
    expect(accepted).toMatchObject({ status: 'accepted', privateConsultation: true });
    const mine = (await server.request('GET', '/api/channels?mine=true', { token: ids.token.visitor })).json<{
      channels: Channel[];
    }>().channels;
    expect(mine).toEqual([
      expect.objectContaining({
        id: accepted.privateChannelId,
        kind: 'private',
        ownerId: ids.uid.consultant,
      }),
    ]);
    // Read again, it names the conversation it opened.
    expect(
      (
        await server.request('GET', `/api/invitations/${accepted.id}`, { token: ids.token.visitor })
      ).json<Invitation>().privateChannelId,
    ).toBe(accepted.privateChannelId);
  });
});
