// A client's offers are asked for at each sign-in, from a chunk every signed-in person loads, so the offers saga
// (and its live watch: the dot on Services) runs before /services is ever opened; a consultant's are not.
import { expectSaga } from 'redux-saga-test-plan';
import { combineReducers } from '@reduxjs/toolkit';
import { clientOffersSaga } from '@/features/conversation/clientOffersSaga';
import offers, { activeOffersRequested } from '@/store/offersSlice';
import user, { accountLoaded, buildUserState, signedIn, signedOut } from '@/store/userSlice';

const reducer = combineReducers({ user, offers });
const me = { uid: 'uidClient00000000001', email: 'c@example.com', displayName: 'C' };
const loaded = (isConsultant: boolean) =>
  accountLoaded({ ...buildUserState(me, null, { isAdmin: false }), isConsultant });

describe('clientOffersSaga', () => {
  it('asks for a client’s offers at each sign-in', async () => {
    const result = await expectSaga(clientOffersSaga)
      .withReducer(reducer)
      .dispatch(signedIn({ authUser: me }))
      .dispatch(loaded(false))
      .dispatch(signedOut())
      .dispatch(signedIn({ authUser: me }))
      .dispatch(loaded(false))
      .silentRun(30);
    const asked = result.effects.put?.filter((e) => e.payload.action.type === activeOffersRequested.type);
    expect(asked).toHaveLength(2);
  });

  it('asks at once for a session already signed in when it starts (its chunk loads after the sign-in)', async () => {
    const start = reducer(reducer(undefined, signedIn({ authUser: me })), loaded(false));
    await expectSaga(clientOffersSaga).withReducer(reducer, start).put(activeOffersRequested()).silentRun(30);
  });

  it('does not ask for a consultant', async () => {
    await expectSaga(clientOffersSaga)
      .withReducer(reducer)
      .dispatch(signedIn({ authUser: me }))
      .dispatch(loaded(true))
      .not.put(activeOffersRequested())
      .silentRun(30);
  });
});
