// The practice saga at its ports: each change sends the operation id its action carries, says what was done or
// why it was refused, and reads the ledger again; a load asked for before the chunk came is made when it starts;
// live bookings are applied, and a reopened connection reads everything again.
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import {
  handleBookingRequested,
  handleBookingStep,
  practiceSaga,
  refreshLedger,
  watchBookings,
} from '@/sagas/practiceSaga';
import practice, { bookingRequested, bookingStepRequested, practiceRequested } from '@/store/practiceSlice';
import offers from '@/store/offersSlice';
import user from '@/store/userSlice';
import type { Booking, LedgerEntry } from '@core/model';
import { createFakeBackend } from '../support/fakeBackend';

const reducer = combineReducers({ practice, offers, user });
type State = ReturnType<typeof reducer>;
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
    payment: {
      method: 'credits',
      amount: 2,
      listPrice: 3,
      offerId: 'off1',
      discountPercent: 20,
      status: 'held',
    },
    channelId: 'chan0000000000000001',
    clientTimeZone: 'Europe/Paris',
    consultantTimeZone: 'Europe/London',
    sequence: 0,
    createdAt: 1,
    updatedAt: 1,
    ...fields,
  };
}

const hold: LedgerEntry = {
  id: 'op1',
  uid: 'uidClient00000000001',
  kind: 'hold',
  delta: { credits: -2, passes: 0 },
  amount: { credits: 2, passes: 0 },
  balanceAfter: { credits: 1, passes: 0 },
  createdAt: 5,
};
const ledger = { entries: [hold], balance: { credits: 1, passes: 0 } };

const request = bookingRequested({
  serviceId: 'serv0000000000000001',
  startsAt: 2_000_000_000_000,
  paymentMethod: 'credits',
  offerId: 'off1',
  expectedCredits: 2,
  clientTimeZone: 'Europe/Paris',
});

describe('handleBookingRequested', () => {
  it('books with the operation id of the tap, shows the booking, the ledger after it, and asks offers again', async () => {
    const fake = createFakeBackend();
    fake.bookings.requestBooking.mockResolvedValue(booking());
    fake.ledger.listMyLedger.mockResolvedValue(ledger);
    const { storeState } = await expectSaga(handleBookingRequested, fake as unknown as Backend, request)
      .withReducer(reducer, reducer(undefined, request))
      .put.like({ action: { type: 'offers/activeOffersRequested' } })
      .run();
    expect(fake.bookings.requestBooking).toHaveBeenCalledWith(request.payload);
    expect(request.payload.operationId).toMatch(/^[A-Za-z0-9]{20}$/);
    const state = (storeState as State).practice;
    expect(state.bookings.upcoming.map((b) => b.id)).toEqual(['book0000000000000001']);
    expect(state.done?.words).toBe('Requested a session: “Strategy session”');
    expect(state.ledger).toEqual(ledger);
  });

  it('shows the refusal’s words and moves nothing', async () => {
    const backend = createFakeBackend() as unknown as Backend;
    const refusal = new BackendError(
      'FAILED_PRECONDITION',
      'That time is taken. Pick another.',
      'slot-taken',
    );
    const { storeState } = await expectSaga(handleBookingRequested, backend, request)
      .withReducer(reducer, reducer(undefined, request))
      .provide([[matchers.call.fn(backend.bookings.requestBooking), throwError(refusal)]])
      .not.call.fn(backend.ledger.listMyLedger)
      .run();
    const state = (storeState as State).practice;
    expect(state.changeError).toEqual({
      kind: 'book',
      targetId: 'serv0000000000000001',
      message: 'That time is taken. Pick another.',
    });
    expect(state.bookings.upcoming).toEqual([]);
  });
});

describe('handleBookingStep', () => {
  it('confirms through the bookings port with the step’s operation id', async () => {
    const fake = createFakeBackend();
    const confirmed = booking({ state: 'confirmed', payment: { ...booking().payment, status: 'captured' } });
    fake.bookings.confirmBooking.mockResolvedValue(confirmed);
    fake.ledger.listMyLedger.mockResolvedValue(ledger);
    const step = bookingStepRequested({ bookingId: 'book0000000000000001', step: 'confirm' });
    const { storeState } = await expectSaga(handleBookingStep, fake as unknown as Backend, step)
      .withReducer(reducer, reducer(undefined, step))
      .run();
    expect(fake.bookings.confirmBooking).toHaveBeenCalledWith('book0000000000000001', {
      operationId: step.payload.operationId,
    });
    expect((storeState as State).practice.done?.words).toBe('Confirmed the session “Strategy session”');
    expect((storeState as State).practice.bookings.upcoming[0]?.state).toBe('confirmed');
  });

  it('proposes another time with the time chosen', async () => {
    const fake = createFakeBackend();
    fake.bookings.proposeTime.mockResolvedValue(booking({ proposal: { startsAt: 7, endsAt: 8 } }));
    fake.ledger.listMyLedger.mockResolvedValue(ledger);
    const step = bookingStepRequested({ bookingId: 'book0000000000000001', step: 'propose', startsAt: 7 });
    await expectSaga(handleBookingStep, fake as unknown as Backend, step)
      .withReducer(reducer)
      .run();
    expect(fake.bookings.proposeTime).toHaveBeenCalledWith('book0000000000000001', {
      operationId: step.payload.operationId,
      startsAt: 7,
    });
  });
});

describe('refreshLedger', () => {
  it('reads a consultant’s earnings again with the ledger, so a confirmed session counts at once', async () => {
    const fake = createFakeBackend();
    const earnings = {
      services: [],
      total: { credits: 1, passes: 0, sessions: 1 },
      offersUsed: [],
    };
    fake.ledger.listMyLedger.mockResolvedValue(ledger);
    fake.ledger.getEarnings.mockResolvedValue(earnings);
    const asConsultant = reducer(undefined, practiceRequested({ consultantIds: ['c'], isConsultant: true }));
    const { storeState } = await expectSaga(refreshLedger, fake as unknown as Backend)
      .withReducer(reducer, asConsultant)
      .run();
    expect((storeState as State).practice.earnings).toEqual(earnings);
  });

  it('reads no earnings for a client', async () => {
    const fake = createFakeBackend();
    fake.ledger.listMyLedger.mockResolvedValue(ledger);
    const asClient = reducer(undefined, practiceRequested({ consultantIds: ['c'], isConsultant: false }));
    await expectSaga(refreshLedger, fake as unknown as Backend)
      .withReducer(reducer, asClient)
      .run();
    expect(fake.ledger.getEarnings).not.toHaveBeenCalled();
  });
});

describe('practiceSaga', () => {
  it('makes the load the screen asked for before the chunk came', async () => {
    const fake = createFakeBackend();
    fake.services.listServices.mockResolvedValue([]);
    fake.services.getHours.mockResolvedValue(null);
    fake.bookings.listMyBookings.mockResolvedValue({ upcoming: [], past: [] });
    fake.ledger.listMyLedger.mockResolvedValue(ledger);
    fake.offers.listMyOffers.mockResolvedValue([]);
    const asked = practiceRequested({ consultantIds: ['uidConsultant0000001'], isConsultant: false });
    const { storeState } = await expectSaga(practiceSaga, fake as unknown as Backend, [])
      .withReducer(reducer, reducer(undefined, asked))
      .silentRun(50);
    expect(fake.services.listServices).toHaveBeenCalledWith('uidConsultant0000001');
    expect((storeState as State).practice.status).toBe('loaded');
    expect((storeState as State).practice.ledger).toEqual(ledger);
  });
});

describe('watchBookings', () => {
  it('applies a live booking and reads the ledger; a reopened connection reads everything again', async () => {
    const fake = createFakeBackend();
    let emit: ((b: Booking | null) => void) | null = null;
    fake.bookings.subscribeBookings.mockImplementation((listener: (b: Booking | null) => void) => {
      emit = listener;
      return () => (emit = null);
    });
    fake.ledger.listMyLedger.mockResolvedValue(ledger);
    const load = practiceRequested({ consultantIds: [], isConsultant: true });
    const run = expectSaga(watchBookings, fake as unknown as Backend, load)
      .withReducer(reducer)
      .put(practiceRequested(load.payload))
      .silentRun(50);
    await Promise.resolve();
    emit!(booking({ state: 'confirmed' }));
    emit!(null);
    const { storeState } = await run;
    expect((storeState as State).practice.bookings.upcoming[0]?.state).toBe('confirmed');
    expect((storeState as State).practice.ledger).toEqual(ledger);
  });
});
