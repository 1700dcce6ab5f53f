// The local adapter's live invitations: the 'invitations' stream event, and every (re)open of the
// stream, tell the listener to read the invitations addressed to the person again; anything else is dropped. And
// its live mutes, on the same stream: the 'mutes' event's map, a read after every (re)open.
import { createLocalBackend } from '@/backend/local';
import { createSessionStore } from '@/backend/local/session';
import type { EventSourceLike } from '@/backend/local/stream';
import type { Fetch } from '@/backend/local/http';
import { LOCAL_STORAGE_KEYS } from '@/platform';
import type { KeyValueStore } from '@/platform';

class FakeSource implements EventSourceLike {
  listeners = new Map<string, Array<(event: MessageEvent<string>) => void>>();
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data: string) {
    for (const listener of this.listeners.get(type) ?? [])
      listener({ data, lastEventId: '' } as MessageEvent);
  }
  open() {
    this.emit('open', '');
  }
  fail() {
    this.onerror?.(new Event('error'));
  }
}

const NOW = 1_800_000_000_000;
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function memoryStore(initial: Record<string, string>): KeyValueStore {
  const data = { ...initial };
  return {
    getItem: (key) => data[key] ?? null,
    setItem: (key, value) => void (data[key] = value),
    removeItem: (key) => void delete data[key],
  };
}

const json = (value: unknown) =>
  new Response(JSON.stringify(value), { status: 200, headers: { 'Content-Type': 'application/json' } });

/** `route` answers the requests it knows (by URL); everything else gets a stream ticket. */
function setup(route: (url: string) => Promise<Response> | undefined = () => undefined) {
  const sources: FakeSource[] = [];
  const session = JSON.stringify({
    accessToken: `${part({ alg: 'HS256' })}.${part({ sub: 'u1', isAdmin: false })}.signature`,
    refreshToken: 'refresh-1',
    expiresAt: NOW + 10 * 60_000,
    user: { uid: 'u1', email: 'sam@example.com', displayName: 'Sam' },
  });
  const fetchImpl = jest.fn(
    async (url: string | URL | Request) => (await route(String(url))) ?? json({ ticket: 'ticket-1' }),
  );
  const backend = createLocalBackend({
    fetch: fetchImpl as unknown as Fetch,
    sessions: createSessionStore(memoryStore({ [LOCAL_STORAGE_KEYS.localSession]: session })),
    now: () => NOW,
    backoff: () => 0,
    onOnline: () => undefined,
    openEventSource: () => {
      const source = new FakeSource();
      sources.push(source);
      return source;
    },
  });
  const last = () => sources[sources.length - 1] as FakeSource;
  return { backend, sources, last };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('invitations.subscribeMyInvitations (local)', () => {
  it('asks for a read when the stream opens and when an invitation addressed to the person changed', async () => {
    const { backend, last } = setup();
    const listener = jest.fn();
    backend.invitations.subscribeMyInvitations(listener);
    await flush();
    last().open();
    expect(listener).toHaveBeenCalledTimes(1);
    last().emit('invitations', '{"changed":true}');
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['not JSON', 'changed'],
    ['JSON that is no object', 'true'],
    ['an object of another shape', '{"invitation":{"id":"x"}}'],
    ['changed that is not true', '{"changed":"yes"}'],
  ])('drops an event that is %s', async (_label, data) => {
    const { backend, last } = setup();
    const listener = jest.fn();
    backend.invitations.subscribeMyInvitations(listener);
    await flush();
    last().open();
    listener.mockClear();
    expect(() => last().emit('invitations', data)).not.toThrow();
    expect(listener).not.toHaveBeenCalled();
    last().emit('invitations', '{"changed":true}');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('after a dropped connection, asks for a read again when it is back, and hears events again', async () => {
    const { backend, sources, last } = setup();
    const listener = jest.fn();
    backend.invitations.subscribeMyInvitations(listener);
    await flush();
    last().open();
    last().fail();
    // The old connection is gone: what it might still deliver is not heard.
    sources[0]!.emit('invitations', '{"changed":true}');
    expect(listener).toHaveBeenCalledTimes(1);
    await flush();
    await flush();
    expect(sources).toHaveLength(2);
    last().open();
    expect(listener).toHaveBeenCalledTimes(2);
    last().emit('invitations', '{"changed":true}');
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('hears nothing once unsubscribed, and closes the stream it no longer needs', async () => {
    const { backend, last } = setup();
    const listener = jest.fn();
    const stop = backend.invitations.subscribeMyInvitations(listener);
    await flush();
    last().open();
    stop();
    last().emit('invitations', '{"changed":true}');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(last().closed).toBe(true);
  });
});

describe('mutes.subscribeMutes (local)', () => {
  const MUTED = { c1: NOW + 3_600_000 };

  /** Every read of /api/mutes waits until the test answers it. */
  function withReads() {
    const reads: Array<(mutes: Record<string, number>) => void> = [];
    const env = setup((url) =>
      url.endsWith('/api/mutes')
        ? new Promise((resolve) => reads.push((mutes) => resolve(json({ mutes }))))
        : undefined,
    );
    return { ...env, reads };
  }

  /** A listener subscribed and the stream opened: the read the opening asks for is `reads[0]`. */
  async function subscribedAndOpen() {
    const env = withReads();
    const listener = jest.fn();
    const stop = env.backend.mutes.subscribeMutes(listener);
    await flush();
    env.last().open();
    await flush();
    return { ...env, listener, stop };
  }

  it('reads them when the stream opens, and takes each mutes event as it comes', async () => {
    const { last, reads, listener } = await subscribedAndOpen();
    reads[0]?.({});
    await flush();
    await flush();
    expect(listener.mock.calls).toEqual([[{}]]);
    last().emit('mutes', JSON.stringify({ mutes: MUTED }));
    last().emit('mutes', JSON.stringify({ mutes: {} }));
    expect(listener.mock.calls).toEqual([[{}], [MUTED], [{}]]);
  });

  it('drops a read answered after a newer event: an old answer never undoes a newer mute', async () => {
    const { last, reads, listener } = await subscribedAndOpen();
    last().emit('mutes', JSON.stringify({ mutes: MUTED }));
    reads[0]?.({});
    await flush();
    await flush();
    expect(listener.mock.calls).toEqual([[MUTED]]);
  });

  it('reads them instead of taking an event whose mutes are not channel ids to mute ends', async () => {
    const { last, reads, listener } = await subscribedAndOpen();
    reads[0]?.({});
    await flush();
    await flush();
    listener.mockClear();
    last().emit('mutes', JSON.stringify({ mutes: { c1: 'tomorrow' } }));
    await flush();
    expect(listener).not.toHaveBeenCalled();
    reads[1]?.(MUTED);
    await flush();
    await flush();
    expect(listener.mock.calls).toEqual([[MUTED]]);
  });

  it('hears nothing once unsubscribed', async () => {
    const { last, reads, listener, stop } = await subscribedAndOpen();
    stop();
    reads[0]?.(MUTED);
    await flush();
    last().emit('mutes', JSON.stringify({ mutes: MUTED }));
    expect(listener).not.toHaveBeenCalled();
  });
});
