// The local adapter's live invitations (issue #12): the 'invitations' stream event, and every (re)open of the
// stream, tell the listener to read the invitations addressed to the person again; anything else is dropped.
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

function setup() {
  const sources: FakeSource[] = [];
  const session = JSON.stringify({
    accessToken: `${part({ alg: 'HS256' })}.${part({ sub: 'u1', isAdmin: false })}.signature`,
    refreshToken: 'refresh-1',
    expiresAt: NOW + 10 * 60_000,
    user: { uid: 'u1', email: 'sam@example.com', displayName: 'Sam' },
  });
  const fetchImpl = jest.fn(
    async () =>
      new Response(JSON.stringify({ ticket: 'ticket-1' }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      }),
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
