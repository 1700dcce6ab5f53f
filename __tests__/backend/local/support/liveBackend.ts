// A signed-in local backend whose live stream is a fake EventSource the test drives, and whose requests a test
// answers by URL (everything else gets a stream ticket): for the tests of what the stream's events become.
import { createLocalBackend } from '@/backend/local';
import { createSessionStore } from '@/backend/local/session';
import type { EventSourceLike } from '@/backend/local/stream';
import type { Fetch } from '@/backend/local/http';
import { LOCAL_STORAGE_KEYS } from '@/platform';
import type { KeyValueStore } from '@/platform';

export class FakeSource implements EventSourceLike {
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

export const NOW = 1_800_000_000_000;
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function memoryStore(initial: Record<string, string>): KeyValueStore {
  const data = { ...initial };
  return {
    getItem: (key) => data[key] ?? null,
    setItem: (key, value) => void (data[key] = value),
    removeItem: (key) => void delete data[key],
  };
}

export const json = (value: unknown) =>
  new Response(JSON.stringify(value), { status: 200, headers: { 'Content-Type': 'application/json' } });

/** `route` answers the requests it knows (by URL); everything else gets a stream ticket. */
export function setup(route: (url: string) => Promise<Response> | undefined = () => undefined) {
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

export const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
