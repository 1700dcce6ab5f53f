/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// An offer's card in a consultation, as its client reads it: "Use this offer" while it is active, and once it is not,
// which happened to it (used, withdrawn, expired), from the client's every offer.
import { act, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { MessageCard } from '@core/model';
import type { ReceivedOffer } from '@core/offers';
import { createAppStore } from '@/app/store';
import { accountLoaded, fallbackUserState, signedIn } from '@/store/userSlice';
import { activeOffersLoaded, receivedOffersLoaded } from '@/store/offersSlice';
import { MessageCardView } from '@/features/conversation/MessageCardView';

const NOW = Date.UTC(2030, 2, 4, 9, 0);
const card: MessageCard = {
  kind: 'offer',
  offeringId: 'off00000000000000001',
  serviceId: 'serv0000000000000001',
  serviceTitle: 'Strategy session',
  discountPercent: 20,
  expiresAt: NOW + 48 * 60 * 60 * 1000,
};
const offer: ReceivedOffer = {
  offeringId: card.offeringId,
  discountPercent: 20,
  source: 'Spring offer',
  channelId: 'chan0000000000000001',
  status: 'active',
  expiresAt: card.expiresAt,
  createdAt: 1,
  consultantId: 'uidConsultant0000001',
  serviceId: card.serviceId,
  serviceTitle: card.serviceTitle,
  state: 'active',
};

function renderCard() {
  const store = createAppStore();
  const authUser = { uid: 'uidClient00000000001', email: 'c@example.com', displayName: 'C' };
  store.dispatch(signedIn({ authUser }));
  store.dispatch(accountLoaded({ ...fallbackUserState(authUser), isConsultant: false }));
  render(
    <Provider store={store}>
      <MemoryRouter>
        <MessageCardView card={card} own={false} now={NOW} />
      </MemoryRouter>
    </Provider>,
  );
  return store;
}

describe('an offer’s card for its client', () => {
  it('offers "Use this offer" while the offer is active', () => {
    const store = renderCard();
    act(() => {
      store.dispatch(activeOffersLoaded({ items: [offer] }));
      store.dispatch(receivedOffersLoaded([offer]));
    });
    expect(screen.getByRole('link', { name: 'Use this offer' })).toBeTruthy();
  });

  it.each([
    ['revoked', 'This offer was withdrawn.'],
    ['used', 'This offer was used.'],
    ['expired', 'This offer has expired.'],
  ] as const)('says which happened once it is no longer active: %s', (state, words) => {
    const store = renderCard();
    act(() => {
      store.dispatch(activeOffersLoaded({ items: [] }));
      store.dispatch(
        receivedOffersLoaded([{ ...offer, status: state === 'expired' ? 'active' : state, state }]),
      );
    });
    expect(screen.getByText(words)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Use this offer' })).toBeNull();
  });

  it('says only that it can no longer be used when its offer is not among those read yet', () => {
    const store = renderCard();
    act(() => {
      store.dispatch(activeOffersLoaded({ items: [] }));
    });
    expect(screen.getByText('This offer can no longer be used.')).toBeTruthy();
  });
});
