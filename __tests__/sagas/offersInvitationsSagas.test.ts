import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import { handleActiveOffersRequested, handleOfferIssue, watchOffersChanged } from '@/sagas/offersSaga';
import {
  handleAccept,
  handleActivate,
  handleInvitationCreate,
  handleInvitationRequested,
} from '@/sagas/invitationsSaga';
import offers, { activeOffersRequested, offerIssueRequested } from '@/store/offersSlice';
import invitations, {
  acceptRequested,
  activateRequested,
  invitationCreateRequested,
  invitationRequested,
} from '@/store/invitationsSlice';
import channels from '@/store/channelsSlice';
import user, { buildUserState, accountLoaded, signedIn } from '@/store/userSlice';
import type { Invitation, IssuedOffer, Offer, UserDoc } from '@core/model';
import { createFakeBackend } from '../support/fakeBackend';

const reducer = combineReducers({ user, channels, offers, invitations });
type State = ReturnType<typeof reducer>;
const backend = createFakeBackend() as unknown as Backend;
const ME = 'uidMember00000000001';
const me = { uid: ME, email: 'me@example.com', displayName: 'Me' };
const INV = 'inv00000000000000001';

const offer: Offer = {
  offeringId: 'off00000000000000001',
  discountPercent: 20,
  source: 'Strategy session',
  channelId: 'chan0000000000000001',
  status: 'active',
  expiresAt: 9_000_000_000_000,
  createdAt: 1,
};
const invitation: Invitation = {
  id: INV,
  channelId: 'chan0000000000000001',
  channelTitle: 'Strategy Studio',
  consultantId: 'uidConsultant0000001',
  consultantName: 'Dana',
  status: 'pending',
  passes: 2,
  credits: 5,
  expiresAt: 9_000_000_000_000,
};

describe('offers', () => {
  it('reads the active offers with get_user_active_offers', async () => {
    const { storeState } = await expectSaga(handleActiveOffersRequested, backend)
      .withReducer(reducer)
      .provide([[matchers.call.fn(backend.callables.getUserActiveOffers), { offers: [offer] }]])
      .run();
    expect((storeState as State).offers.active).toEqual({ status: 'loaded', items: [offer], error: null });
  });

  it('reads them again whenever the backend says they changed, and stops listening when cancelled', async () => {
    const fake = createFakeBackend();
    let emit: (() => void) | null = null;
    fake.offers.subscribeOffers.mockImplementation((listener: () => void) => {
      emit = listener;
      return () => (emit = null);
    });
    const saga = expectSaga(watchOffersChanged, fake as unknown as Backend).withReducer(reducer);
    const pending = saga.silentRun(50);
    await new Promise((r) => setTimeout(r, 5));
    emit!();
    emit!();
    const result = await pending;
    expect(
      result.effects.put?.filter((e) => e.payload.action.type === activeOffersRequested.type),
    ).toHaveLength(2);
    expect(emit).toBeNull();
  });

  it('issues an offer and lists it first among the issued ones', async () => {
    const issued: IssuedOffer = { ...offer, userId: ME, userName: 'Morgan' };
    const input = { channelId: offer.channelId, userId: ME, discountPercent: 20, expiresAt: offer.expiresAt };
    const { storeState } = await expectSaga(handleOfferIssue, backend, offerIssueRequested(input))
      .withReducer(reducer)
      .provide([[matchers.call.fn(backend.offers.issueOffer), issued]])
      .call([backend.offers, backend.offers.issueOffer], input)
      .run();
    expect((storeState as State).offers.issue).toEqual({ status: 'sent', error: null, last: issued });
    expect((storeState as State).offers.issued.items).toEqual([issued]);
  });

  it('refuses an offer above 100 % in the backend’s words', async () => {
    const { storeState } = await expectSaga(
      handleOfferIssue,
      backend,
      offerIssueRequested({ channelId: offer.channelId, userId: ME, discountPercent: 150, expiresAt: 1 }),
    )
      .withReducer(reducer)
      .provide([
        [
          matchers.call.fn(backend.offers.issueOffer),
          throwError(new BackendError('INVALID_ARGUMENT', 'discountPercent: at most 100 %')),
        ],
      ])
      .run();
    expect((storeState as State).offers.issue).toMatchObject({
      status: 'failed',
      error: 'discountPercent: at most 100 %',
    });
  });
});

describe('invitations', () => {
  it('keeps the reason of a failed read, so the screen can say "expired"', async () => {
    const state = reducer(undefined, invitationRequested({ id: INV }));
    const { storeState } = await expectSaga(
      handleInvitationRequested,
      backend,
      invitationRequested({ id: INV }),
    )
      .withReducer(reducer, state)
      .provide([
        [
          matchers.call.fn(backend.invitations.getInvitation),
          throwError(
            new BackendError('FAILED_PRECONDITION', 'This invitation has expired.', 'invitation-expired'),
          ),
        ],
      ])
      .run();
    expect((storeState as State).invitations.viewed.error).toEqual({
      status: 'FAILED_PRECONDITION',
      message: 'This invitation has expired.',
      reason: 'invitation-expired',
    });
  });

  it('accepts, and reloads the channel list so the joined channel appears', async () => {
    const state = reducer(reducer(undefined, invitationRequested({ id: INV })), {
      type: 'invitations/invitationLoaded',
      payload: { invitation },
    });
    const result = await expectSaga(handleAccept, backend, acceptRequested({ id: INV }))
      .withReducer(reducer, state)
      .provide([
        [
          matchers.call.fn(backend.invitations.acceptInvitation),
          { ...invitation, status: 'accepted', acceptedBy: ME },
        ],
      ])
      .put({ type: 'channels/overviewRequested', payload: undefined })
      .run();
    expect((result.storeState as State).invitations.viewed.invitation).toMatchObject({
      status: 'accepted',
      acceptedBy: ME,
    });
  });

  it('activates and puts the new balances into the user state at once', async () => {
    let state = reducer(undefined, signedIn({ authUser: me }));
    state = reducer(state, accountLoaded(buildUserState(me, null, { isAdmin: false })));
    const doc: UserDoc = {
      uid: ME,
      email: me.email,
      isOwner: false,
      notificationSettings: { enabled: true, delivery: { channels: ['push'] } },
      credits: 5,
      passCount: 2,
      effectiveConId: 'uidConsultant0000001',
    };
    const { storeState } = await expectSaga(handleActivate, backend, activateRequested({ id: INV }))
      .withReducer(reducer, state)
      .provide([
        [
          matchers.call.fn(backend.invitations.activateInvitation),
          { invitation: { ...invitation, status: 'activated', acceptedBy: ME }, user: doc },
        ],
      ])
      .run();
    expect((storeState as State).user).toMatchObject({ credits: 5, passCount: 2 });
    expect((storeState as State).invitations.activate).toEqual({
      status: 'done',
      error: null,
      granted: { passes: 2, credits: 5 },
    });
  });

  it('says a second activation is "already used"', async () => {
    const { storeState } = await expectSaga(handleActivate, backend, activateRequested({ id: INV }))
      .withReducer(reducer)
      .provide([
        [
          matchers.call.fn(backend.invitations.activateInvitation),
          throwError(
            new BackendError(
              'FAILED_PRECONDITION',
              'This invitation has already been used.',
              'invitation-used',
            ),
          ),
        ],
      ])
      .run();
    expect((storeState as State).invitations.activate.error?.reason).toBe('invitation-used');
  });

  it('creates an invitation for a channel', async () => {
    const input = { channelId: invitation.channelId, passes: 2, credits: 5, expiresAt: invitation.expiresAt };
    const { storeState } = await expectSaga(handleInvitationCreate, backend, invitationCreateRequested(input))
      .withReducer(reducer)
      .provide([[matchers.call.fn(backend.invitations.createInvitation), invitation]])
      .run();
    expect((storeState as State).invitations.create).toEqual({
      status: 'created',
      error: null,
      created: invitation,
    });
  });
});
