/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// /services: a consultant sees the offers they issued, per client, with each one's state; a
// client keeps their balances and active offers. Neither sees the other's view.
import { render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { IssuedOffer } from '@core/model';
import { createAppStore } from '@/app/store';
import { accountLoaded, fallbackUserState, signedIn } from '@/store/userSlice';
import { issuedOffersLoaded, activeOffersLoaded } from '@/store/offersSlice';
import { overviewLoaded } from '@/store/channelsSlice';
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

function renderServices(isConsultant: boolean) {
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
});
