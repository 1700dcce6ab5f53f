import reducer, {
  bookingChanged,
  bookingRequested,
  bookingStepRequested,
  changeFailed,
  initialState,
  lastKnownBookingsShown,
  practiceClosed,
  practiceLoaded,
  practiceRequested,
  serviceSaved,
  slotsLoaded,
  slotsRequested,
} from '@/store/practiceSlice';
import type { PracticeState } from '@/store/practiceSlice';
import { receivedOffersLoaded } from '@/store/offersSlice';
import type { ReceivedOffer } from '@core/offers';
import { signedOut } from '@/store/userSlice';
import type { Booking, Service } from '@core/model';

const HOUR = 60 * 60 * 1000;

function booking(fields: Partial<Booking> = {}): Booking {
  return {
    id: 'book0000000000000001',
    consultantId: 'uidConsultant0000001',
    clientId: 'uidClient00000000001',
    serviceId: 'serv0000000000000001',
    serviceTitle: 'Strategy session',
    durationMinutes: 60,
    startsAt: 2_000_000_000_000,
    endsAt: 2_000_000_000_000 + HOUR,
    state: 'requested',
    payment: { method: 'credits', amount: 3, listPrice: 3, status: 'held' },
    channelId: 'chan0000000000000001',
    clientTimeZone: 'Europe/Paris',
    consultantTimeZone: 'Europe/London',
    sequence: 0,
    createdAt: 1,
    updatedAt: 1,
    ...fields,
  };
}

const service: Service = {
  id: 'serv0000000000000001',
  consultantId: 'uidConsultant0000001',
  title: 'Strategy session',
  description: '',
  durationMinutes: 60,
  priceCredits: 3,
  status: 'active',
  createdAt: 1,
  updatedAt: 1,
};

const request = {
  serviceId: service.id,
  startsAt: 2_000_000_000_000,
  paymentMethod: 'credits' as const,
  expectedCredits: 3,
  clientTimeZone: 'Europe/Paris',
};

describe('practiceSlice', () => {
  it('keeps what the screen asked to load, for a saga that starts after the asking', () => {
    const state = reducer(initialState, practiceRequested({ consultantIds: ['uidC'], isConsultant: false }));
    expect(state.status).toBe('loading');
    expect(state.load).toEqual({ consultantIds: ['uidC'], isConsultant: false });
  });

  it('gives each tap its own operation id, made when the person acts', () => {
    const first = bookingRequested(request);
    const second = bookingRequested(request);
    expect(first.payload.operationId).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(second.payload.operationId).not.toBe(first.payload.operationId);
    const step = bookingStepRequested({ bookingId: 'b1', step: 'confirm' });
    expect(step.payload.operationId).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('moves a booking from upcoming to past when it closes, and says what was done', () => {
    let state = reducer(initialState, bookingChanged({ booking: booking() }));
    expect(state.bookings.upcoming.map((b) => b.id)).toEqual(['book0000000000000001']);
    state = reducer(state, bookingStepRequested({ bookingId: 'book0000000000000001', step: 'decline' }));
    state = reducer(
      state,
      bookingChanged({ booking: booking({ state: 'declined' }), words: 'Declined the request' }),
    );
    expect(state.bookings.upcoming).toEqual([]);
    expect(state.bookings.past.map((b) => b.state)).toEqual(['declined']);
    expect(state.done).toEqual({
      kind: 'step',
      targetId: 'book0000000000000001',
      words: 'Declined the request',
    });
    expect(state.change).toBeNull();
  });

  it('orders upcoming sessions soonest first', () => {
    let state = reducer(initialState, bookingChanged({ booking: booking({ id: 'late', startsAt: 9 }) }));
    state = reducer(state, bookingChanged({ booking: booking({ id: 'soon', startsAt: 5 }) }));
    expect(state.bookings.upcoming.map((b) => b.id)).toEqual(['soon', 'late']);
  });

  it('puts a refusal where it was asked, and ends the change', () => {
    let state = reducer(initialState, bookingRequested(request));
    expect(state.change).toMatchObject({ kind: 'book', targetId: service.id });
    state = reducer(state, changeFailed({ message: 'That time was just taken.' }));
    expect(state.change).toBeNull();
    expect(state.changeError).toEqual({
      kind: 'book',
      targetId: service.id,
      message: 'That time was just taken.',
    });
  });

  it('has said the last change’s words and refusal once the person leaves /services, and keeps the bookings', () => {
    let state = reducer(initialState, bookingChanged({ booking: booking() }));
    state = reducer(state, bookingStepRequested({ bookingId: 'book0000000000000001', step: 'confirm' }));
    state = reducer(state, bookingChanged({ booking: booking({ state: 'confirmed' }), words: 'Confirmed' }));
    state = reducer(state, bookingRequested(request));
    state = reducer(state, changeFailed({ message: 'That time was just taken.' }));
    state = reducer(state, practiceClosed());
    expect(state.done).toBeNull();
    expect(state.changeError).toBeNull();
    expect(state.bookings.upcoming.map((b) => b.state)).toEqual(['confirmed']);
  });

  it('drops free times that come for a service no longer being booked', () => {
    let state = reducer(initialState, slotsRequested({ serviceId: 'a', from: 0, to: 1 }));
    state = reducer(state, slotsRequested({ serviceId: 'b', from: 0, to: 1 }));
    state = reducer(
      state,
      slotsLoaded({ serviceId: 'a', items: [{ startsAt: 1, endsAt: 2 }], timeZone: 'UTC' }),
    );
    expect(state.slots).toMatchObject({ serviceId: 'b', status: 'loading', items: [] });
  });

  it('says an archived service can no longer be booked', () => {
    const state = reducer(
      initialState,
      serviceSaved({ service: { ...service, status: 'archived' }, created: false }),
    );
    expect(state.done?.words).toBe('“Strategy session” is archived: clients can no longer book it.');
  });

  it('takes the offers read again live as its own list (a new one is bookable with its discount)', () => {
    const fresh: ReceivedOffer = {
      offeringId: 'off00000000000000009',
      discountPercent: 30,
      source: 'Spring',
      channelId: 'chan0000000000000001',
      status: 'active',
      expiresAt: 9_000_000_000_000,
      createdAt: 1,
      consultantId: 'uidC',
      state: 'active',
    };
    const state = reducer(initialState, receivedOffersLoaded([fresh]));
    expect(state.offers).toEqual([fresh]);
    expect(state.status).toBe('idle');
  });

  it('forgets everything at sign-out', () => {
    const full: PracticeState = reducer(initialState, bookingChanged({ booking: booking() }));
    expect(reducer(full, signedOut())).toEqual(initialState);
  });
});

describe('the upcoming bookings kept on this device', () => {
  const data = {
    services: [service],
    hours: {},
    bookings: { upcoming: [], past: [booking({ id: 'book0000000000000009', state: 'done' })] },
    ledger: { entries: [], balance: { credits: 3, passes: 1 } },
    earnings: null,
    offers: [],
  };

  it('shows them, as of their time, with the past unknown, while the backend has not answered', () => {
    const asked = reducer(initialState, practiceRequested({ consultantIds: [], isConsultant: false }));
    const state = reducer(asked, lastKnownBookingsShown({ upcoming: [booking()], asOf: 42 }));
    expect(state.bookings).toEqual({ upcoming: [booking()], past: [] });
    expect(state.asOf).toBe(42);
    expect(state.status).toBe('loading');
  });

  it('gives way to the live bookings, and never replaces them', () => {
    const kept = reducer(initialState, lastKnownBookingsShown({ upcoming: [booking()], asOf: 42 }));
    const live = reducer(kept, practiceLoaded(data));
    expect(live.bookings).toEqual(data.bookings);
    expect(live.asOf).toBeUndefined();
    expect(reducer(live, lastKnownBookingsShown({ upcoming: [booking()], asOf: 43 }))).toEqual(live);
  });

  it('is forgotten at sign-out', () => {
    const kept = reducer(initialState, lastKnownBookingsShown({ upcoming: [booking()], asOf: 42 }));
    expect(reducer(kept, signedOut())).toEqual(initialState);
  });
});
