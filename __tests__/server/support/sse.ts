// Reads the server's live stream (GET /api/stream) over a real HTTP connection: its events in order, and a way
// to wait for one. Absence is shown by order, not by waiting: an event that was published before another one
// the same stream received would have arrived before it.
import http from 'node:http';
import type { DemoIds, TestServer } from './testServer';

export interface SseEvent {
  /** The frame's `id:` (the server numbers every event), or null when it had none. */
  id: number | null;
  event: string;
  data: unknown;
}

export interface LiveStream {
  events: SseEvent[];
  /** The first event of this type (waits for it; the test's own timeout bounds the wait). */
  next(type: string): Promise<SseEvent>;
  /** The events received before the first one of type `marker`. */
  before(marker: string): Promise<SseEvent[]>;
  /** Everything the server sent, as it came. */
  readonly raw: string;
  /** Settles when the server ends or drops the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Listens on a free port (once per server) and answers its origin. */
export async function listen(server: TestServer): Promise<string> {
  if (!server.app.server.listening) await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${address.port}`;
}

/** Resolves with the probe's first defined answer (the test's own timeout bounds the wait). */
export function waitFor<T>(probe: () => T | undefined): Promise<T> {
  return new Promise((resolve) => {
    const tick = (): void => {
      const value = probe();
      if (value !== undefined) resolve(value);
      else setTimeout(tick, 5);
    };
    tick();
  });
}

/** Opens the stream of the person signed in with `accessToken`, once it is connected. */
export async function openStream(server: TestServer, accessToken: string): Promise<LiveStream> {
  const origin = await listen(server);
  const ticket = (await server.request('POST', '/api/stream/ticket', { token: accessToken })).json<{
    ticket: string;
  }>().ticket;
  let raw = '';
  const events: SseEvent[] = [];
  let ended: () => void = () => undefined;
  const endedPromise = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const request = http.get(`${origin}/api/stream?ticket=${encodeURIComponent(ticket)}`, (res) => {
    res.on('close', () => ended());
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      raw += chunk;
      buffer += chunk;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (.+)$/m.exec(block)?.[1];
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (event && data) {
          events.push({ id: id === undefined ? null : Number(id), event, data: JSON.parse(data) });
        }
        end = buffer.indexOf('\n\n');
      }
    });
  });
  request.on('error', () => ended());
  await waitFor(() => (raw.includes(': connected') ? true : undefined));
  const stream: LiveStream = {
    events,
    next: (type) => waitFor(() => events.find((e) => e.event === type)),
    async before(marker) {
      await stream.next(marker);
      return events.slice(
        0,
        events.findIndex((e) => e.event === marker),
      );
    },
    get raw() {
      return raw;
    },
    ended: endedPromise,
    close: () => request.destroy(),
  };
  return stream;
}

/**
 * Streams opened as the demo world's people, each closed after its test, and the order marker of the "was not
 * told" checks: `marker(role)` publishes a 'user' event to that person only, so an event they must not get is
 * shown absent by coming nowhere before it. Call at the top of a describe; `world` answers the current server.
 */
export function demoStreams(world: () => { server: TestServer; ids: DemoIds }) {
  const streams: LiveStream[] = [];
  let markers = 0;
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });
  return {
    async open(role: keyof DemoIds['uid']): Promise<LiveStream> {
      const { server, ids } = world();
      const stream = await openStream(server, ids.token[role]);
      streams.push(stream);
      return stream;
    },
    async marker(role: keyof DemoIds['uid']): Promise<void> {
      const { server, ids } = world();
      markers += 1;
      const res = await server.request('PATCH', `/api/users/${ids.uid[role]}`, {
        token: ids.token[role],
        body: { nickname: `Marker ${markers}` },
      });
      expect(res.statusCode).toBe(200);
    },
  };
}
