// Offers (issue #6): the person's active offers (get_user_active_offers, spec §7), read again whenever the
// backend says they changed; the offers a consultant issued; and issuing one to a member.
import { eventChannel } from 'redux-saga';
import type { EventChannel } from 'redux-saga';
import { call, put, take, takeLatest, takeLeading } from 'redux-saga/effects';
import { loadBackend } from '@/backend';
import type { Backend, OffersPort } from '@/backend/ports';
import type { IssuedOffer, Offer } from '@core/model';
import {
  activeOffersFailed,
  activeOffersLoaded,
  activeOffersRequested,
  issuedOffersFailed,
  issuedOffersLoaded,
  issuedOffersRequested,
  offerIssued,
  offerIssueFailed,
  offerIssueRequested,
} from '@/store/offersSlice';
import { toFailure } from './errors';

export function createOffersChangedChannel(offers: OffersPort): EventChannel<{ changed: true }> {
  return eventChannel((emit) => offers.subscribeOffers(() => emit({ changed: true })));
}

export function* handleActiveOffersRequested(backend: Backend) {
  try {
    const { offers }: { offers: Offer[] } = yield call([
      backend.callables,
      backend.callables.getUserActiveOffers,
    ]);
    yield put(activeOffersLoaded({ items: offers }));
  } catch (error) {
    yield put(activeOffersFailed({ message: toFailure(error).message }));
  }
}

export function* handleIssuedOffersRequested(backend: Backend) {
  try {
    const items: IssuedOffer[] = yield call([backend.offers, backend.offers.listIssuedOffers]);
    yield put(issuedOffersLoaded({ items }));
  } catch (error) {
    yield put(issuedOffersFailed({ message: toFailure(error).message }));
  }
}

export function* handleOfferIssue(backend: Backend, action: ReturnType<typeof offerIssueRequested>) {
  try {
    const offer: IssuedOffer = yield call([backend.offers, backend.offers.issueOffer], action.payload);
    yield put(offerIssued({ offer }));
  } catch (error) {
    yield put(offerIssueFailed({ message: toFailure(error).message }));
  }
}

/** While signed in: the backend's "offers changed" reads the active offers again. */
export function* watchOffersChanged(backend: Backend) {
  const channel: EventChannel<{ changed: true }> = yield call(createOffersChangedChannel, backend.offers);
  try {
    while (true) {
      yield take(channel);
      yield put(activeOffersRequested());
    }
  } finally {
    channel.close();
  }
}

export function* handleSessionChanged(backend: Backend, action: { type: string }) {
  if (action.type === 'user/loaded') yield call(watchOffersChanged, backend);
}

export function* offersSaga() {
  let backend: Backend;
  try {
    backend = yield call(loadBackend);
  } catch {
    return;
  }
  yield takeLatest(activeOffersRequested.type, handleActiveOffersRequested, backend);
  yield takeLatest(issuedOffersRequested.type, handleIssuedOffersRequested, backend);
  yield takeLeading(offerIssueRequested.type, handleOfferIssue, backend);
  yield takeLatest(['user/loaded', 'user/signedOut'], handleSessionChanged, backend);
}
