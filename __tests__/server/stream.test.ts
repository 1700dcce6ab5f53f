import http from 'node:http';
import type { ChatMessage, UserDoc } from '../../core/model';
import { demoIds, expectError, startTestServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

let server: TestServer;
let ids: DemoIds;
let origin: string;

beforeAll(async () => {
  server = await startTestServer({ streamPingMs: 100 });
  ids = await demoIds(server);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  origin = `http://127.0.0.1:${address.port}`;
});
afterAll(() => server.close());

interface SseEvent {
  event: string;
  data: unknown;
}

/** An open SSE connection read with a real HTTP request. */
interface Stream {
  status: number;
  headers: http.IncomingHttpHeaders;
  events: SseEvent[];
  raw: string;
  next(type: string, timeoutMs?: number): Promise<SseEvent>;
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  ended: Promise<void>;
  close(): void;
}

/** Waits for a ping written after now: whatever the server published before it has arrived by then. */
async function nextPing(stream: Stream): Promise<void> {
  const seen = stream.raw.split(': ping').length;
  await waitUntil(() => (stream.raw.split(': ping').length > seen ? true : undefined), 2000, 'a ping');
}

function open(ticket: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${origin}/api/stream?ticket=${encodeURIComponent(ticket)}`, (res) => {
      let buffer = '';
      const stream: Stream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        raw: '',
        next(type, timeoutMs = 2000) {
          return waitUntil(() => stream.events.find((e) => e.event === type), timeoutMs, `event ${type}`);
        },
        async waitFor(text, timeoutMs = 2000) {
          await waitUntil(() => (stream.raw.includes(text) ? true : undefined), timeoutMs, text);
        },
        ended: new Promise((done) => res.on('close', () => done())),
        close: () => request.destroy(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        stream.raw += chunk;
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event && data) stream.events.push({ event, data: JSON.parse(data) });
          end = buffer.indexOf('\n\n');
        }
      });
      resolve(stream);
    });
    request.on('error', reject);
  });
}

function waitUntil<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = (): void => {
      const value = probe();
      if (value !== undefined) return resolve(value);
      if (Date.now() - started > timeoutMs) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 10);
    };
    tick();
  });
}

const ticketFor = async (token: string): Promise<string> => {
  const res = await server.request('POST', '/api/stream/ticket', { token });
  expect(res.statusCode).toBe(200);
  return res.json<{ ticket: string }>().ticket;
};

describe('stream tickets', () => {
  it('need a session', async () => {
    expectError(await server.request('POST', '/api/stream/ticket'), 401, 'UNAUTHENTICATED');
  });

  it('are single use', async () => {
    const ticket = await ticketFor(ids.token.member);
    const first = await open(ticket);
    expect(first.status).toBe(200);
    first.close();
    expectError(await server.request('GET', `/api/stream?ticket=${ticket}`), 401, 'UNAUTHENTICATED');
  });

  it('expire after 60 seconds', async () => {
    const ticket = await ticketFor(ids.token.member);
    server.clock.advance(61_000);
    try {
      expectError(await server.request('GET', `/api/stream?ticket=${ticket}`), 401, 'UNAUTHENTICATED');
    } finally {
      server.clock.advance(-61_000);
    }
  });

  it('refuse a made-up or missing ticket', async () => {
    expectError(await server.request('GET', '/api/stream?ticket=made-up'), 401, 'UNAUTHENTICATED');
    expectError(await server.request('GET', '/api/stream'), 400, 'INVALID_ARGUMENT');
  });
});

describe('the live stream', () => {
  it('is an uncached event stream that pings', async () => {
    const stream = await open(await ticketFor(ids.token.member));
    try {
      expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(stream.headers['cache-control']).toBe('no-cache');
      expect(stream.headers['x-content-type-options']).toBe('nosniff');
      await stream.waitFor(': ping\n\n');
    } finally {
      stream.close();
    }
  });

  it('delivers a message sent by one user to the members of its channel only', async () => {
    const member = await open(await ticketFor(ids.token.member));
    const admin = await open(await ticketFor(ids.token.admin));
    const visitor = await open(await ticketFor(ids.token.visitor));
    try {
      const sent = await server.request('POST', `/api/channels/${ids.strategy}/messages`, {
        token: ids.token.consultant,
        body: { text: 'Live from the studio' },
      });
      const message = sent.json<ChatMessage>();
      expect((await member.next('message')).data).toEqual({ message });
      expect((await admin.next('message')).data).toEqual({ message });
      await visitor.waitFor(': ping');
      expect(visitor.events.filter((e) => e.event === 'message')).toEqual([]);
    } finally {
      member.close();
      admin.close();
      visitor.close();
    }
  });

  it('delivers the caller’s own user document when it changes, and nobody else’s', async () => {
    const member = await open(await ticketFor(ids.token.member));
    const visitor = await open(await ticketFor(ids.token.visitor));
    try {
      await server.request('PATCH', `/api/users/${ids.uid.member}`, {
        token: ids.token.member,
        body: { nickname: 'Mo' },
      });
      const event = await member.next('user');
      expect((event.data as { user: UserDoc }).user).toMatchObject({ uid: ids.uid.member, nickname: 'Mo' });
      await visitor.waitFor(': ping');
      expect(visitor.events).toEqual([]);
    } finally {
      member.close();
      visitor.close();
    }
  });

  it("tells the invitee's streams that their invitations changed when one is accepted, and the new member about the channel", async () => {
    const visitor = await open(await ticketFor(ids.token.visitor));
    const consultant = await open(await ticketFor(ids.token.consultant));
    try {
      await server.request('POST', `/api/invitations/${ids.pendingInvitation}/accept`, {
        token: ids.token.visitor,
      });
      expect((await visitor.next('invitations')).data).toEqual({ changed: true });
      const channel = (await visitor.next('channel')).data as { channel: { members: string[] } };
      expect(channel.channel.members).toContain(ids.uid.visitor);
      expect(((await visitor.next('user')).data as { user: UserDoc }).user.effectiveConId).toBe(
        ids.uid.consultant,
      );
      // The consultant reads their channel's invitations when they look at them: nothing tells them.
      expect((await consultant.next('channel')).event).toBe('channel');
      await nextPing(consultant);
      expect(consultant.events.map((e) => e.event)).not.toContain('invitations');
    } finally {
      visitor.close();
      consultant.close();
    }
  });

  it('tells whoever is signed in with the email an invitation names that it was created; a link invitation tells nobody', async () => {
    const visitor = await open(await ticketFor(ids.token.visitor));
    const member = await open(await ticketFor(ids.token.member));
    try {
      const invite = (inviteeEmail?: string) =>
        server.request('POST', '/api/invitations', {
          token: ids.token.consultant,
          body: {
            channelId: ids.growth,
            ...(inviteeEmail === undefined ? {} : { inviteeEmail }),
            passes: 1,
            credits: 0,
            expiresAt: server.clock.now() + 86_400_000,
          },
        });
      expect((await invite()).statusCode).toBe(200);
      expect((await invite('VISITOR@qupm.demo')).statusCode).toBe(200);
      expect((await visitor.next('invitations')).data).toEqual({ changed: true });
      await Promise.all([nextPing(member), nextPing(visitor)]);
      expect(visitor.events.filter((e) => e.event === 'invitations')).toHaveLength(1);
      expect(member.events.map((e) => e.event)).not.toContain('invitations');
    } finally {
      visitor.close();
      member.close();
    }
  });

  it('stops delivering to a client that disconnected', async () => {
    const stream = await open(await ticketFor(ids.token.member));
    await stream.waitFor(': connected');
    expect(server.app.qupm.liveStreams()).toBeGreaterThanOrEqual(1);
    stream.close();
    await stream.ended;
    await waitUntil(
      () => (server.app.qupm.liveStreams() === 0 ? true : undefined),
      2000,
      'the stream to close',
    );
  });
});

describe('closing the server', () => {
  it('ends open streams cleanly', async () => {
    const local = await startTestServer();
    const localIds = { token: (await local.signIn('member')).accessToken };
    await local.app.listen({ port: 0, host: '127.0.0.1' });
    const address = local.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    const ticket = (await local.request('POST', '/api/stream/ticket', { token: localIds.token })).json<{
      ticket: string;
    }>().ticket;
    const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`http://127.0.0.1:${address.port}/api/stream?ticket=${ticket}`, resolve).on('error', reject);
    });
    const ended = new Promise<void>((resolve) => stream.on('end', () => resolve()));
    stream.resume();
    await waitUntil(
      () => (local.app.qupm.liveStreams() === 1 ? true : undefined),
      2000,
      'the stream to open',
    );
    await local.close();
    await ended;
  });
});
