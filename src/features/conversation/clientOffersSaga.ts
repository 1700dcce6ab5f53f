// A client's offers from the start of each session, not only once /services has been opened: asking for them loads
// the offers chunk (src/app/lazySagas.ts), whose saga keeps them live, so a new offer puts the dot on Services on
// any screen and a card in a consultation says what became of its offer. Started with the conversation's sagas,
// which load for every signed-in person, so the shell carries none of it.
import { call, put, select } from 'redux-saga/effects';
import { activeOffersRequested } from '@/store/offersSlice';
import { selectIsConsultant } from '@/store/userSlice';
import { forEachSession } from '@/sagas/session';

/** A consultant's offers are the ones they issue: no news to them (the offers saga says so too). */
export function* askForClientOffers() {
  const consultant: boolean = yield select(selectIsConsultant);
  if (!consultant) yield put(activeOffersRequested());
}

export function* clientOffersSaga() {
  yield call(forEachSession, askForClientOffers);
}
