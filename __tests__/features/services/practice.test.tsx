/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// The practice on /services, as a person uses it: a client picks a free time in their own zone and books with an
// offer (the discounted price is what is sent as expectedCredits), is told the 24-hour rule before cancelling;
// a consultant gets Confirm and Decline on a request, and the ledger explains the balance.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { Booking, Service } from '@core/model';
import type { ReceivedOffer } from '@core/offers';
import { createAppStore } from '@/app/store';
import { accountLoaded, fallbackUserState, signedIn } from '@/store/userSlice';
import {
  bookingChanged,
  lastKnownBookingsShown,
  practiceFailed,
  practiceLoaded,
  slotsLoaded,
} from '@/store/practiceSlice';
import { connectivityChanged } from '@/store/appSlice';
import { receivedOffersLoaded } from '@/store/offersSlice';
import type { PracticeData } from '@/store/practiceSlice';
import { Practice } from '@/features/services/Practice';
import { recordActions } from '../../support/recordingStore';

const HOUR = 60 * 60 * 1000;
const CONSULTANT = 'uidConsultant0000001';
const CLIENT = 'uidClient00000000001';
// 2030-03-04 09:00 UTC is 10:00 in Paris (the jsdom environment's zone is UTC: the panel names it).
const NINE_UTC = Date.UTC(2030, 2, 4, 9, 0);

const service: Service = {
  id: 'serv0000000000000001',
  consultantId: CONSULTANT,
  title: 'Strategy session',
  description: 'An hour on one decision.',
  durationMinutes: 60,
  priceCredits: 5,
  status: 'active',
  createdAt: 1,
  updatedAt: 1,
};

const offer: ReceivedOffer = {
  offeringId: 'off00000000000000001',
  discountPercent: 20,
  source: 'Spring offer',
  channelId: 'chan0000000000000001',
  status: 'active',
  expiresAt: Date.now() + 48 * HOUR,
  createdAt: 1,
  consultantId: CONSULTANT,
  serviceId: service.id,
  serviceTitle: service.title,
  state: 'active',
};

function booking(fields: Partial<Booking>): Booking {
  return {
    id: 'book0000000000000001',
    consultantId: CONSULTANT,
    clientId: CLIENT,
    serviceId: service.id,
    serviceTitle: service.title,
    durationMinutes: 60,
    startsAt: Date.now() + 3 * HOUR,
    endsAt: Date.now() + 4 * HOUR,
    state: 'confirmed',
    payment: { method: 'credits', amount: 5, listPrice: 5, status: 'captured' },
    channelId: 'chan0000000000000001',
    clientTimeZone: 'UTC',
    consultantTimeZone: 'UTC',
    sequence: 1,
    createdAt: 1,
    updatedAt: 1,
    ...fields,
  };
}

const data = (fields: Partial<PracticeData>): PracticeData => ({
  services: [service],
  hours: {},
  bookings: { upcoming: [], past: [] },
  ledger: { entries: [], balance: { credits: 7, passes: 0 } },
  earnings: null,
  offers: [],
  ...fields,
});

function renderAs(uid: string, isConsultant: boolean, practice: PracticeData, url = '/services') {
  const recording = recordActions(createAppStore());
  const { dispatch } = recording;
  const authUser = { uid, email: 'p@example.com', displayName: 'P' };
  dispatch(signedIn({ authUser }));
  dispatch(accountLoaded({ ...fallbackUserState(authUser), isConsultant, credits: 7 }));
  dispatch(practiceLoaded(practice));
  render(
    <Provider store={recording.store}>
      <MemoryRouter initialEntries={[url]}>
        <Practice />
      </MemoryRouter>
    </Provider>,
  );
  return recording;
}

describe('the practice on /services', () => {
  it('books a free time with an offer from "Use this offer": the discounted price is the one sent', () => {
    const { seen, dispatch } = renderAs(
      CLIENT,
      false,
      data({ offers: [offer] }),
      `/services?service=${service.id}&offer=${offer.offeringId}`,
    );
    const panel = screen.getByRole('form', { name: 'Book “Strategy session”' });
    expect(seen.some((a) => a.type === 'practice/slotsRequested')).toBe(true);
    act(() => {
      dispatch(
        slotsLoaded({
          serviceId: service.id,
          items: [
            { startsAt: NINE_UTC, endsAt: NINE_UTC + HOUR },
            { startsAt: NINE_UTC + HOUR, endsAt: NINE_UTC + 2 * HOUR },
          ],
          timeZone: 'Europe/Paris',
        }),
      );
    });
    expect(within(panel).getByText('Times are in your time zone, UTC.')).toBeTruthy();
    expect(within(panel).getByText(/Credits: 4 credits/)).toBeTruthy();
    fireEvent.click(within(panel).getByRole('radio', { name: '10:00' }));
    fireEvent.click(within(panel).getByRole('button', { name: 'Request this time' }));
    const request = seen.find((a) => a.type === 'practice/bookingRequested');
    expect(request?.payload).toEqual({
      serviceId: service.id,
      startsAt: NINE_UTC + HOUR,
      paymentMethod: 'credits',
      expectedCredits: 4,
      offerId: offer.offeringId,
      clientTimeZone: 'UTC',
      operationId: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
    });
  });

  it('applies the offer "Use this offer" named once it arrives live, to a panel already open', () => {
    // The screen was loaded before the offer was issued: its list did not have it.
    const { seen, dispatch } = renderAs(
      CLIENT,
      false,
      data({ offers: [] }),
      `/services?service=${service.id}&offer=${offer.offeringId}`,
    );
    const panel = screen.getByRole('form', { name: 'Book “Strategy session”' });
    act(() => {
      dispatch(
        slotsLoaded({
          serviceId: service.id,
          items: [{ startsAt: NINE_UTC, endsAt: NINE_UTC + HOUR }],
          timeZone: 'UTC',
        }),
      );
    });
    expect(within(panel).getByText(/Credits: 5 credits/)).toBeTruthy();
    act(() => {
      dispatch(receivedOffersLoaded([offer]));
    });
    expect(within(panel).getByText(/Credits: 4 credits/)).toBeTruthy();
    fireEvent.click(within(panel).getByRole('radio', { name: '09:00' }));
    fireEvent.click(within(panel).getByRole('button', { name: 'Request this time' }));
    const request = seen.find((a) => a.type === 'practice/bookingRequested');
    expect(request?.payload).toMatchObject({ expectedCredits: 4, offerId: offer.offeringId });
  });

  it('will not ask when the credits do not cover the price, and says so', () => {
    renderAs(
      CLIENT,
      false,
      data({ services: [{ ...service, priceCredits: 9 }] }),
      `/services?service=${service.id}`,
    );
    const panel = screen.getByRole('form', { name: 'Book “Strategy session”' });
    expect(within(panel).getByText('This session costs 9 credits and you have 7.')).toBeTruthy();
  });

  it('tells a client before cancelling within 24 hours that the price stays', () => {
    const { seen } = renderAs(CLIENT, false, data({ bookings: { upcoming: [booking({})], past: [] } }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel session' }));
    expect(screen.getByText(/starts within 24 hours, so the price stays with your consultant/)).toBeTruthy();
    expect(seen.some((a) => a.type === 'practice/bookingStepRequested')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel' }));
    expect(seen.find((a) => a.type === 'practice/bookingStepRequested')?.payload).toMatchObject({
      bookingId: 'book0000000000000001',
      step: 'cancel',
    });
  });

  it('shows the upcoming sessions kept on this device offline, as of their time, and the past as unknown', () => {
    const recording = recordActions(createAppStore());
    const authUser = { uid: CLIENT, email: 'p@example.com', displayName: 'P' };
    recording.dispatch(signedIn({ authUser }));
    recording.dispatch(accountLoaded({ ...fallbackUserState(authUser), credits: 7 }));
    recording.dispatch(connectivityChanged({ online: false }));
    recording.dispatch(
      lastKnownBookingsShown({ upcoming: [booking({})], asOf: Date.UTC(2030, 2, 4, 10, 42) }),
    );
    recording.dispatch(practiceFailed({ message: 'You are offline.' }));
    render(
      <Provider store={recording.store}>
        <MemoryRouter initialEntries={['/services']}>
          <Practice />
        </MemoryRouter>
      </Provider>,
    );
    expect(
      screen.getByRole('listitem', { name: 'Strategy session with Your consultant, Confirmed' }),
    ).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Offline · as of 10:42');
    // A change needs the backend's word on the session: said, instead of a button that would fail.
    expect(screen.queryByRole('button', { name: 'Cancel session' })).toBeNull();
    expect(screen.getByText('Changing a session needs a connection.')).toBeTruthy();
    expect(screen.getByText('Unknown while offline.')).toBeTruthy();
    expect(screen.queryByText('No past sessions yet.')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('tells a client a session more than 24 hours away is cancelled free', () => {
    renderAs(
      CLIENT,
      false,
      data({ bookings: { upcoming: [booking({ startsAt: Date.now() + 48 * HOUR })], past: [] } }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Cancel session' }));
    expect(screen.getByText(/more than 24 hours away, so the price comes back to you/)).toBeTruthy();
  });

  it('gives a consultant Confirm, Decline and another time on a request, and no Cancel', () => {
    const { seen } = renderAs(
      CONSULTANT,
      true,
      data({ bookings: { upcoming: [booking({ state: 'requested' })], past: [] } }),
    );
    const item = screen.getByRole('listitem', {
      name: 'Strategy session with A client, Waiting for you to confirm',
    });
    expect(within(item).queryByRole('button', { name: /Cancel/ })).toBeNull();
    expect(within(item).getByRole('button', { name: 'Propose another time' })).toBeTruthy();
    fireEvent.click(within(item).getByRole('button', { name: 'Confirm' }));
    expect(seen.find((a) => a.type === 'practice/bookingStepRequested')?.payload).toMatchObject({
      step: 'confirm',
    });
  });

  it('names the client on each of a consultant’s requests, so two at a time read apart', () => {
    renderAs(
      CONSULTANT,
      true,
      data({
        bookings: {
          upcoming: [
            booking({ state: 'requested', clientName: 'Morgan', consultantName: 'Dana' }),
            booking({ id: 'book0000000000000002', state: 'requested', clientId: 'uidClient00000000002' }),
          ],
          past: [booking({ id: 'book0000000000000003', state: 'done', clientName: 'Sam Patel' })],
        },
      }),
    );
    const upcoming = within(screen.getByRole('list', { name: 'Upcoming' })).getAllByRole('listitem');
    expect(upcoming.map((item) => item.getAttribute('aria-label'))).toEqual([
      'Strategy session with Morgan, Waiting for you to confirm',
      // A booking without a name (kept from before names were) never shows the client's id.
      'Strategy session with A client, Waiting for you to confirm',
    ]);
    expect(within(upcoming[0] as HTMLElement).getByRole('heading').textContent).toBe(
      'Strategy session with Morgan',
    );
    expect(screen.queryByText(/uidClient/)).toBeNull();
    expect(within(screen.getByRole('list', { name: 'Past' })).getByRole('heading').textContent).toBe(
      'Strategy session with Sam Patel',
    );
  });

  it('names the consultant on a client’s session', () => {
    renderAs(
      CLIENT,
      false,
      data({ bookings: { upcoming: [booking({ clientName: 'Morgan', consultantName: 'Dana' })], past: [] } }),
    );
    expect(screen.getByRole('listitem', { name: 'Strategy session with Dana, Confirmed' })).toBeTruthy();
  });

  it('says a step’s words once: leaving /services and coming back does not show them again', () => {
    const request = booking({ state: 'requested', clientName: 'Morgan' });
    const { store } = renderAs(CONSULTANT, true, data({ bookings: { upcoming: [request], past: [] } }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    act(() => {
      store.dispatch(
        bookingChanged({ booking: { ...request, state: 'confirmed' }, words: 'Confirmed the session' }),
      );
    });
    expect(screen.getByText('Confirmed the session.')).toBeTruthy();

    // The person goes Home (the screen unmounts) and comes back: the same store, the screen anew.
    cleanup();
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={['/services']}>
          <Practice />
        </MemoryRouter>
      </Provider>,
    );
    act(() => {
      store.dispatch(
        practiceLoaded(data({ bookings: { upcoming: [{ ...request, state: 'confirmed' }], past: [] } })),
      );
    });
    expect(screen.getByRole('listitem', { name: 'Strategy session with Morgan, Confirmed' })).toBeTruthy();
    expect(screen.queryByText('Confirmed the session.')).toBeNull();
  });

  it('explains the balance line by line: a hold, then its capture', () => {
    renderAs(
      CLIENT,
      false,
      data({
        ledger: {
          balance: { credits: 2, passes: 0 },
          entries: [
            {
              id: 'c',
              uid: CLIENT,
              kind: 'capture',
              delta: { credits: 0, passes: 0 },
              amount: { credits: 5, passes: 0 },
              balanceAfter: { credits: 2, passes: 0 },
              createdAt: 3,
            },
            {
              id: 'h',
              uid: CLIENT,
              kind: 'hold',
              delta: { credits: -5, passes: 0 },
              amount: { credits: 5, passes: 0 },
              balanceAfter: { credits: 2, passes: 0 },
              createdAt: 2,
            },
          ],
        },
      }),
    );
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/Paid \(the held price taken\)5 credits, already held2 cr · 0 p/),
      expect.stringMatching(/Held for a booking−5 credits2 cr · 0 p/),
    ]);
    expect(screen.getByText('2 credits')).toBeTruthy();
  });

  it('tells a consultant with no balance where their sessions are paid, not "Now: nothing"', () => {
    renderAs(CONSULTANT, true, data({ ledger: { entries: [], balance: { credits: 0, passes: 0 } } }));
    const section = screen.getByRole('region', { name: 'Your credits and passes' });
    expect(section.textContent).toMatch(/your clients pay for your sessions from their own balances/);
    expect(section.textContent).toMatch(/What your services earned is under Earnings above/);
    expect(section.textContent).not.toMatch(/Now:|nothing/);
  });

  it('tells a client with no balance yet how credits and passes arrive', () => {
    renderAs(CLIENT, false, data({ ledger: { entries: [], balance: { credits: 0, passes: 0 } } }));
    const section = screen.getByRole('region', { name: 'Your history' });
    expect(section.textContent).toMatch(/No credits or passes yet\. An invitation from your consultant/);
    expect(section.textContent).not.toMatch(/Now: nothing/);
  });
});
