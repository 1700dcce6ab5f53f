// The local adapter's live practice (issue 25): the stream's 'booking' event hands the booking on as it is now
// (read with its answer schema; one it cannot read, and every (re)open, ask for the list again), 'services' the
// consultant whose services or hours changed, and 'channelRemoved' (or a channel the person is no longer in) the
// channel to drop. Anything else is dropped.
import { flush, NOW, setup } from './support/liveBackend';

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
