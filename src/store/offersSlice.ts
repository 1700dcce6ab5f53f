// Offers: the person's active offers from get_user_active_offers (spec §7), the offers a consultant
// issued, and an offer being issued. Expired ones are filtered out where they are shown (the clock moves; the
// list does not need to change for that).
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { IssuedOffer, NewOffer, Offer } from '@core/model';
import type { ReceivedOffer } from '@core/offers';
import type { LoadStatus } from './status';
import { signedOut } from './userSlice';

export interface OffersState {
  active: { status: LoadStatus; items: Offer[]; error: string | null };
  issued: { status: LoadStatus; items: IssuedOffer[]; error: string | null };
  issue: { status: 'idle' | 'sending' | 'sent' | 'failed'; error: string | null; last: IssuedOffer | null };
  /** A new offer or a booking's change arrived since /services was last seen: the nav's dot on Services. */
  unseen: boolean;
  /** A client's every offer with its state (listMyOffers): what a card of one no longer active says happened. */
  received: ReceivedOffer[];
}

export const initialState: OffersState = {
  active: { status: 'idle', items: [], error: null },
  issued: { status: 'idle', items: [], error: null },
  issue: { status: 'idle', error: null, last: null },
  unseen: false,
  received: [],
};

const offersSlice = createSlice({
  name: 'offers',
  initialState,
  reducers: {
    activeOffersRequested(state) {
      if (state.active.status !== 'loaded') state.active.status = 'loading';
      state.active.error = null;
    },
    activeOffersLoaded(state, action: PayloadAction<{ items: Offer[] }>) {
      state.active = { status: 'loaded', items: action.payload.items, error: null };
    },
    receivedOffersLoaded(state, action: PayloadAction<ReceivedOffer[]>) {
      state.received = action.payload;
    },
    activeOffersFailed(state, action: PayloadAction<{ message: string }>) {
      state.active.status = state.active.items.length > 0 ? 'loaded' : 'failed';
      state.active.error = action.payload.message;
    },
    issuedOffersRequested(state) {
      if (state.issued.status !== 'loaded') state.issued.status = 'loading';
      state.issued.error = null;
    },
    issuedOffersLoaded(state, action: PayloadAction<{ items: IssuedOffer[] }>) {
      state.issued = { status: 'loaded', items: action.payload.items, error: null };
    },
    issuedOffersFailed(state, action: PayloadAction<{ message: string }>) {
      state.issued.status = state.issued.items.length > 0 ? 'loaded' : 'failed';
      state.issued.error = action.payload.message;
    },
    offerIssueRequested(state, _action: PayloadAction<NewOffer>) {
      state.issue = { status: 'sending', error: null, last: null };
    },
    offerIssued(state, action: PayloadAction<{ offer: IssuedOffer }>) {
      const { offer } = action.payload;
      state.issue = { status: 'sent', error: null, last: offer };
      // A reload of the list (after a reconnect) may have answered first, with this offer in it: listed once.
      state.issued.items = [offer, ...state.issued.items.filter((o) => o.offeringId !== offer.offeringId)];
    },
    offerIssueFailed(state, action: PayloadAction<{ message: string }>) {
      state.issue = { status: 'failed', error: action.payload.message, last: null };
    },
    offerIssueDismissed(state) {
      state.issue = initialState.issue;
    },
    /** true: news for /services arrived (sagas); false: /services was seen (its screen). One case: shell bytes. */
    servicesNewsMarked(state, action: PayloadAction<boolean>) {
      state.unseen = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
  },
});

export const {
  activeOffersRequested,
  activeOffersLoaded,
  receivedOffersLoaded,
  activeOffersFailed,
  issuedOffersRequested,
  issuedOffersLoaded,
  issuedOffersFailed,
  offerIssueRequested,
  offerIssued,
  offerIssueFailed,
  offerIssueDismissed,
  servicesNewsMarked,
} = offersSlice.actions;
export default offersSlice.reducer;

interface WithOffers {
  offers: OffersState;
}
export const selectOffers = (state: WithOffers): OffersState => state.offers;
export const selectActiveOffers = (state: WithOffers) => state.offers.active;
export const selectIssuedOffers = (state: WithOffers) => state.offers.issued;
export const selectOfferIssue = (state: WithOffers) => state.offers.issue;
export const selectServicesNews = (state: WithOffers) => state.offers.unseen;
export const selectReceivedOffers = (state: WithOffers) => state.offers.received;
