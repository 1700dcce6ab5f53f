// Read receipts and typing on the real server over a temporary SQLite file: the other participants' read marks
// (with when they moved) and delivered marks, streamed as they move; a person who turns receipts off shares none
// and sees none; typing fans out to the others and writes nothing; bad input and strangers are refused.
import type { ChatMessage } from '../../core/model';
import type { Receipt } from '../../core/receipts';
import { TYPING_SIGNALS_PER_MINUTE } from '../../core/receipts';
import { openStream, waitFor } from './support/sse';
import type { LiveStream } from './support/sse';
import { demoIds, expectError, startTestServer, withDemoServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

let server: TestServer;
let ids: DemoIds;
withDemoServer((world) => ({ server, ids } = world));

type Role = 'consultant' | 'member' | 'visitor' | 'admin';
const streams: LiveStream[] = [];
afterEach(() => {
  for (const stream of streams.splice(0)) stream.close();
});
const open = async (who: Role): Promise<LiveStream> => {
  const stream = await openStream(server, ids.token[who]);
  streams.push(stream);
  return stream;
};

/** The events a stream got before the message with this text (absence shown by order, not by waiting). */
async function eventsBefore(stream: LiveStream, text: string) {
  const isMarker = (e: { event: string; data: unknown }) =>
    e.event === 'message' && (e.data as { message: ChatMessage }).message.text === text;
  await waitFor(() => stream.events.find(isMarker));
  return stream.events.slice(0, stream.events.findIndex(isMarker));
}
const send = async (who: Role, text: string): Promise<ChatMessage> => {
  const res = await server.request('POST', `/api/channels/${ids.strategy}/messages`, {
    token: ids.token[who],
    body: { text },
  });
  expect(res.statusCode).toBe(200);
  return res.json<ChatMessage>();
};
const post = (who: Role, what: 'read' | 'delivered' | 'typing', body?: unknown, channel = ids.strategy) =>
  server.request('POST', `/api/channels/${channel}/${what}`, { token: ids.token[who], body });
const receiptsOf = async (who: Role): Promise<Receipt[]> => {
  const res = await server.request('GET', `/api/channels/${ids.strategy}/receipts`, {
    token: ids.token[who],
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ receipts: Receipt[] }>().receipts;
};
const share = async (who: Role, enabled: boolean) => {
  const res = await server.request('PUT', '/api/receipts/settings', {
    token: ids.token[who],
    body: { enabled },
  });
  expect(res.json()).toEqual({ enabled });
};
const tableCounts = () =>
  server
    .query<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .map(({ name }) => [name, server.query<{ n: number }>(`SELECT COUNT(*) AS n FROM "${name}"`)[0]?.n]);

describe('read receipts', () => {
  it("shows a member's read mark, and when it moved, to the consultant and not to the member", async () => {
    const message = await send('consultant', 'Did you see the plan?');
    server.clock.advance(5_000);
    expect((await post('member', 'read', { messageId: message.id })).statusCode).toBe(200);
    const theirs = (await receiptsOf('consultant')).find((r) => r.uid === ids.uid.member);
    expect(theirs).toEqual({
      uid: ids.uid.member,
      name: expect.any(String),
      read: { createdAt: message.createdAt, id: message.id },
      readAt: server.clock.now(),
      delivered: null,
    });
    expect((await receiptsOf('member')).map((r) => r.uid)).not.toContain(ids.uid.member);
  });

  it('streams a delivered mark and a read mark to the sender as they move, and never back', async () => {
    const consultant = await open('consultant');
    const first = await send('consultant', 'One');
    server.clock.advance(1);
    const second = await send('consultant', 'Two');
    expect((await post('member', 'delivered', { messageId: second.id })).statusCode).toBe(200);
    const delivered = await consultant.next('receipt');
    expect(delivered.data).toEqual({
      channelId: ids.strategy,
      uid: ids.uid.member,
      receipt: expect.objectContaining({ delivered: { createdAt: second.createdAt, id: second.id } }),
    });
    // A late mark behind the stored one changes nothing.
    expect((await post('member', 'delivered', { messageId: first.id })).statusCode).toBe(200);
    const mine = (await receiptsOf('consultant')).find((r) => r.uid === ids.uid.member);
    expect(mine?.delivered).toEqual({ createdAt: second.createdAt, id: second.id });
    await post('member', 'read', { messageId: second.id });
    await send('member', 'marker');
    const receipts = (await eventsBefore(consultant, 'marker')).filter((e) => e.event === 'receipt');
    expect(receipts).toHaveLength(2);
    expect(receipts.at(-1)?.data).toEqual(
      expect.objectContaining({
        receipt: expect.objectContaining({ read: { createdAt: second.createdAt, id: second.id } }),
      }),
    );
  });

  it('keeps the marks of someone who turned receipts off from others, and shows them none either', async () => {
    const consultant = await open('consultant');
    const message = await send('consultant', 'Private question');
    await post('consultant', 'read', { messageId: message.id });
    await share('member', false);
    expect((await consultant.next('receipt')).data).toEqual({
      channelId: ids.strategy,
      uid: ids.uid.member,
      receipt: null,
    });
    await post('member', 'read', { messageId: message.id });
    await post('member', 'delivered', { messageId: message.id });
    expect(await receiptsOf('consultant')).toEqual([]);
    expect(await receiptsOf('member')).toEqual([]);
    const settings = await server.request('GET', '/api/receipts/settings', { token: ids.token.member });
    expect(settings.json()).toEqual({ enabled: false });
    // Their marks moved while off were never streamed: only the withdrawal came before this message.
    await send('member', 'marker');
    expect((await eventsBefore(consultant, 'marker')).filter((e) => e.event === 'receipt')).toHaveLength(1);
    await share('member', true);
    expect((await receiptsOf('consultant')).map((r) => r.uid)).toEqual([ids.uid.member]);
    expect((await receiptsOf('member')).map((r) => r.uid)).toEqual([ids.uid.consultant]);
  });

  it('refuses strangers, unknown messages and bad input, writing nothing', async () => {
    const message = await send('consultant', 'Hello');
    const before = tableCounts();
    expectError(await post('visitor', 'delivered', { messageId: message.id }), 403, 'PERMISSION_DENIED');
    expectError(
      await server.request('GET', `/api/channels/${ids.strategy}/receipts`, { token: ids.token.visitor }),
      403,
      'PERMISSION_DENIED',
    );
    expectError(await post('member', 'delivered', { messageId: 'A'.repeat(20) }), 404, 'NOT_FOUND');
    expectError(await post('member', 'delivered', { messageId: '../x' }), 400, 'INVALID_ARGUMENT');
    expectError(
      await post('member', 'delivered', { messageId: message.id, extra: 1 }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(
      await server.request('PUT', '/api/receipts/settings', {
        token: ids.token.member,
        body: { enabled: 'no' },
      }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(await server.request('GET', '/api/receipts/settings'), 401, 'UNAUTHENTICATED');
    expect(tableCounts()).toEqual(before);
  });
});

describe('typing', () => {
  it("tells the channel's other participants who is typing, not the typer, and stores nothing", async () => {
    const consultant = await open('consultant');
    const member = await open('member');
    const before = tableCounts();
    expect((await post('member', 'typing')).json()).toEqual({ success: true });
    expect((await consultant.next('typing')).data).toEqual({
      channelId: ids.strategy,
      uid: ids.uid.member,
      name: expect.stringMatching(/\S/),
    });
    expect(tableCounts()).toEqual(before);
    await send('consultant', 'marker');
    expect((await eventsBefore(member, 'marker')).map((e) => e.event)).not.toContain('typing');
  });

  it('refuses someone outside the channel', async () => {
    expectError(await post('visitor', 'typing'), 403, 'PERMISSION_DENIED');
    expectError(await post('member', 'typing', undefined, 'B'.repeat(20)), 404, 'NOT_FOUND');
  });

  it('limits a flood of typing signals per person', async () => {
    await server.close();
    server = await startTestServer({ rateLimits: {} });
    ids = await demoIds(server);
    for (let i = 0; i < TYPING_SIGNALS_PER_MINUTE; i += 1) {
      expect((await post('member', 'typing')).statusCode).toBe(200);
    }
    expectError(await post('member', 'typing'), 429, 'RESOURCE_EXHAUSTED');
  });
});
