import { createLiveStream } from '@/backend/local/stream';
import type { EventSourceLike } from '@/backend/local/stream';
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
  emit(type: string, data: string) {
    for (const listener of this.listeners.get(type) ?? []) listener({ data } as MessageEvent<string>);
  }
}

function setup() {
  const sources: FakeSource[] = [];
  const timers: Array<{ fn: () => void; ms: number }> = [];
  let tickets = 0;
  const stream = createLiveStream({
    getTicket: async () => `ticket-${++tickets}`,
    url: (ticket) => `/api/stream?ticket=${ticket}`,
    open: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    clearTimer: () => undefined,
  });
  return { stream, sources, timers };
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
    const { stream, sources } = setup();
    const seen: StreamEvent[] = [];
    stream.subscribe((e) => seen.push(e));
    await flush();
    expect(() => sources[0]!.emit('message', 'not json')).not.toThrow();
    sources[0]!.emit('message', 'null');
    expect(seen).toEqual([]);
  });

  it('reconnects after an error with a new ticket and a growing delay', async () => {
    const { stream, sources, timers } = setup();
    stream.subscribe(() => undefined);
    await flush();
    sources[0]!.onerror?.(new Event('error'));
    expect(sources[0]!.closed).toBe(true);
    expect(timers.map((t) => t.ms)).toEqual([1000]);
    timers[0]!.fn();
    await flush();
    expect(sources[1]!.url).toBe('/api/stream?ticket=ticket-2');
    sources[1]!.onerror?.(new Event('error'));
    expect(timers.map((t) => t.ms)).toEqual([1000, 2000]);
  });

  it('closes the connection when the last subscriber leaves', async () => {
    const { stream, sources } = setup();
    const offA = stream.subscribe(() => undefined);
    const offB = stream.subscribe(() => undefined);
    await flush();
    offA();
    expect(sources[0]!.closed).toBe(false);
    offB();
    expect(sources[0]!.closed).toBe(true);
  });
});
