// Stream hygiene on the real server over real sockets: every frame carries an increasing id, a
// stream ends with its session (sign-out, a reused refresh token: `closing` 'signed-out') and with the access
// token it was opened with ('expired'), and a reader that stops reading is dropped once more than 1 MB waits
// for it, while the other streams carry on.
import net from 'node:net';
import type { ChatMessage } from '../../core/model';
import { STREAM_MAX_BUFFERED_BYTES } from '../../core/wire';
import type { SessionResponse } from '../../core/wire';
import { REFRESH_REUSE_GRACE_MS } from '../../server/auth/sessions';
import { listen, openStream, waitFor } from './support/sse';
import type { LiveStream } from './support/sse';
import { demoIds, expectError, startTestServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

let server: TestServer;
let ids: DemoIds;
const streams: LiveStream[] = [];
const sockets: net.Socket[] = [];

async function start(options: { streamPingMs?: number } = {}): Promise<void> {
  server = await startTestServer(options);
  ids = await demoIds(server);
}
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  for (const socket of sockets.splice(0)) socket.destroy();
  await server.close();
});

const open = async (token: string): Promise<LiveStream> => {
  const stream = await openStream(server, token);
  streams.push(stream);
  return stream;
};
const say = async (token: string, text: string, channel = ids.strategy): Promise<ChatMessage> => {
  const res = await server.request('POST', `/api/channels/${channel}/messages`, { token, body: { text } });
  expect(res.statusCode).toBe(200);
  return res.json<ChatMessage>();
};
/** Resolves once the stream has received the message with this id. */
const received = (stream: LiveStream, message: ChatMessage) =>
  waitFor(() =>
    stream.events.find(
      (e) => e.event === 'message' && (e.data as { message: ChatMessage }).message.id === message.id,
    ),
  );
const tokenExpiry = (accessToken: string): number =>
  (JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString()) as { exp: number }).exp *
  1000;

describe('event ids', () => {
  beforeEach(() => start());

  it('number every frame, increasing on each stream and across the server’s run', async () => {
    const member = await open(ids.token.member);
    const consultant = await open(ids.token.consultant);
    const sent = [];
    for (let i = 0; i < 3; i += 1) sent.push(await say(ids.token.consultant, `numbered ${i}`));
    await received(member, sent[2] as ChatMessage);
    await received(consultant, sent[2] as ChatMessage);

    for (const stream of [member, consultant]) {
      const frames = stream.raw.split('\n\n').filter((block) => /^event: /m.test(block));
      expect(frames.length).toBeGreaterThan(0);
      for (const block of frames) expect(block).toMatch(/^id: [1-9]\d*\nevent: /);
      const numbers = stream.events.map((e) => e.id ?? 0);
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      expect(new Set(numbers).size).toBe(numbers.length);
    }
    // One event is one id, whoever receives it.
    const idOf = (stream: LiveStream, message: ChatMessage) =>
      stream.events.find((e) => (e.data as { message?: ChatMessage }).message?.id === message.id)?.id;
    expect(sent.map((m) => idOf(member, m))).toEqual(sent.map((m) => idOf(consultant, m)));

    // A stream opened later starts above everything sent before it.
    const highest = Math.max(
      ...member.events.map((e) => e.id ?? 0),
      ...consultant.events.map((e) => e.id ?? 0),
    );
    const later = await open(ids.token.member);
    const after = await say(ids.token.consultant, 'later');
    await received(later, after);
    expect(later.events[0]?.id).toBeGreaterThan(highest);
  });
});

describe('a stream and its session', () => {
  beforeEach(() => start());

  it('ends with closing signed-out when its session signs out, and the person’s other sessions stay live', async () => {
    const other = await server.signIn('member');
    const mine = await open(ids.token.member);
    const mineToo = await open(ids.token.member);
    const elsewhere = await open(other.accessToken);

    const res = await server.request('POST', '/api/auth/signout', {
      token: ids.token.member,
      body: { refreshToken: ids.session.member.refreshToken },
    });
    expect(res.statusCode).toBe(200);
    for (const stream of [mine, mineToo]) {
      await stream.ended;
      expect(stream.events.at(-1)).toEqual({
        id: expect.any(Number),
        event: 'closing',
        data: { reason: 'signed-out' },
      });
    }
    const after = await say(ids.token.consultant, 'Still here?');
    await received(elsewhere, after);
    expect(elsewhere.events.map((e) => e.event)).not.toContain('closing');
    expect(mine.events.map((e) => e.event)).not.toContain('message');
    expect(server.app.qupm.liveStreams()).toBe(1);
  });

  it('opens no stream for a session that was signed out, with a ticket from before or after', async () => {
    const early = (await server.request('POST', '/api/stream/ticket', { token: ids.token.member })).json<{
      ticket: string;
    }>().ticket;
    await server.request('POST', '/api/auth/signout', {
      token: ids.token.member,
      body: { refreshToken: ids.session.member.refreshToken },
    });
    // The access token is refused at once, not when it expires.
    expectError(
      await server.request('GET', `/api/users/${ids.uid.member}`, { token: ids.token.member }),
      401,
      'UNAUTHENTICATED',
      'session-expired',
    );
    expectError(
      await server.request('POST', '/api/stream/ticket', { token: ids.token.member }),
      401,
      'UNAUTHENTICATED',
      'session-expired',
    );
    expectError(
      await server.request('GET', `/api/stream?ticket=${encodeURIComponent(early)}`),
      401,
      'UNAUTHENTICATED',
      'session-expired',
    );
    expect(server.app.qupm.liveStreams()).toBe(0);
  });

  it('ends with closing signed-out when its refresh token is reused and the session revoked', async () => {
    const session = await server.signIn('member');
    const stream = await open(session.accessToken);
    const refresh = (refreshToken: string) =>
      server.request('POST', '/api/auth/refresh', { body: { refreshToken } });
    const rotated = (await refresh(session.refreshToken)).json<SessionResponse>();
    // Rotation alone keeps the session, and its stream.
    const meanwhile = await say(ids.token.consultant, 'Rotated');
    await received(stream, meanwhile);
    // Past the grace a racing tab is given (server/auth/sessions.ts): a reuse.
    server.clock.advance(REFRESH_REUSE_GRACE_MS + 1);
    expectError(await refresh(session.refreshToken), 401, 'UNAUTHENTICATED', 'refresh-reused');
    await stream.ended;
    expect(stream.events.at(-1)).toMatchObject({ event: 'closing', data: { reason: 'signed-out' } });
    expectError(
      await server.request('POST', '/api/stream/ticket', { token: rotated.accessToken }),
      401,
      'UNAUTHENTICATED',
    );
  });
});

describe('a stream and its access token', () => {
  it('ends with closing expired at the first event after the token it was opened with expires', async () => {
    await start();
    const stream = await open(ids.token.member);
    const expiresAt = tokenExpiry(ids.token.member);
    server.clock.value = expiresAt - 1;
    // The consultant signs in again: their first token expires with the member's.
    const consultant = (await server.signIn('consultant')).accessToken;
    const lastMoment = await say(consultant, 'Just in time');
    await received(stream, lastMoment);

    server.clock.value = expiresAt;
    await say(consultant, 'Too late for this stream');
    await stream.ended;
    expect(stream.events.at(-1)).toEqual({
      id: expect.any(Number),
      event: 'closing',
      data: { reason: 'expired' },
    });
    expect(stream.events.filter((e) => e.event === 'message')).toHaveLength(1);
    expect(server.app.qupm.liveStreams()).toBe(0);
  });

  it('ends with closing expired at the next ping when nothing is published', async () => {
    await start({ streamPingMs: 20 });
    const stream = await open(ids.token.member);
    await waitFor(() => (stream.raw.includes(': ping') ? true : undefined));
    expect(stream.events).toEqual([]);
    server.clock.value = tokenExpiry(ids.token.member) + 1000;
    await stream.ended;
    expect(stream.events).toEqual([
      { id: expect.any(Number), event: 'closing', data: { reason: 'expired' } },
    ]);
  });

  it('ends at once when the token expired between the ticket and the stream', async () => {
    await start();
    const expiresAt = tokenExpiry(ids.token.member);
    // A ticket asked for 30 s before the token expires is good for 60 s: it outlives the token.
    server.clock.value = expiresAt - 30_000;
    const ticket = (await server.request('POST', '/api/stream/ticket', { token: ids.token.member })).json<{
      ticket: string;
    }>().ticket;
    server.clock.value = expiresAt + 1000;
    const origin = await listen(server);
    const body = await fetch(`${origin}/api/stream?ticket=${encodeURIComponent(ticket)}`).then((res) =>
      res.text(),
    );
    expect(body).toMatch(/^: connected\n\nid: \d+\nevent: closing\ndata: {"reason":"expired"}\n\n$/);
  });
});

describe('a reader that stops reading', () => {
  beforeEach(() => start());

  /** Opens the member's stream on a raw socket, reads until it is connected, then stops reading. */
  async function openPausedStream(): Promise<{ socket: net.Socket; closed: Promise<void> }> {
    const origin = new URL(await listen(server));
    const ticket = (await server.request('POST', '/api/stream/ticket', { token: ids.token.member })).json<{
      ticket: string;
    }>().ticket;
    const socket = net.connect(Number(origin.port), origin.hostname);
    sockets.push(socket);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
    let seen = '';
    await new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        seen += chunk.toString('latin1');
        if (seen.includes(': connected')) resolve();
      });
      socket.write(
        `GET /api/stream?ticket=${encodeURIComponent(ticket)} HTTP/1.1\r\nHost: ${origin.host}\r\n\r\n`,
      );
    });
    socket.pause();
    return { socket, closed };
  }

  it('is dropped once more than 1 MB waits for it; the hub forgets it and the other streams carry on', async () => {
    const { socket, closed } = await openPausedStream();
    const reading = await open(ids.token.consultant);
    expect(server.app.qupm.liveStreams()).toBe(2);

    // Each message is a frame of a little over 4,000 bytes.
    const big = (i: number) => `${i} ${'x'.repeat(3990)}`;
    let sentBytes = 0;
    let i = 0;
    // Less than the cap in all (a generous 300 bytes a message for the frame around it): however little the
    // network took, the stream cannot be over it yet.
    while (sentBytes + 5000 < STREAM_MAX_BUFFERED_BYTES) {
      sentBytes += JSON.stringify(await say(ids.token.consultant, big(i))).length + 300;
      i += 1;
    }
    expect(server.app.qupm.droppedStreams()).toBe(0);
    expect(server.app.qupm.liveStreams()).toBe(2);

    // Then as much as it takes for the kernel's socket buffers (a few MB on loopback) to fill and the stream's own
    // to pass 1 MB; 4,000 messages (16 MB) are far more than that.
    while (server.app.qupm.droppedStreams() === 0 && i < 4000) {
      await say(ids.token.consultant, big(i));
      i += 1;
    }
    expect(server.app.qupm.droppedStreams()).toBe(1);
    expect(server.app.qupm.liveStreams()).toBe(1);

    // Nothing more is written to it, and the reader that keeps reading gets what comes next.
    const next = await say(ids.token.consultant, 'After the drop');
    await received(reading, next);
    expect(server.app.qupm.droppedStreams()).toBe(1);
    expect(reading.events.map((e) => e.event)).not.toContain('closing');

    // Once it reads again it finds its connection closed (and reconnects, and resyncs).
    socket.resume();
    await closed;
  }, 60_000);
});
