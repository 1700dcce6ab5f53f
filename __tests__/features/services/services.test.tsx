/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// /services: a consultant sees the offers they issued, per client, with each one's state; a
// client keeps their balances and active offers. Neither sees the other's view.
import { render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { IssuedOffer } from '@core/model';
import type { ReceivedOffer } from '@core/offers';
import { createAppStore } from '@/app/store';
import { accountLoaded, fallbackUserState, signedIn } from '@/store/userSlice';
import { issuedOffersLoaded, activeOffersLoaded } from '@/store/offersSlice';
import { overviewLoaded } from '@/store/channelsSlice';
import { practiceLoaded } from '@/store/practiceSlice';
import { Component as Services } from '@/features/services/route';

const HOUR = 60 * 60 * 1000;
const now = Date.now();
const CHANNEL = 'chanA000000000000001';

function offer(id: string, userName: string, fields: Partial<IssuedOffer>): IssuedOffer {
  return {
    offeringId: id,
    discountPercent: 10,
    source: 'Spring offer',
    channelId: CHANNEL,
    status: 'active',
    expiresAt: now + 48 * HOUR,
    createdAt: now - HOUR,
    userId: `uid${userName}`,
    userName,
    ...fields,
  };
}

function renderServices(
  isConsultant: boolean,
  before: (store: ReturnType<typeof createAppStore>) => void = () => {},
) {
  const store = createAppStore();
  const uid = 'uidOwner000000000001';
  store.dispatch(signedIn({ authUser: { uid, email: 'dana@example.com', displayName: 'Dana' } }));
  store.dispatch(
    accountLoaded({
      ...fallbackUserState({ uid, email: 'dana@example.com', displayName: 'Dana' }),
      isConsultant,
      credits: 7,
    }),
  );
  store.dispatch(
    overviewLoaded({
      items: [
        {
          channel: {
            id: CHANNEL,
            channelId: 'clinic',
            ownerId: uid,
            title: 'Growth Clinic',
            description: '',
            members: [],
            createdAt: 1,
          },
          lastMessage: null,
          unread: 0,
        },
      ],
    }),
  );
  store.dispatch(
    issuedOffersLoaded({
      items: [
        offer('OfferPriyaActive0001', 'Priya', { discountPercent: 20 }),
        offer('OfferSamExpired00001', 'Sam', { expiresAt: now - HOUR }),
        offer('OfferPriyaUsed000001', 'Priya', { status: 'used' }),
        offer('OfferSamRevoked00001', 'Sam', { status: 'revoked' }),
      ],
    }),
  );
  store.dispatch(activeOffersLoaded({ items: [] }));
  before(store);
  render(
    <Provider store={store}>
      <MemoryRouter>
        <Services />
      </MemoryRouter>
    </Provider>,
  );
}

describe('/services', () => {
  it('shows a consultant the offers they issued per client, each with its state, and no client view', () => {
    renderServices(true);
    const priya = screen.getByRole('list', { name: /^Priya/ });
    expect(
      within(priya)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringMatching(/^20 %.*Growth Clinic.*Active.*ends in/),
      expect.stringMatching(/^10 %.*Used/),
    ]);
    const sam = screen.getByRole('list', { name: /^Sam/ });
    expect(
      within(sam)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringMatching(/Expired.*ended/), expect.stringMatching(/Withdrawn/)]);
    expect(screen.queryByLabelText('Your balance')).toBeNull();
    expect(document.body.textContent).not.toMatch(/When your consultant sends you an offer/);
    expect(screen.queryByRole('heading', { name: 'Your offers' })).toBeNull();
  });

  it('keeps a client’s balances and offers, without the consultant’s list', () => {
    renderServices(false);
    expect(screen.getByLabelText('Your balance').textContent).toContain('7');
    expect(screen.getByRole('heading', { name: 'Your offers' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Offers you issued' })).toBeNull();
  });

  it('leads a client from an offer to its service’s booking, and says why an offer naming no service cannot', () => {
    const forService = offer('OfferForService00001', 'Morgan', {
      discountPercent: 20,
      source: 'Pricing review',
    });
    const older = offer('OfferNoService000001', 'Morgan', { discountPercent: 10, source: 'Welcome offer' });
    const received = (o: IssuedOffer, more: Partial<ReceivedOffer>): ReceivedOffer => ({
      offeringId: o.offeringId,
      discountPercent: o.discountPercent,
      source: o.source,
      channelId: o.channelId,
      status: o.status,
      expiresAt: o.expiresAt,
      createdAt: o.createdAt,
      consultantId: 'uidOwner000000000001',
      state: 'active',
      ...more,
    });
    renderServices(false, (store) => {
      store.dispatch(activeOffersLoaded({ items: [forService, older] }));
      store.dispatch(
        practiceLoaded({
          services: [],
          hours: {},
          bookings: { upcoming: [], past: [] },
          ledger: { entries: [], balance: { credits: 7, passes: 0 } },
          earnings: null,
          offers: [
            received(forService, { serviceId: 'ServiceStrategy00001', serviceTitle: 'Strategy session' }),
            received(older, {}),
          ],
        }),
      );
    });
    const [first, second] = within(screen.getByRole('list', { name: 'Active offers' })).getAllByRole(
      'listitem',
    );
    const use = within(first as HTMLElement).getByRole('link', {
      name: 'Use this offer on Strategy session',
    });
    expect(use.getAttribute('href')).toBe(
      '/services?service=ServiceStrategy00001&offer=OfferForService00001',
    );
    expect(within(second as HTMLElement).queryByRole('link', { name: /Use this offer/ })).toBeNull();
    expect(second?.textContent).toMatch(
      /names no service: choose it in the booking of any of your consultant’s services/,
    );
  });
});
