// The local adapter's live practice (issue 25): the stream's 'booking' event hands the booking on as it is now
// (read with its answer schema; one it cannot read, and every (re)open, ask for the list again), 'services' the
// consultant whose services or hours changed, and 'channelRemoved' (or a channel the person is no longer in) the
// channel to drop. Anything else is dropped.
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

const booking = {
  id: 'BookingAAAAAAAAAAAAA',
  consultantId: 'c1',
  clientId: 'u1',
  serviceId: 'ServiceAAAAAAAAAAAAA',
  serviceTitle: 'Strategy session',
  durationMinutes: 60,
  startsAt: NOW + 86_400_000,
  endsAt: NOW + 90_000_000,
  state: 'requested',
  payment: { method: 'credits', amount: 2, listPrice: 2, status: 'held' },
  channelId: 'ChannelAAAAAAAAAAAAA',
  clientTimeZone: 'Europe/Paris',
  consultantTimeZone: 'UTC',
  sequence: 0,
  createdAt: NOW,
  updatedAt: NOW,
};

describe('bookings.subscribeBookings (local)', () => {
  it('hands on each booking event as the booking, and null (read the list again) at every open', async () => {
    const { backend, last } = setup();
    const listener = jest.fn();
    backend.bookings.subscribeBookings(listener);
    await flush();
    last().open();
    expect(listener).toHaveBeenLastCalledWith(null);
    last().emit('booking', JSON.stringify({ booking }));
    expect(listener).toHaveBeenLastCalledWith(booking);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('asks for the list again for a booking it cannot read, and never throws into the page', async () => {
    const { backend, last } = setup();
    const listener = jest.fn();
    backend.bookings.subscribeBookings(listener);
    await flush();
    last().open();
    listener.mockClear();
    expect(() =>
      last().emit('booking', JSON.stringify({ booking: { ...booking, startsAt: 'tomorrow' } })),
    ).not.toThrow();
    expect(listener).toHaveBeenCalledWith(null);
    listener.mockClear();
    last().emit('booking', 'not json');
    last().emit('services', JSON.stringify({ consultantId: 'c1' }));
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('services.subscribeServices (local)', () => {
  it("asks for a read at every open and when that consultant's services change, not another's", async () => {
    const { backend, last } = setup();
    const listener = jest.fn();
    const stop = backend.services.subscribeServices('c1', listener);
    await flush();
    last().open();
    expect(listener).toHaveBeenCalledTimes(1);
    last().emit('services', JSON.stringify({ consultantId: 'c2' }));
    expect(listener).toHaveBeenCalledTimes(1);
    last().emit('services', JSON.stringify({ consultantId: 'c1' }));
    expect(listener).toHaveBeenCalledTimes(2);
    stop();
    last().emit('services', JSON.stringify({ consultantId: 'c1' }));
    expect(listener).toHaveBeenCalledTimes(2);
  });
});

describe('housekeeping.subscribeChannelRemoved (local)', () => {
  const channel = (members: string[], ownerId = 'c1') => ({
    channel: {
      id: 'ChannelAAAAAAAAAAAAA',
      channelId: 'studio',
      ownerId,
      title: 'Studio',
      description: '',
      members,
      createdAt: NOW,
    },
  });

  it('names a deleted channel, and one the person was taken out of, but not one they are still in', async () => {
    const { backend, last } = setup();
    const listener = jest.fn();
    backend.housekeeping.subscribeChannelRemoved(listener);
    await flush();
    last().open();
    last().emit('channel', JSON.stringify(channel(['u1'])));
    last().emit('channel', JSON.stringify(channel([], 'u1')));
    expect(listener).not.toHaveBeenCalled();
    last().emit('channelRemoved', JSON.stringify({ channelId: 'ChannelBBBBBBBBBBBBB' }));
    expect(listener).toHaveBeenLastCalledWith('ChannelBBBBBBBBBBBBB');
    last().emit('channel', JSON.stringify(channel(['u2'])));
    expect(listener).toHaveBeenLastCalledWith('ChannelAAAAAAAAAAAAA');
    expect(listener).toHaveBeenCalledTimes(2);
    expect(() => last().emit('channel', JSON.stringify(channel('u2' as unknown as string[])))).not.toThrow();
    last().emit('channelRemoved', JSON.stringify({ channelId: 7 }));
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
