import { eventually } from '../support/eventually';
import { endRun, settle, untilEnded, UNTIL_ENDED } from '../support/virtualTime';
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
  leadingPerInvitation,
  handleInvitationCreate,
  handleInvitationRequested,
  handleMyInvitationsRequested,
  handlePreviewRequested,
  invitationsSaga,
  watchMyInvitations,
} from '@/sagas/invitationsSaga';
import offers, {
  activeOffersRequested,
  offerIssueRequested,
  receivedOffersLoaded,
  selectReceivedOffers,
  selectServicesNews,
} from '@/store/offersSlice';
import type { ReceivedOffer } from '@core/offers';
import invitations, {
  acceptRequested,
  activateRequested,
  invitationCreateRequested,
  invitationLoaded,
  invitationRequested,
  myInvitationsLoaded,
  myInvitationsRequested,
  previewRequested,
} from '@/store/invitationsSlice';
import channels from '@/store/channelsSlice';
import live from '@/store/liveSlice';
import user, { buildUserState, accountLoaded, signedIn, signedOut } from '@/store/userSlice';
import type { Invitation, IssuedOffer, Offer, UserDoc } from '@core/model';
import { createFakeBackend } from '../support/fakeBackend';

// Watchers never end by themselves: a run goes on until the test has done what it means to and ends it (`endRun`),
// which cancels the watcher as a session's end would.
const reducer = combineReducers({ user, channels, offers, invitations, live });
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

  const received: ReceivedOffer[] = [
    { ...offer, consultantId: 'uidConsultant0000001', serviceId: 'ServiceStrategy00001', state: 'active' },
    {
      ...offer,
      offeringId: 'off00000000000000002',
      status: 'revoked',
      consultantId: 'uidC',
      state: 'revoked',
    },
  ];
  const signedInAs = (isConsultant: boolean) =>
    reducer(
      reducer(undefined, signedIn({ authUser: me })),
      accountLoaded({ ...buildUserState(me, null, { isAdmin: false }), isConsultant }),
    );

  it('reads a client’s every offer with the active ones, for what a card says and what /services books', async () => {
    const { storeState } = await expectSaga(handleActiveOffersRequested, backend)
      .withReducer(reducer, signedInAs(false))
      .provide([
        [matchers.call.fn(backend.callables.getUserActiveOffers), { offers: [offer] }],
        [matchers.call.fn(backend.offers.listMyOffers), received],
      ])
      .put(receivedOffersLoaded(received))
      .run();
    expect(selectReceivedOffers(storeState as State)).toEqual(received);
  });

  it('does not read a consultant’s received offers (they issue them)', async () => {
    await expectSaga(handleActiveOffersRequested, backend)
      .withReducer(reducer, signedInAs(true))
      .provide([[matchers.call.fn(backend.callables.getUserActiveOffers), { offers: [] }]])
      .not.call.fn(backend.offers.listMyOffers)
      .run();
  });

  it('keeps the offers it had when reading them again fails', async () => {
    const start = reducer(signedInAs(false), receivedOffersLoaded(received));
    const { storeState } = await expectSaga(handleActiveOffersRequested, backend)
      .withReducer(reducer, start)
      .provide([
        [matchers.call.fn(backend.callables.getUserActiveOffers), { offers: [offer] }],
        [
          matchers.call.fn(backend.offers.listMyOffers),
          throwError(new BackendError('UNAVAILABLE', 'offline')),
        ],
      ])
      .run();
    expect(selectReceivedOffers(storeState as State)).toEqual(received);
    expect((storeState as State).offers.active.status).toBe('loaded');
  });

  it('reads them again whenever the backend says they changed, and stops listening when cancelled', async () => {
    const fake = createFakeBackend();
    let emit: (() => void) | null = null;
    fake.offers.subscribeOffers.mockImplementation((listener: () => void) => {
      emit = listener;
      return () => (emit = null);
    });
    const saga = expectSaga(untilEnded, watchOffersChanged, fake as unknown as Backend).withReducer(reducer);
    const pending = saga.run(UNTIL_ENDED);
    await settle();
    emit!();
    emit!();
    const result = await endRun(saga, pending);
    expect(
      result.effects.put?.filter((e) => e.payload.action.type === activeOffersRequested.type),
    ).toHaveLength(2);
    expect(emit).toBeNull();
  });

  it.each([
    [false, true],
    [true, false],
  ])('when offers change for a consultant (%s), puts the dot on Services: %s', async (isConsultant, dot) => {
    const fake = createFakeBackend();
    let emit: (() => void) | null = null;
    fake.offers.subscribeOffers.mockImplementation((listener: () => void) => {
      emit = listener;
      return () => (emit = null);
    });
    const start = reducer(
      reducer(undefined, signedIn({ authUser: me })),
      accountLoaded({ ...buildUserState(me, null, { isAdmin: false }), isConsultant }),
    );
    const saga = expectSaga(untilEnded, watchOffersChanged, fake as unknown as Backend)
      .withReducer(reducer, start)
      .withState(start);
    const pending = saga.run(UNTIL_ENDED);
    await settle();
    emit!();
    const { storeState } = await endRun(saga, pending);
    expect(selectServicesNews(storeState as State)).toBe(dot);
  });

  it('issues an offer and lists it first among the issued ones', async () => {
    const issued: IssuedOffer = { ...offer, userId: ME, userName: 'Morgan' };
    const input = {
      channelId: offer.channelId,
      userId: ME,
      serviceId: 'ServiceStrategy00001',
      discountPercent: 20,
      expiresAt: offer.expiresAt,
    };
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
      offerIssueRequested({
        channelId: offer.channelId,
        userId: ME,
        serviceId: 'ServiceStrategy00001',
        discountPercent: 150,
        expiresAt: 1,
      }),
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

  it('accepts one invitation once at a time, and never holds another back behind it', async () => {
    const OTHER = 'invB0000000000000002';
    const pending = new Map<string, Array<(value: Invitation) => void>>();
    const calls: string[] = [];
    const slowBackend = {
      ...backend,
      invitations: {
        ...backend.invitations,
        acceptInvitation: (id: string) => {
          calls.push(id);
          return new Promise<Invitation>((resolve) => pending.set(id, [...(pending.get(id) ?? []), resolve]));
        },
      },
    } as unknown as Backend;
    const answer = (id: string) =>
      pending.get(id)?.shift()?.({ ...invitation, id, status: 'accepted', acceptedBy: ME });
    const saga = expectSaga(untilEnded, function* watcher() {
      yield leadingPerInvitation(acceptRequested.type, handleAccept, slowBackend);
    })
      .withReducer(reducer)
      .dispatch(invitationRequested({ id: INV }))
      .dispatch(acceptRequested({ id: INV }))
      .dispatch(acceptRequested({ id: INV })) // a second press while the first runs
      .dispatch(invitationRequested({ id: OTHER })) // the person opens another invitation
      .dispatch(acceptRequested({ id: OTHER }));
    const run = saga.run(UNTIL_ENDED);
    await eventually(() => expect(calls).toEqual([INV, OTHER]));
    answer(INV); // the first answer, late: it must not land on the invitation now on screen
    await new Promise((resolve) => setTimeout(resolve, 10));
    answer(OTHER);
    const { storeState } = await endRun(saga, run);
    expect((storeState as State).invitations.accept).toEqual({ status: 'done', error: null, id: OTHER });
    expect(calls).toEqual([INV, OTHER]);
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
    // The watcher hands the saga an action the store has already seen.
    const { storeState } = await expectSaga(handleActivate, backend, activateRequested({ id: INV }))
      .withReducer(reducer, reducer(state, activateRequested({ id: INV })))
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
      id: INV,
      granted: { passes: 2, credits: 5 },
    });
  });

  it('says a second activation is "already used"', async () => {
    const { storeState } = await expectSaga(handleActivate, backend, activateRequested({ id: INV }))
      .withReducer(reducer, reducer(undefined, activateRequested({ id: INV })))
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

describe('the invitations waiting for the person (issue #12)', () => {
  const other: Invitation = { ...invitation, id: 'inv00000000000000002', channelTitle: 'Growth Clinic' };
  /** The home screen has read the list once, and the person is looking at `INV` on /invite. */
  const shown = (): State => {
    let state = reducer(undefined, myInvitationsLoaded({ items: [invitation] }));
    state = reducer(state, invitationRequested({ id: INV }));
    return reducer(state, invitationLoaded({ invitation }));
  };
  /** A fake backend whose subscribeMyInvitations hands the test its listener. */
  function following() {
    const fake = createFakeBackend();
    const subscription: { emit: (() => void) | null; subscribed: number } = { emit: null, subscribed: 0 };
    fake.invitations.subscribeMyInvitations.mockImplementation((listener: () => void) => {
      subscription.subscribed += 1;
      subscription.emit = listener;
      return () => (subscription.emit = null);
    });
    return { fake, subscription, backend: fake as unknown as Backend };
  }
  const putTypes = (result: { effects: { put?: Array<{ payload: { action: { type: string } } }> } }) =>
    (result.effects.put ?? []).map((e) => e.payload.action.type);

  it('lists them for the home screen', async () => {
    const { storeState } = await expectSaga(handleMyInvitationsRequested, backend)
      .withReducer(reducer, reducer(undefined, myInvitationsRequested()))
      .provide([[matchers.call.fn(backend.invitations.listMyInvitations), [other, invitation]]])
      .run();
    expect((storeState as State).invitations.mine).toEqual({
      status: 'loaded',
      items: [other, invitation],
      error: null,
    });
  });

  it('keeps the list it showed when reading it again fails (offline), and says why', async () => {
    const state = reducer(shown(), myInvitationsRequested());
    const { storeState } = await expectSaga(handleMyInvitationsRequested, backend)
      .withReducer(reducer, state)
      .provide([
        [
          matchers.call.fn(backend.invitations.listMyInvitations),
          throwError(new BackendError('UNAVAILABLE', 'You are offline.')),
        ],
      ])
      .run();
    expect((storeState as State).invitations.mine).toEqual({
      status: 'loaded',
      items: [invitation],
      error: 'You are offline.',
    });
  });

  it('reads the list and the invitation on screen again whenever the backend says they changed', async () => {
    const { subscription, backend: live } = following();
    const saga = expectSaga(untilEnded, watchMyInvitations, live).withReducer(reducer, shown());
    const pending = saga.run(UNTIL_ENDED);
    await settle();
    subscription.emit!();
    subscription.emit!();
    const result = await endRun(saga, pending);
    expect(putTypes(result)).toEqual([
      myInvitationsRequested.type,
      invitationRequested.type,
      myInvitationsRequested.type,
      invitationRequested.type,
    ]);
    // The invitation on screen stays on screen while it is read again (no loading flash).
    expect((result.storeState as State).invitations.viewed).toMatchObject({ id: INV, status: 'loaded' });
    expect(subscription.emit).toBeNull();
  });

  it('reads nothing that no screen shows', async () => {
    const { subscription, backend: live } = following();
    const saga = expectSaga(untilEnded, watchMyInvitations, live).withReducer(reducer);
    const pending = saga.run(UNTIL_ENDED);
    await settle();
    subscription.emit!();
    expect(putTypes(await endRun(saga, pending))).toEqual([]);
  });

  it('follows them in a session already under way (a restart), and stops listening when cancelled', async () => {
    const { subscription, backend: live } = following();
    let state = reducer(undefined, signedIn({ authUser: me }));
    state = reducer(state, accountLoaded(buildUserState(me, null, { isAdmin: false })));
    const saga = expectSaga(untilEnded, invitationsSaga, live).withReducer(reducer, state);
    const pending = saga.run(UNTIL_ENDED);
    await settle();
    expect([subscription.subscribed, subscription.emit === null]).toEqual([1, false]);
    await endRun(saga, pending);
    expect(subscription.emit).toBeNull();
  });

  it('stops listening when the person signs out, and listens again for the next one', async () => {
    const { subscription, backend: live } = following();
    const saga = expectSaga(untilEnded, invitationsSaga, live).withReducer(reducer);
    // Each step is awaited until it shows; the run ends when the test is done (a real-time bound of 80 ms once
    // ended it before the last check on CI's loaded machine).
    const pending = saga.run(UNTIL_ENDED);
    saga.dispatch(signedIn({ authUser: me }));
    saga.dispatch(accountLoaded(buildUserState(me, null, { isAdmin: false })));
    await eventually(() => expect([subscription.subscribed, subscription.emit === null]).toEqual([1, false]));
    saga.dispatch(signedOut());
    await eventually(() => expect(subscription.emit).toBeNull());
    saga.dispatch(signedIn({ authUser: me }));
    saga.dispatch(accountLoaded(buildUserState(me, null, { isAdmin: false })));
    await eventually(() => expect([subscription.subscribed, subscription.emit === null]).toEqual([2, false]));
    await endRun(saga, pending);
  });

  it('takes an invitation accepted here off the list at once, and forgets the list at sign-out', () => {
    let state = reducer(shown(), myInvitationsLoaded({ items: [other, invitation] }));
    state = reducer(state, {
      type: 'invitations/accepted',
      payload: { invitation: { ...invitation, status: 'accepted' } },
    });
    expect(state.invitations.mine.items).toEqual([other]);
    expect(reducer(state, signedOut()).invitations.mine).toEqual({ status: 'idle', items: [], error: null });
  });
});

describe('handlePreviewRequested (issue #13 part 8)', () => {
  const preview = {
    id: INV,
    consultantName: 'Dana',
    channelTitle: 'Strategy Studio',
    passes: 2,
    credits: 5,
    expiresAt: 9_000_000_000_000,
    state: 'used' as const,
    forOneEmail: true,
  };

  it('shows the preview the backend answers, signed out', async () => {
    const state = reducer(undefined, previewRequested({ id: INV }));
    const { storeState } = await expectSaga(handlePreviewRequested, backend, previewRequested({ id: INV }))
      .withReducer(reducer, state)
      .provide([[matchers.call.fn(backend.invitations.previewInvitation), preview]])
      .run();
    expect((storeState as State).invitations.preview).toMatchObject({ status: 'loaded', preview });
  });

  it('keeps a refusal’s status for the screen', async () => {
    const state = reducer(undefined, previewRequested({ id: INV }));
    const { storeState } = await expectSaga(handlePreviewRequested, backend, previewRequested({ id: INV }))
      .withReducer(reducer, state)
      .provide([
        [
          matchers.call.fn(backend.invitations.previewInvitation),
          throwError(new BackendError('NOT_FOUND', 'There is no such invitation.')),
        ],
      ])
      .run();
    expect((storeState as State).invitations.preview).toMatchObject({
      status: 'failed',
      error: { status: 'NOT_FOUND' },
    });
  });
});
