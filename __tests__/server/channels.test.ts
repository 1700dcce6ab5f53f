import type { Channel, ChatMessage } from '../../core/model';
import { expectError, withDemoServer, requestsTo } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

let server: TestServer;
let ids: DemoIds;

withDemoServer((world) => ({ server, ids } = world), { once: true });

const { get } = requestsTo(() => server);
const send = (token: string, channel: string, text: unknown) =>
  server.request('POST', `/api/channels/${channel}/messages`, { token, body: { text } });

describe('listing channels', () => {
  it.each([
    ['consultant', ['strategy-studio', 'growth-clinic']],
    ['member', ['strategy-studio']],
    ['visitor', []],
    ['admin', []],
  ] as const)('lists the channels the %s owns or belongs to', async (role, handles) => {
    const res = await get(ids.token[role], '/api/channels?mine=true');
    expect(res.json<{ channels: Channel[] }>().channels.map((c) => c.channelId)).toEqual(handles);
  });

  it('finds a channel by its channelId, limit 1, only when the caller may read it', async () => {
    const mine = await get(ids.token.member, '/api/channels?channelId=strategy-studio&limit=1');
    expect(mine.json<{ channels: Channel[] }>().channels).toEqual([
      {
        id: ids.strategy,
        channelId: 'strategy-studio',
        ownerId: ids.uid.consultant,
        title: 'Strategy Studio',
        description: expect.any(String),
        members: [ids.uid.member],
        createdAt: expect.any(Number),
      },
    ]);
    expect((await get(ids.token.member, '/api/channels?channelId=growth-clinic&limit=1')).json()).toEqual({
      channels: [],
    });
    expect((await get(ids.token.member, '/api/channels?channelId=no-such-channel')).json()).toEqual({
      channels: [],
    });
    expect(
      (await get(ids.token.admin, '/api/channels?channelId=growth-clinic&limit=1')).json<{
        channels: Channel[];
      }>().channels,
    ).toHaveLength(1);
  });

  it.each([
    '',
    '?mine=false',
    '?channelId=Bad_Handle',
    '?channelId=strategy-studio&limit=2',
    '?mine=true&extra=1',
  ])('refuses the query %j', async (query) => {
    expectError(await get(ids.token.member, `/api/channels${query}`), 400, 'INVALID_ARGUMENT');
  });
});

describe('reading a channel', () => {
  it('is allowed to its owner, its members and admins', async () => {
    for (const role of ['consultant', 'member', 'admin'] as const) {
      expect((await get(ids.token[role], `/api/channels/${ids.strategy}`)).statusCode).toBe(200);
    }
  });

  it('is refused to others, and unknown channels are NOT_FOUND', async () => {
    expectError(await get(ids.token.visitor, `/api/channels/${ids.strategy}`), 403, 'PERMISSION_DENIED');
    expectError(await get(ids.token.member, '/api/channels/AAAAAAAAAAAAAAAAAAAA'), 404, 'NOT_FOUND');
    expectError(await get(ids.token.member, '/api/channels/strategy-studio'), 400, 'INVALID_ARGUMENT');
    expectError(await get(undefined, `/api/channels/${ids.strategy}`), 401, 'UNAUTHENTICATED');
  });
});

describe('messages', () => {
  it('lists a channel’s messages newest last, to those who may read it', async () => {
    const res = await get(ids.token.member, `/api/channels/${ids.strategy}/messages`);
    const messages = res.json<{ messages: ChatMessage[] }>().messages;
    expect(messages.length).toBeGreaterThanOrEqual(4);
    const times = messages.map((m) => m.createdAt);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(messages[0]).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      channelId: ids.strategy,
      senderId: ids.uid.consultant,
      senderName: 'Dana',
      text: expect.any(String),
      createdAt: expect.any(Number),
    });
    expectError(
      await get(ids.token.visitor, `/api/channels/${ids.strategy}/messages`),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('pages back with before and limit', async () => {
    const all = (await get(ids.token.member, `/api/channels/${ids.strategy}/messages`)).json<{
      messages: ChatMessage[];
    }>().messages;
    const last2 = (await get(ids.token.member, `/api/channels/${ids.strategy}/messages?limit=2`)).json<{
      messages: ChatMessage[];
    }>().messages;
    expect(last2).toEqual(all.slice(-2));
    const before = last2[0]?.createdAt ?? 0;
    const earlier = (
      await get(ids.token.member, `/api/channels/${ids.strategy}/messages?before=${before}&limit=1`)
    ).json<{ messages: ChatMessage[] }>().messages;
    expect(earlier).toEqual(all.slice(-3, -2));
    expectError(
      await get(ids.token.member, `/api/channels/${ids.strategy}/messages?limit=1000`),
      400,
      'INVALID_ARGUMENT',
    );
  });

  it('lets a member send plain text, stored as sent, with their nickname', async () => {
    const text = '<img src=x onerror=alert(1)> & <b>bold</b>';
    const res = await send(ids.token.member, ids.strategy, `  ${text}  `);
    expect(res.statusCode).toBe(200);
    const message = res.json<ChatMessage>();
    expect(message).toMatchObject({
      channelId: ids.strategy,
      senderId: ids.uid.member,
      senderName: 'Morgan',
      text,
    });
    const list = (await get(ids.token.consultant, `/api/channels/${ids.strategy}/messages`)).json<{
      messages: ChatMessage[];
    }>().messages;
    expect(list.at(-1)).toEqual(message);
  });

  it('counts a pending notification for everyone else in the channel', async () => {
    const pending = () =>
      server.query<{ uid: string; count: number }>(
        'SELECT uid, count FROM pending_notifications WHERE source = ?',
        ids.strategy,
      );
    const before = pending().find((p) => p.uid === ids.uid.consultant)?.count ?? 0;
    await send(ids.token.member, ids.strategy, 'Numbers are in.');
    const after = pending();
    expect(after.find((p) => p.uid === ids.uid.consultant)?.count).toBe(before + 1);
  });

  it('names a sender without a nickname by their displayName', async () => {
    // The visitor (displayName 'Sam Patel', no nickname) joins Growth Clinic through their invitation.
    await server.request('POST', `/api/invitations/${ids.pendingInvitation}/accept`, {
      token: ids.token.visitor,
    });
    const res = await send(ids.token.visitor, ids.growth, 'Hello from Sam');
    expect(res.json<ChatMessage>()).toMatchObject({ senderId: ids.uid.visitor, senderName: 'Sam Patel' });
  });

  it('refuses a sender who is neither owner nor member, admins included', async () => {
    expectError(await send(ids.token.visitor, ids.strategy, 'let me in'), 403, 'PERMISSION_DENIED');
    expectError(await send(ids.token.member, ids.growth, 'wrong room'), 403, 'PERMISSION_DENIED');
    expectError(await send(ids.token.admin, ids.strategy, 'admin here'), 403, 'PERMISSION_DENIED');
  });

  it.each([
    ['empty text', ''],
    ['only spaces', '    '],
    ['text over 4000 characters', 'x'.repeat(4001)],
    ['a number', 42],
    ['an object', { html: '<b>' }],
  ])('refuses %s', async (_label, text) => {
    expectError(await send(ids.token.member, ids.strategy, text), 400, 'INVALID_ARGUMENT');
  });

  it('answers NOT_FOUND for a channel that does not exist', async () => {
    expectError(await send(ids.token.member, 'AAAAAAAAAAAAAAAAAAAA', 'hello'), 404, 'NOT_FOUND');
  });
});
