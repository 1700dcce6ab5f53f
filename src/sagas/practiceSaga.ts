// The practice on /services (src/store/practiceSlice.ts): reads services, hours, bookings, the ledger, earnings and
// the person's offers; books, takes steps on bookings, saves services and hours, each with the operation id the
// action carries; and keeps bookings and services live while the screen has loaded them. After any change of money
// (a booking, a step) the ledger is read again: its balance is the backend's, never worked out here.
import type { EventChannel } from 'redux-saga';
import { all, call, cancel, fork, put, select, take, takeLatest, takeLeading } from 'redux-saga/effects';
import type { Task } from 'redux-saga';
import type { UnknownAction } from '@reduxjs/toolkit';
import type { Backend, FreeSlots, Unsubscribe } from '@/backend/ports';
import { toFailure } from '@/backend/errors';
import type { Availability, Booking, Service } from '@core/model';
import type { Earnings } from '@core/ledger';
import type { ReceivedOffer } from '@core/offers';
import { bookingCardText } from '@core/cards';
import type { BookingEvent } from '@core/model';
import {
  bookingChanged,
  bookingRequested,
  bookingStepRequested,
  changeFailed,
  hoursSaved,
  hoursSaveRequested,
  ledgerLoaded,
  earningsLoaded,
  practiceFailed,
  practiceLoaded,
  practiceRequested,
  selectPractice,
  serviceSaved,
  serviceSaveRequested,
  slotsFailed,
  slotsLoaded,
  slotsRequested,
} from '@/store/practiceSlice';
import { servicesNewsMarked } from '@/store/offersSlice';
import type { BookingStep, PracticeData, PracticeState } from '@/store/practiceSlice';
import { activeOffersRequested } from '@/store/offersSlice';
import { forEachSession, keepingChannel } from './session';
import { latestOf, leadingOf } from './lazySaga';

/** The event each step makes, for the words that say it was done (the same as its card's). */
const STEP_EVENTS: Record<BookingStep, BookingEvent> = {
  confirm: 'confirmed',
  decline: 'declined',
  propose: 'proposed',
  acceptProposal: 'proposal-accepted',
  declineProposal: 'proposal-declined',
  cancel: 'cancelled',
  complete: 'done',
  refund: 'refunded',
};

export function* handlePracticeRequested(backend: Backend, action: ReturnType<typeof practiceRequested>) {
  const { consultantIds, isConsultant } = action.payload;
  try {
    const [serviceLists, hourList, bookings, ledger, earnings, offers]: [
      Service[][],
      Array<Availability | null>,
      PracticeData['bookings'],
      PracticeData['ledger'],
      Earnings | null,
      ReceivedOffer[],
    ] = yield all([
      all(consultantIds.map((id) => call([backend.services, backend.services.listServices], id))),
      all(consultantIds.map((id) => call([backend.services, backend.services.getHours], id))),
      call([backend.bookings, backend.bookings.listMyBookings]),
      call([backend.ledger, backend.ledger.listMyLedger]),
      isConsultant ? call([backend.ledger, backend.ledger.getEarnings]) : null,
      isConsultant ? [] : call([backend.offers, backend.offers.listMyOffers]),
    ]);
    const hours: PracticeData['hours'] = {};
    consultantIds.forEach((id, i) => {
      hours[id] = hourList[i] ?? null;
    });
    yield put(practiceLoaded({ services: serviceLists.flat(), hours, bookings, ledger, earnings, offers }));
  } catch (error) {
    yield put(practiceFailed({ message: toFailure(error).message }));
  }
}

export function* handleSlotsRequested(backend: Backend, action: ReturnType<typeof slotsRequested>) {
  const { serviceId } = action.payload;
  try {
    const free: FreeSlots = yield call([backend.services, backend.services.listFreeSlots], action.payload);
    yield put(
      slotsLoaded({
        serviceId,
        items: free.slots,
        timeZone: free.timeZone,
        ...(free.noHours ? { noHours: free.noHours } : {}),
      }),
    );
  } catch (error) {
    yield put(slotsFailed({ serviceId, message: toFailure(error).message }));
  }
}

/**
 * The ledger (and a consultant's earnings) read again after money may have moved; a failure leaves the last ones
 * shown.
 */
export function* refreshLedger(backend: Backend) {
  try {
    const ledger: PracticeData['ledger'] = yield call([backend.ledger, backend.ledger.listMyLedger]);
    yield put(ledgerLoaded(ledger));
    const { load }: PracticeState = yield select(selectPractice);
    if (load?.isConsultant) {
      const earnings: Earnings = yield call([backend.ledger, backend.ledger.getEarnings]);
      yield put(earningsLoaded({ earnings }));
    }
  } catch {
    // The next change or reconnect reads it again; the screen keeps what it had.
  }
}

export function* handleBookingRequested(backend: Backend, action: ReturnType<typeof bookingRequested>) {
  try {
    const booking: Booking = yield call([backend.bookings, backend.bookings.requestBooking], action.payload);
    yield put(bookingChanged({ booking, words: bookingCardText('requested', booking.serviceTitle) }));
    yield call(refreshLedger, backend);
    // The offer it used is used now: the home's and this screen's lists say so.
    if (action.payload.offerId) yield put(activeOffersRequested());
  } catch (error) {
    yield put(changeFailed({ message: toFailure(error).message }));
  }
}

function stepCall(backend: Backend, action: ReturnType<typeof bookingStepRequested>) {
  const { bookingId, step, startsAt, operationId } = action.payload;
  const b = backend.bookings;
  switch (step) {
    case 'confirm':
      return call([b, b.confirmBooking], bookingId, { operationId });
    case 'decline':
      return call([b, b.declineBooking], bookingId, { operationId });
    case 'propose':
      return call([b, b.proposeTime], bookingId, { operationId, startsAt: startsAt ?? 0 });
    case 'acceptProposal':
      return call([b, b.acceptProposal], bookingId, { operationId });
    case 'declineProposal':
      return call([b, b.declineProposal], bookingId, { operationId });
    case 'cancel':
      return call([b, b.cancelBooking], bookingId, { operationId });
    case 'complete':
      return call([b, b.completeBooking], bookingId, { operationId });
    case 'refund':
      return call([b, b.refundBooking], bookingId, { operationId });
  }
}

export function* handleBookingStep(backend: Backend, action: ReturnType<typeof bookingStepRequested>) {
  try {
    const booking: Booking = yield stepCall(backend, action);
    const words = bookingCardText(STEP_EVENTS[action.payload.step], booking.serviceTitle);
    yield put(bookingChanged({ booking, words }));
    yield call(refreshLedger, backend);
  } catch (error) {
    yield put(changeFailed({ message: toFailure(error).message }));
  }
}

export function* handleServiceSave(backend: Backend, action: ReturnType<typeof serviceSaveRequested>) {
  const { payload } = action;
  try {
    const service: Service =
      payload.serviceId === null
        ? yield call([backend.services, backend.services.createService], {
            ...payload.service,
            operationId: payload.operationId,
          })
        : yield call([backend.services, backend.services.updateService], payload.serviceId, payload.patch);
    yield put(serviceSaved({ service, created: payload.serviceId === null }));
  } catch (error) {
    yield put(changeFailed({ message: toFailure(error).message }));
  }
}

export function* handleHoursSave(backend: Backend, action: ReturnType<typeof hoursSaveRequested>) {
  const { timeZone, hours } = action.payload;
  try {
    const availability: Availability = yield call([backend.services, backend.services.setHours], {
      timeZone,
      hours,
    });
    yield put(hoursSaved({ availability }));
  } catch (error) {
    yield put(changeFailed({ message: toFailure(error).message }));
  }
}

/** The backend's live bookings: a booking as it is now, or null (the connection reopened: read everything again). */
export function createBookingsChannel(backend: Backend): EventChannel<{ booking: Booking | null }> {
  return keepingChannel((emit) => backend.bookings.subscribeBookings((booking) => emit({ booking })));
}

/** The backend's "these consultants' services or hours changed". */
export function createServicesChannel(backend: Backend, consultantIds: readonly string[]) {
  return keepingChannel<{ changed: true }>((emit) => {
    const stops: Unsubscribe[] = consultantIds.map((id) =>
      backend.services.subscribeServices(id, () => emit({ changed: true })),
    );
    return () => stops.forEach((stop) => stop());
  });
}

/**
 * While the screen's data is loaded: a live booking is applied and the ledger read again; a reopened connection
 * (null) reads everything again, as changes may have been missed.
 */
export function* watchBookings(backend: Backend, load: ReturnType<typeof practiceRequested>) {
  const channel: EventChannel<{ booking: Booking | null }> = yield call(createBookingsChannel, backend);
  try {
    while (true) {
      const { booking }: { booking: Booking | null } = yield take(channel);
      if (booking) {
        yield put(bookingChanged({ booking }));
        // The dot on Services, until /services is seen (it clears at once while it is open).
        yield put(servicesNewsMarked(true));
        yield call(refreshLedger, backend);
      } else {
        yield put(practiceRequested(load.payload));
      }
    }
  } finally {
    channel.close();
  }
}

export function* watchServices(backend: Backend, load: ReturnType<typeof practiceRequested>) {
  const channel: EventChannel<{ changed: true }> = yield call(
    createServicesChannel,
    backend,
    load.payload.consultantIds,
  );
  try {
    while (true) {
      yield take(channel);
      yield put(practiceRequested(load.payload));
    }
  } finally {
    channel.close();
  }
}

/** Live updates for what the latest load asked for; a new load (other consultants) restarts them. */
export function* keepLive(backend: Backend, load: ReturnType<typeof practiceRequested>) {
  yield all([call(watchBookings, backend, load), call(watchServices, backend, load)]);
}

function sameLoad(a: ReturnType<typeof practiceRequested>, b: ReturnType<typeof practiceRequested>): boolean {
  return (
    a.payload.isConsultant === b.payload.isConsultant &&
    a.payload.consultantIds.join() === b.payload.consultantIds.join()
  );
}

/** The live watchers follow the latest load; a reload for the same people leaves them running. */
export function* followLoads(backend: Backend, first: ReturnType<typeof practiceRequested> | undefined) {
  let current: ReturnType<typeof practiceRequested> = first ?? (yield take(practiceRequested.type));
  while (true) {
    const load: ReturnType<typeof practiceRequested> = current;
    const task: Task = yield fork(keepLive, backend, load);
    let next: ReturnType<typeof practiceRequested> = yield take(practiceRequested.type);
    while (sameLoad(next, load)) next = yield take(practiceRequested.type);
    yield cancel(task);
    current = next;
  }
}

/**
 * Loaded at the practice slice's first action (src/sagas/offersSaga.ts starts it in a chunk of its own); `early`:
 * that action and the slice's others that came while the chunk loaded, handled as the watchers below would have.
 */
export function* practiceSaga(backend: Backend, early: readonly UnknownAction[] = []) {
  // A load asked for before the offers saga could start this chunk is in the slice, not among `early`.
  const asked: PracticeState = yield select(selectPractice);
  const load = latestOf(early, practiceRequested) ?? (asked.load ? practiceRequested(asked.load) : undefined);
  if (load) yield fork(handlePracticeRequested, backend, load);
  const slots = latestOf(early, slotsRequested);
  if (slots) yield fork(handleSlotsRequested, backend, slots);
  yield takeLatest(practiceRequested.type, handlePracticeRequested, backend);
  yield takeLatest(slotsRequested.type, handleSlotsRequested, backend);
  // One change at a time: a second tap while the first is on its way is the same intent.
  const book = leadingOf(early, bookingRequested);
  if (book) yield fork(handleBookingRequested, backend, book);
  yield takeLeading(bookingRequested.type, handleBookingRequested, backend);
  yield takeLeading(bookingStepRequested.type, handleBookingStep, backend);
  yield takeLeading(serviceSaveRequested.type, handleServiceSave, backend);
  yield takeLeading(hoursSaveRequested.type, handleHoursSave, backend);
  const firstLoad = { load };
  yield call(forEachSession, runPracticeSession, backend, firstLoad);
}

/** One signed-in session: its loads followed live; the load that started the chunk belongs to the first session. */
export function* runPracticeSession(
  _uid: string,
  backend: Backend,
  firstLoad: { load: ReturnType<typeof practiceRequested> | undefined },
) {
  const load = firstLoad.load;
  firstLoad.load = undefined;
  yield call(followLoads, backend, load);
}
