// Offers: the person's active offers (get_user_active_offers, spec §7), read again whenever the
// backend says they changed; the offers a consultant issued; and issuing one to a member.
import { buffers } from 'redux-saga';
import type { Channel, EventChannel } from 'redux-saga';
import { actionChannel, call, fork, put, select, take, takeLatest, takeLeading } from 'redux-saga/effects';
import type { Action, UnknownAction } from '@reduxjs/toolkit';
import type { Backend, OffersPort } from '@/backend/ports';
import type { IssuedOffer, Offer } from '@core/model';
import type { ReceivedOffer } from '@core/offers';
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
  receivedOffersLoaded,
  selectOffers,
  servicesNewsMarked,
} from '@/store/offersSlice';
import { selectIsConsultant } from '@/store/userSlice';
import type { OffersState } from '@/store/offersSlice';
import { liveResumed } from '@/store/liveSlice';
import { toFailure } from '@/backend/errors';
import { latestOf, lazySaga, leadingOf } from './lazySaga';
import type { SliceRequests } from './lazySaga';
import type { PracticeLoad } from '@/store/practiceSlice';
import { forEachSession, keepingChannel } from './session';
import { supervise, superviseQuietly } from './supervise';

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
  const consultant: boolean = yield select(selectIsConsultant);
  if (!consultant) yield call(refreshReceivedOffers, backend);
}

/**
 * A client's every offer with its state, read with the active ones: a card says which happened to an offer no longer
 * active, and /services (its practice slice takes the same action) books a new one with its discount.
 */
export function* refreshReceivedOffers(backend: Backend) {
  try {
    const items: ReceivedOffer[] = yield call([backend.offers, backend.offers.listMyOffers]);
    yield put(receivedOffersLoaded(items));
  } catch {
    // What was read stays: the next change or reconnect reads it again, and the active list shows the failure.
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

/**
 * While signed in: the backend's "offers changed" reads the active offers again, and puts the dot on Services for
 * a client (a consultant's own offers change when they issue one: no news to them).
 */
export function* watchOffersChanged(backend: Backend) {
  const channel: EventChannel<{ changed: true }> = yield call(createOffersChangedChannel, backend.offers);
  try {
    while (true) {
      yield take(channel);
      yield put(activeOffersRequested());
      const consultant: boolean = yield select(selectIsConsultant);
      if (!consultant) yield put(servicesNewsMarked(true));
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

export const loadPracticeSaga = () => import(/* webpackChunkName: "practice" */ './practiceSaga');

/**
 * Trigger of the practice's chunk: its slice's first action, or one that came before this saga ran (the services
 * screen asks for offers and the practice together; the practice slice keeps what it was asked to load, and the
 * practice saga starts with that rather than lose it).
 */
export function* whenPracticeWanted() {
  const asked: PracticeLoad | null = yield select(
    (state: { practice?: { load: PracticeLoad | null } }) => state.practice?.load ?? null,
  );
  // The practice saga reads what was asked from the slice when it starts.
  if (asked) return true;
  const isPractice = (action: Action): boolean => action.type.startsWith('practice/');
  const meanwhile: Channel<UnknownAction> = yield actionChannel(
    isPractice,
    buffers.expanding<UnknownAction>(),
  );
  const first: UnknownAction = yield take(meanwhile);
  return { first, meanwhile } satisfies SliceRequests;
}

/**
 * The practice (services, bookings, the ledger) in a chunk of its own, started from here rather than from the root
 * saga so the shell carries none of it: offers are asked for wherever the practice is shown.
 */
export function* lazyPracticeSaga(backend: Backend) {
  yield* lazySaga({
    name: 'practice',
    load: loadPracticeSaga,
    when: whenPracticeWanted,
    *start(module: Awaited<ReturnType<typeof loadPracticeSaga>>, early) {
      yield call(module.practiceSaga, backend, early);
    },
  });
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
  yield fork(superviseQuietly, 'practice', lazyPracticeSaga, backend);
  yield takeLatest(activeOffersRequested.type, handleActiveOffersRequested, backend);
  yield takeLatest(issuedOffersRequested.type, handleIssuedOffersRequested, backend);
  yield takeLeading(offerIssueRequested.type, handleOfferIssue, backend);
  yield call(forEachSession, runOffers, backend);
}
