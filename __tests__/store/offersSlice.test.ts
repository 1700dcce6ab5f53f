import { findNonSerializableValue } from '@reduxjs/toolkit';
import type { IssuedOffer, Offer } from '@core/model';
import reducer, {
  activeOffersFailed,
  activeOffersLoaded,
  activeOffersRequested,
  initialState,
  issuedOffersFailed,
  issuedOffersLoaded,
  issuedOffersRequested,
  offerIssueDismissed,
  offerIssueFailed,
  offerIssueRequested,
  offerIssued,
  receivedOffersLoaded,
  selectActiveOffers,
  selectIssuedOffers,
  selectOfferIssue,
  selectOffers,
  selectReceivedOffers,
  selectServicesNews,
  servicesNewsMarked,
} from '@/store/offersSlice';
import type { OffersState } from '@/store/offersSlice';
import { signedOut } from '@/store/userSlice';

const CH = 'ChannelA000000000001';
const NOW = 1_700_000_000_000;

const offer = (offeringId: string): Offer => ({
  offeringId,
  discountPercent: 20,
  source: 'consultant',
  channelId: CH,
  status: 'active',
  expiresAt: NOW + 86_400_000,
  createdAt: NOW,
});
const issued = (offeringId: string): IssuedOffer => ({
  ...offer(offeringId),
  userId: 'uidLeo',
  userName: 'Leo',
});
const newOffer = {
  channelId: CH,
  userId: 'uidLeo',
  serviceId: 'ServiceStrategy00001',
  discountPercent: 20,
  expiresAt: NOW + 1,
};

const at = (offers: OffersState) => ({ offers });

describe("offers reducer: the person's active offers", () => {
  it('starts with nothing loaded', () => {
    const state = reducer(undefined, { type: '@@INIT' });
    expect(selectActiveOffers(at(state))).toEqual({ status: 'idle', items: [], error: null });
    expect(selectIssuedOffers(at(state))).toEqual({ status: 'idle', items: [], error: null });
    expect(selectOfferIssue(at(state))).toEqual({ status: 'idle', error: null, last: null });
  });

  it('loads them, and keeps them listed while they are read again', () => {
    let state = reducer(initialState, activeOffersRequested());
    expect(selectActiveOffers(at(state)).status).toBe('loading');
    state = reducer(state, activeOffersLoaded({ items: [offer('o1')] }));
    state = reducer(state, activeOffersRequested());
    expect(selectActiveOffers(at(state))).toMatchObject({ status: 'loaded', items: [{ offeringId: 'o1' }] });
  });

  it('takes a new read as the whole list (an offer used elsewhere disappears)', () => {
    let state = reducer(initialState, activeOffersLoaded({ items: [offer('o1'), offer('o2')] }));
    state = reducer(state, activeOffersLoaded({ items: [offer('o2')] }));
    expect(selectActiveOffers(at(state)).items.map((o) => o.offeringId)).toEqual(['o2']);
  });

  it('says why a read failed, still showing what it had, and clears the words on the next read', () => {
    const none = reducer(
      reducer(initialState, activeOffersRequested()),
      activeOffersFailed({ message: 'Offline' }),
    );
    expect(selectActiveOffers(at(none))).toEqual({ status: 'failed', items: [], error: 'Offline' });
    const some = reducer(
      reducer(initialState, activeOffersLoaded({ items: [offer('o1')] })),
      activeOffersFailed({ message: 'Offline' }),
    );
    expect(selectActiveOffers(at(some))).toMatchObject({ status: 'loaded', error: 'Offline' });
    expect(selectActiveOffers(at(reducer(none, activeOffersRequested())))).toMatchObject({
      status: 'loading',
      error: null,
    });
  });
});

describe("offers reducer: a consultant's issued offers", () => {
  it('loads them and says why a read failed, as the active ones', () => {
    let state = reducer(initialState, issuedOffersRequested());
    expect(selectIssuedOffers(at(state)).status).toBe('loading');
    state = reducer(state, issuedOffersLoaded({ items: [issued('o1')] }));
    state = reducer(state, issuedOffersRequested());
    state = reducer(state, issuedOffersFailed({ message: 'Server busy' }));
    expect(selectIssuedOffers(at(state))).toMatchObject({
      status: 'loaded',
      items: [{ offeringId: 'o1' }],
      error: 'Server busy',
    });
    const none = reducer(
      reducer(initialState, issuedOffersRequested()),
      issuedOffersFailed({ message: 'x' }),
    );
    expect(selectIssuedOffers(at(none)).status).toBe('failed');
  });

  it('issues one and lists it first', () => {
    let state = reducer(initialState, issuedOffersLoaded({ items: [issued('old')] }));
    state = reducer(state, offerIssueRequested(newOffer));
    expect(selectOfferIssue(at(state))).toEqual({ status: 'sending', error: null, last: null });
    state = reducer(state, offerIssued({ offer: issued('new') }));
    expect(selectOfferIssue(at(state))).toMatchObject({
      status: 'sent',
      error: null,
      last: { offeringId: 'new' },
    });
    expect(selectIssuedOffers(at(state)).items.map((o) => o.offeringId)).toEqual(['new', 'old']);
  });

  it('lists an issued offer once when a read of the list already brought it', () => {
    // A reload (after a reconnect) can answer before the issue call does, with the new offer in it.
    let state = reducer(initialState, issuedOffersLoaded({ items: [issued('old')] }));
    state = reducer(state, offerIssueRequested(newOffer));
    state = reducer(state, issuedOffersLoaded({ items: [issued('new'), issued('old')] }));
    state = reducer(state, offerIssued({ offer: issued('new') }));
    expect(selectIssuedOffers(at(state)).items.map((o) => o.offeringId)).toEqual(['new', 'old']);
  });

  it('says why an offer was refused, and forgets it when dismissed', () => {
    let state = reducer(initialState, offerIssueRequested({ ...newOffer, discountPercent: 120 }));
    state = reducer(state, offerIssueFailed({ message: 'The discount must be between 1 and 100 %.' }));
    expect(selectOfferIssue(at(state))).toEqual({
      status: 'failed',
      error: 'The discount must be between 1 and 100 %.',
      last: null,
    });
    expect(selectOfferIssue(at(reducer(state, offerIssueDismissed())))).toEqual({
      status: 'idle',
      error: null,
      last: null,
    });
  });
});

describe('offers reducer: sign-out', () => {
  it("forgets the account's offers", () => {
    let state = reducer(initialState, activeOffersLoaded({ items: [offer('o1')] }));
    state = reducer(state, offerIssued({ offer: issued('o2') }));
    state = reducer(state, signedOut());
    expect(selectOffers(at(state))).toEqual(initialState);
  });

  it('stays serializable', () => {
    let state = reducer(initialState, activeOffersLoaded({ items: [offer('o1')] }));
    state = reducer(state, offerIssued({ offer: issued('o2') }));
    state = reducer(state, issuedOffersFailed({ message: 'x' }));
    expect(findNonSerializableValue(state)).toBe(false);
  });

  it('keeps a client’s every offer as the last read gave it, and forgets them at sign-out', () => {
    const used = { ...offer('o1'), status: 'used' as const, consultantId: 'uidC', state: 'used' as const };
    let state = reducer(initialState, receivedOffersLoaded([used]));
    expect(selectReceivedOffers(at(state))).toEqual([used]);
    state = reducer(state, receivedOffersLoaded([]));
    expect(selectReceivedOffers(at(state))).toEqual([]);
    state = reducer(reducer(state, receivedOffersLoaded([used])), signedOut());
    expect(selectReceivedOffers(at(state))).toEqual([]);
  });

  it('marks news for /services until the screen is seen, and forgets it at sign-out', () => {
    let state = reducer(initialState, servicesNewsMarked(true));
    expect(selectServicesNews(at(state))).toBe(true);
    state = reducer(state, servicesNewsMarked(false));
    expect(selectServicesNews(at(state))).toBe(false);
    state = reducer(reducer(state, servicesNewsMarked(true)), signedOut());
    expect(selectServicesNews(at(state))).toBe(false);
  });
});
