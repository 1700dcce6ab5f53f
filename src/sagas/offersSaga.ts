// Offers: the person's active offers (get_user_active_offers, spec §7), read again whenever the
// backend says they changed; the offers a consultant issued; and issuing one to a member.
import type { EventChannel } from 'redux-saga';
import { call, fork, put, select, take, takeLatest, takeLeading } from 'redux-saga/effects';
import type { UnknownAction } from '@reduxjs/toolkit';
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
  selectOffers,
} from '@/store/offersSlice';
import type { OffersState } from '@/store/offersSlice';
import { liveResumed } from '@/store/liveSlice';
import { toFailure } from '@/backend/errors';
import { latestOf, leadingOf } from './lazySaga';
import { forEachSession, keepingChannel } from './session';
import { supervise } from './supervise';

export function createOffersChangedChannel(offers: OffersPort): EventChannel<{ changed: true }> {
  return keepingChannel((emit) => offers.subscribeOffers(() => emit({ changed: true })));
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

/** Live data flows again after an interruption: what was read is read again (changes may have been missed). */
export function* refreshAfterInterruption() {
  const offers: OffersState = yield select(selectOffers);
  if (offers.active.status !== 'idle') yield put(activeOffersRequested());
  if (offers.issued.status !== 'idle') yield put(issuedOffersRequested());
}

/** One signed-in session: offers kept live. */
export function* runOffers(_uid: string, backend: Backend) {
  yield takeLatest(liveResumed.type, refreshAfterInterruption);
  yield call(supervise, 'offers', watchOffersChanged, backend);
}

/**
 * Loaded at the offers slice's first action (src/app/lazySagas.ts); `early`: that action and the slice's others that
 * came while this chunk loaded, each handled as the watchers below would have.
 */
export function* offersSaga(backend: Backend, early: readonly UnknownAction[] = []) {
  if (latestOf(early, activeOffersRequested)) yield fork(handleActiveOffersRequested, backend);
  if (latestOf(early, issuedOffersRequested)) yield fork(handleIssuedOffersRequested, backend);
  const issue = leadingOf(early, offerIssueRequested);
  if (issue) yield fork(handleOfferIssue, backend, issue);
  yield takeLatest(activeOffersRequested.type, handleActiveOffersRequested, backend);
  yield takeLatest(issuedOffersRequested.type, handleIssuedOffersRequested, backend);
  yield takeLeading(offerIssueRequested.type, handleOfferIssue, backend);
  yield call(forEachSession, runOffers, backend);
}
