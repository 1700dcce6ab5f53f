import { createLiveStream } from '@/backend/local/stream';
import type { ConnectionState, EventSourceLike } from '@/backend/local/stream';
import type { StreamEvent } from '@core/wire';

class FakeSource implements EventSourceLike {
  listeners = new Map<string, Array<(event: MessageEvent<string>) => void>>();
  closed = false;
  onerror: ((event: Event) => void) | null = null;
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data: string, lastEventId = '') {
    for (const listener of this.listeners.get(type) ?? []) {
      listener({ data, lastEventId } as MessageEvent<string>);
    }
  }
  open() {
    this.emit('open', '');
  }
  fail() {
    this.onerror?.(new Event('error'));
  }
}

function setup() {
  const sources: FakeSource[] = [];
  const timers: Array<{ fn: () => void; ms: number; cleared: boolean }> = [];
  const sessionEnded = jest.fn();
  let tickets = 0;
  const stream = createLiveStream({
    getTicket: async () => `ticket-${++tickets}`,
    url: (ticket) => `/api/stream?ticket=${ticket}`,
    open: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    setTimer: (fn, ms) => {
      const timer = { fn, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
    onSessionEnded: sessionEnded,
  });
  const states: ConnectionState[] = [];
  stream.onState((state) => states.push(state));
  const last = () => sources[sources.length - 1] as FakeSource;
  return { stream, sources, timers, states, last, sessionEnded };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createLiveStream', () => {
  it('opens one connection for many subscribers and delivers parsed events', async () => {
    const { stream, sources } = setup();
    const a: StreamEvent[] = [];
    const b: StreamEvent[] = [];
    stream.subscribe((e) => a.push(e));
    stream.subscribe((e) => b.push(e));
    await flush();
    expect(sources.map((s) => s.url)).toEqual(['/api/stream?ticket=ticket-1']);
    sources[0]!.emit('offers', '{"changed":true}');
    expect(a).toEqual([{ type: 'offers', data: { changed: true } }]);
    expect(b).toEqual(a);
  });

  it('ignores a malformed event instead of throwing into the page', async () => {
    const { stream, last } = setup();
    const seen: StreamEvent[] = [];
    stream.subscribe((e) => seen.push(e));
    await flush();
    expect(() => last().emit('message', 'not json')).not.toThrow();
    last().emit('message', 'null');
    expect(seen).toEqual([]);
  });

  it('drops an event whose id is not after the last one of the connection (a repeat or out of order)', async () => {
    const { stream, last } = setup();
    const seen: StreamEvent[] = [];
    stream.subscribe((e) => seen.push(e));
    await flush();
    last().open();
    last().emit('offers', '{"n":1}', '7');
    last().emit('offers', '{"n":2}', '7');
    last().emit('offers', '{"n":3}', '5');
    last().emit('offers', '{"n":4}', '8');
    expect(seen.map((e) => (e.data as unknown as { n: number }).n)).toEqual([1, 4]);
  });

  it('keeps delivering to the others when one subscriber throws', async () => {
    const { stream, last } = setup();
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const seen: StreamEvent[] = [];
    stream.subscribe(() => {
      throw new Error('broken subscriber');
    });
    stream.subscribe((e) => seen.push(e));
    await flush();
    last().emit('offers', '{"changed":true}');
    expect(seen).toHaveLength(1);
    expect(errors).toHaveBeenCalled();
  });

  it('reconnects after an error with a new ticket and a growing delay, announcing each open', async () => {
    const { stream, sources, timers, states } = setup();
    const opens = jest.fn();
    stream.onOpen(opens);
    stream.subscribe(() => undefined);
    await flush();
    sources[0]!.open();
    expect(opens).toHaveBeenCalledTimes(1);
    sources[0]!.fail();
    expect(sources[0]!.closed).toBe(true);
    expect(timers.map((t) => t.ms)).toEqual([1000]);
    timers[0]!.fn();
    await flush();
    expect(sources[1]!.url).toBe('/api/stream?ticket=ticket-2');
    sources[1]!.fail();
    expect(timers.map((t) => t.ms)).toEqual([1000, 2000]);
    timers[1]!.fn();
    await flush();
    sources[2]!.open();
    expect(opens).toHaveBeenCalledTimes(2);
    expect(states).toEqual(['connecting', 'open', 'down', 'open']);
  });

  it('reconnects at once, with a new ticket, when the server ends the stream as its token expired', async () => {
    const { stream, sources, timers, sessionEnded } = setup();
    stream.subscribe(() => undefined);
    await flush();
    sources[0]!.open();
    sources[0]!.emit('closing', '{"reason":"expired"}');
    await flush();
    expect(sources[0]!.closed).toBe(true);
    expect(timers).toEqual([]);
    expect(sources[1]!.url).toBe('/api/stream?ticket=ticket-2');
    expect(sessionEnded).not.toHaveBeenCalled();
  });

  it('checks the session when the server ends the stream at sign-out, and retries later', async () => {
    const { stream, sources, timers, sessionEnded } = setup();
    stream.subscribe(() => undefined);
    await flush();
    sources[0]!.open();
    sources[0]!.emit('closing', '{"reason":"signed-out"}');
    expect(sessionEnded).toHaveBeenCalledTimes(1);
    expect(sources[0]!.closed).toBe(true);
    expect(timers.map((t) => t.ms)).toEqual([1000]);
  });

  it('treats a closing event of an unknown reason as a drop', async () => {
    const { stream, sources, timers, sessionEnded } = setup();
    stream.subscribe(() => undefined);
    await flush();
    sources[0]!.emit('closing', '{"reason":"???"}');
    expect(sessionEnded).not.toHaveBeenCalled();
    expect(timers.map((t) => t.ms)).toEqual([1000]);
  });

  it('connects at once when woken (the network came back) instead of waiting out the backoff', async () => {
    const { stream, sources, timers } = setup();
    stream.subscribe(() => undefined);
    await flush();
    sources[0]!.fail();
    expect(timers).toHaveLength(1);
    stream.wake();
    await flush();
    expect(timers[0]!.cleared).toBe(true);
    expect(sources).toHaveLength(2);
  });

  it('ignores what a dropped connection still delivers', async () => {
    const { stream, sources } = setup();
    const seen: StreamEvent[] = [];
    stream.subscribe((e) => seen.push(e));
    await flush();
    const old = sources[0]!;
    old.fail();
    old.emit('offers', '{"changed":true}');
    expect(seen).toEqual([]);
  });

  it('closes the connection when the last subscriber leaves', async () => {
    const { stream, sources, states } = setup();
    const offA = stream.subscribe(() => undefined);
    const offB = stream.subscribe(() => undefined);
    await flush();
    sources[0]!.open();
    offA();
    expect(sources[0]!.closed).toBe(false);
    offB();
    expect(sources[0]!.closed).toBe(true);
    expect(states.at(-1)).toBe('connecting');
  });
});
