// The consulting practice as /services shows it (ARCHITECTURE.md: services, bookings, the ledger): the services of
// the person's consultants (or their own), weekly hours, their bookings, their ledger, a consultant's earnings, the
// offers made to them, the free times of the service being booked, and the one change on its way. Injected when
// the services screen loads (the shell carries none of it). Every change carries an operation id made when the
// person acts (the action's prepare), so a retry of the same action changes nothing twice.
import { createSlice, nanoid } from '@reduxjs/toolkit';
import type { PayloadAction, WithSlice } from '@reduxjs/toolkit';
import type { Availability, Booking, HoursInterval, LedgerEntry, Service, Slot, Balance } from '@core/model';
import type { BookingRequest } from '@core/bookings';
import type { NewService, ServicePatch } from '@core/catalog';
import type { Earnings } from '@core/ledger';
import type { ReceivedOffer } from '@core/offers';
import { newDocumentId } from '@core/ids';
import { sharedReducer } from './reducer';
import type { LoadStatus } from './status';
import { signedOut } from './userSlice';
import { receivedOffersLoaded } from './offersSlice';

/** The steps on a booking a person can take from the screen (core/bookings.ts says who may take which, when). */
export type BookingStep =
  'confirm' | 'decline' | 'propose' | 'acceptProposal' | 'declineProposal' | 'cancel' | 'complete' | 'refund';

/** What the screen is doing: one change at a time, named so its button can say so. */
export interface PracticeChange {
  kind: 'book' | 'step' | 'service' | 'hours';
  /** The booking or service it is about ('' for a new one). */
  targetId: string;
  operationId: string;
}

export interface PracticeState {
  status: LoadStatus;
  /** What the screen last asked to load (the saga, when its chunk comes after the asking, reads it here). */
  load: PracticeLoad | null;
  error: string | null;
  services: Service[];
  /** Each consultant's hours, by consultant id; null when they set none. */
  hours: Record<string, Availability | null>;
  bookings: { upcoming: Booking[]; past: Booking[] };
  ledger: { entries: LedgerEntry[]; balance: Balance } | null;
  earnings: Earnings | null;
  offers: ReceivedOffer[];
  slots: {
    serviceId: string | null;
    status: LoadStatus;
    items: Slot[];
    timeZone: string | null;
    noHours: string | null;
    error: string | null;
  };
  change: PracticeChange | null;
  /** The last change's refusal, for the place that asked for it. */
  changeError: { kind: PracticeChange['kind']; targetId: string; message: string } | null;
  /** Words for the last change done ("Requested: …"), shown once as a status. */
  done: { kind: PracticeChange['kind']; targetId: string; words: string } | null;
  /**
   * Absent while the bookings are the backend's. Else the upcoming ones are the last known, kept on this device, as
   * of this time, and the past ones unknown: shown while the backend has not answered (or could not).
   */
  asOf?: number;
}

export const initialState: PracticeState = {
  status: 'idle',
  load: null,
  error: null,
  services: [],
  hours: {},
  bookings: { upcoming: [], past: [] },
  ledger: null,
  earnings: null,
  offers: [],
  slots: { serviceId: null, status: 'idle', items: [], timeZone: null, noHours: null, error: null },
  change: null,
  changeError: null,
  done: null,
};

/** What /services loads: everyone's bookings and ledger; a client's consultants' services, a consultant's own. */
export interface PracticeLoad {
  consultantIds: string[];
  isConsultant: boolean;
}

export interface PracticeData {
  services: Service[];
  hours: Record<string, Availability | null>;
  bookings: { upcoming: Booking[]; past: Booking[] };
  ledger: { entries: LedgerEntry[]; balance: Balance };
  earnings: Earnings | null;
  offers: ReceivedOffer[];
}

function upsertBooking(state: PracticeState, booking: Booking): void {
  const without = (list: Booking[]) => list.filter((b) => b.id !== booking.id);
  const upcoming = without(state.bookings.upcoming);
  const past = without(state.bookings.past);
  // Open: upcoming, soonest first; closed: past, latest first (as listMyBookings orders them; a session that ended
  // while open moves at the next read).
  if (booking.state === 'requested' || booking.state === 'confirmed') {
    upcoming.push(booking);
    upcoming.sort((a, b) => a.startsAt - b.startsAt);
  } else {
    past.push(booking);
    past.sort((a, b) => b.startsAt - a.startsAt);
  }
  state.bookings = { upcoming, past };
}

function startChange(state: PracticeState, change: PracticeChange): void {
  state.change = change;
  state.changeError = null;
  state.done = null;
}

const practiceSlice = createSlice({
  name: 'practice',
  initialState,
  reducers: {
    practiceRequested(state, action: PayloadAction<PracticeLoad>) {
      state.load = action.payload;
      if (state.status !== 'loaded') state.status = 'loading';
      state.error = null;
    },
    practiceLoaded(state, action: PayloadAction<PracticeData>) {
      Object.assign(state, action.payload);
      state.status = 'loaded';
      state.error = null;
      delete state.asOf;
    },
    /** The upcoming bookings kept on this device (src/features/conversation/lastKnownSaga.ts), until live ones. */
    lastKnownBookingsShown(state, action: PayloadAction<{ upcoming: Booking[]; asOf: number }>) {
      if (state.status === 'loaded') return;
      state.bookings = { upcoming: action.payload.upcoming, past: [] };
      state.asOf = action.payload.asOf;
    },
    practiceFailed(state, action: PayloadAction<{ message: string }>) {
      state.status = state.status === 'loaded' ? 'loaded' : 'failed';
      state.error = action.payload.message;
    },
    slotsRequested(state, action: PayloadAction<{ serviceId: string; from: number; to: number }>) {
      state.slots = { ...initialState.slots, serviceId: action.payload.serviceId, status: 'loading' };
    },
    slotsLoaded(
      state,
      action: PayloadAction<{ serviceId: string; items: Slot[]; timeZone: string | null; noHours?: string }>,
    ) {
      const { serviceId, items, timeZone, noHours } = action.payload;
      // A late answer for a service no longer being booked is dropped.
      if (state.slots.serviceId !== serviceId) return;
      state.slots = { serviceId, status: 'loaded', items, timeZone, noHours: noHours ?? null, error: null };
    },
    slotsFailed(state, action: PayloadAction<{ serviceId: string; message: string }>) {
      if (state.slots.serviceId !== action.payload.serviceId) return;
      state.slots = { ...state.slots, status: 'failed', error: action.payload.message };
    },
    bookingClosed(state) {
      state.slots = initialState.slots;
    },
    /**
     * The person left /services: the words of their last change (and its refusal) were seen there, and are not
     * said again when they come back (a change made meanwhile elsewhere is told by its card and notice).
     */
    practiceClosed(state) {
      state.done = null;
      state.changeError = null;
    },
    bookingRequested: {
      reducer(state, action: PayloadAction<BookingRequest & { operationId: string }>) {
        startChange(state, {
          kind: 'book',
          targetId: action.payload.serviceId,
          operationId: action.payload.operationId,
        });
      },
      prepare: (request: BookingRequest) => ({ payload: { ...request, operationId: newDocumentId() } }),
    },
    bookingStepRequested: {
      reducer(
        state,
        action: PayloadAction<{
          bookingId: string;
          step: BookingStep;
          startsAt?: number;
          operationId: string;
        }>,
      ) {
        startChange(state, {
          kind: 'step',
          targetId: action.payload.bookingId,
          operationId: action.payload.operationId,
        });
      },
      prepare: (input: { bookingId: string; step: BookingStep; startsAt?: number }) => ({
        payload: { ...input, operationId: newDocumentId() },
      }),
    },
    /** A booking as it is now: the answer of a change, or a live one from the backend. */
    bookingChanged(state, action: PayloadAction<{ booking: Booking; words?: string }>) {
      const { booking, words } = action.payload;
      upsertBooking(state, booking);
      if (state.change && (state.change.targetId === booking.id || state.change.kind === 'book') && words) {
        state.done = { kind: state.change.kind, targetId: booking.id, words };
        state.change = null;
        if (state.slots.serviceId === booking.serviceId) state.slots = initialState.slots;
      }
    },
    ledgerLoaded(state, action: PayloadAction<{ entries: LedgerEntry[]; balance: Balance }>) {
      state.ledger = action.payload;
    },
    earningsLoaded(state, action: PayloadAction<{ earnings: Earnings }>) {
      state.earnings = action.payload.earnings;
    },
    serviceSaveRequested: {
      reducer(
        state,
        action: PayloadAction<
          | { serviceId: null; service: NewService; operationId: string }
          | { serviceId: string; patch: ServicePatch; operationId: string }
        >,
      ) {
        startChange(state, {
          kind: 'service',
          targetId: action.payload.serviceId ?? '',
          operationId: action.payload.operationId,
        });
      },
      prepare: (
        input: { serviceId: null; service: NewService } | { serviceId: string; patch: ServicePatch },
      ) => ({ payload: { ...input, operationId: newDocumentId() } }),
    },
    serviceSaved(state, action: PayloadAction<{ service: Service; created: boolean }>) {
      const { service, created } = action.payload;
      state.services = [...state.services.filter((s) => s.id !== service.id), service];
      state.done = {
        kind: 'service',
        targetId: created ? '' : service.id,
        words: created
          ? `“${service.title}” is offered now.`
          : service.status === 'archived'
            ? `“${service.title}” is archived: clients can no longer book it.`
            : `“${service.title}” is saved.`,
      };
      state.change = null;
    },
    hoursSaveRequested: {
      reducer(state, action: PayloadAction<{ timeZone: string; hours: HoursInterval[]; requestId: string }>) {
        startChange(state, { kind: 'hours', targetId: '', operationId: action.payload.requestId });
      },
      // Setting hours is a replace, a repeat of which changes nothing: an id names the request, not an operation.
      prepare: (input: { timeZone: string; hours: HoursInterval[] }) => ({
        payload: { ...input, requestId: nanoid() },
      }),
    },
    hoursSaved(state, action: PayloadAction<{ availability: Availability }>) {
      const { availability } = action.payload;
      state.hours[availability.consultantId] = availability;
      state.done = { kind: 'hours', targetId: '', words: 'Your hours are saved.' };
      state.change = null;
    },
    changeFailed(state, action: PayloadAction<{ message: string }>) {
      if (!state.change) return;
      state.changeError = {
        kind: state.change.kind,
        targetId: state.change.targetId,
        message: action.payload.message,
      };
      state.change = null;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
    // The offers read again live (src/sagas/offersSaga.ts): a new one is bookable with its discount at once.
    builder.addCase(receivedOffersLoaded, (state, action) => {
      state.offers = action.payload;
    });
  },
});

export const {
  practiceRequested,
  practiceLoaded,
  lastKnownBookingsShown,
  practiceFailed,
  slotsRequested,
  slotsLoaded,
  slotsFailed,
  bookingClosed,
  practiceClosed,
  bookingRequested,
  bookingStepRequested,
  bookingChanged,
  ledgerLoaded,
  earningsLoaded,
  serviceSaveRequested,
  serviceSaved,
  hoursSaveRequested,
  hoursSaved,
  changeFailed,
} = practiceSlice.actions;
export default practiceSlice.reducer;

declare module '@/store/reducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof practiceSlice> {}
}
practiceSlice.injectInto(sharedReducer);

interface WithPractice {
  practice?: PracticeState;
}
export const selectPractice = (state: WithPractice): PracticeState => state.practice ?? initialState;
