// The last known state kept and drawn: the saga with the real slices and the real store on an in-memory IndexedDB
// (fake-indexeddb: the browser edge).
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { expectSaga } from 'redux-saga-test-plan';
import type { ExpectApi } from 'redux-saga-test-plan';
import { combineReducers } from '@reduxjs/toolkit';
import type { UnknownAction } from '@reduxjs/toolkit';
import { createVirtualTime, endRun, untilEnded, UNTIL_ENDED } from '../../support/virtualTime';
import type { VirtualTime } from '../../support/virtualTime';
import { lastKnownSaga, LAST_KNOWN_SAVE_DEBOUNCE_MS } from '@/features/conversation/lastKnownSaga';
import { createLastKnownStore } from '@/platform/lastKnownStore';
import type { KnownAccount, LastKnownStore } from '@/platform/lastKnownStore';
import { lastKnownPageShown } from '@/features/conversation/conversationWindow';
import user, { accountLoaded, buildUserState, lastKnownShown, signedIn } from '@/store/userSlice';
import channels, { channelOpened, overviewLoaded } from '@/store/channelsSlice';
import conversation, { messagesLoaded, messagesRequested } from '@/store/conversationSlice';
import offers, { activeOffersLoaded, receivedOffersLoaded } from '@/store/offersSlice';
import practice, {
  bookingChanged,
  lastKnownBookingsShown,
  practiceFailed,
  practiceLoaded,
  practiceRequested,
} from '@/store/practiceSlice';
import type { ReceivedOffer } from '@core/offers';
import auth, { signOutRequested } from '@/store/authSlice';
import type { Booking, ChannelOverview, ChatMessage, UserDoc } from '@core/model';

// On virtual time (the save's debounce is redux-saga's `delay`): a run drives the saga, then moves the clock past
// the debounce and some, and ends once every write the saga started on the device has ended. Nothing is left to a
// real wait: a wrong write, or one that never comes, shows on any machine.
const SAVED_WITHIN_MS = LAST_KNOWN_SAVE_DEBOUNCE_MS * 3;

const reducer = combineReducers({ user, channels, conversation, offers, auth, practice });
type State = ReturnType<typeof reducer>;

const UID = 'uidMember00000000001';
const CHANNEL = 'ChannelStore00000001';
const morgan = { uid: UID, email: 'member@qupm.demo', displayName: 'Morgan Reyes' };
const doc: UserDoc = {
  uid: UID,
  email: 'member@qupm.demo',
  isOwner: false,
  nickname: 'Morgan',
  notificationSettings: { enabled: true, delivery: { channels: ['push'] } },
  credits: 3,
  passCount: 1,
  effectiveConId: 'uidConsultant0000001',
};
const account: KnownAccount = {
  isConsultant: false,
  effectiveConId: 'uidConsultant0000001',
  isAdmin: false,
  nickname: 'Morgan',
  credits: 3,
  passCount: 1,
  userDocExists: true,
  notificationSettings: doc.notificationSettings,
};
const message = (n: number): ChatMessage => ({
  id: `Msg${String(n).padStart(17, '0')}`,
  channelId: CHANNEL,
  senderId: UID,
  senderName: 'Morgan',
  text: `message ${n}`,
  createdAt: 1_000 + n,
});
const overview: ChannelOverview = {
  channel: {
    id: CHANNEL,
    channelId: 'strategy-studio',
    ownerId: 'uidConsultant0000001',
    title: 'Strategy Studio',
    description: '',
    members: [UID],
    createdAt: 5,
  },
  lastMessage: message(2),
  unread: 0,
};

const booking: Booking = {
  id: 'Booking0000000000001',
  consultantId: 'uidConsultant0000001',
  clientId: UID,
  serviceId: 'ServicePricing000001',
  serviceTitle: 'Pricing deep dive',
  durationMinutes: 60,
  startsAt: 2_000_000_000_000,
  endsAt: 2_000_003_600_000,
  state: 'requested',
  payment: { method: 'credits', amount: 3, listPrice: 3, status: 'held' },
  channelId: 'ChannelPrivate000001',
  clientTimeZone: 'Europe/London',
  consultantTimeZone: 'Europe/London',
  sequence: 0,
  createdAt: 7,
  updatedAt: 7,
};
const received: ReceivedOffer = {
  offeringId: 'OfferWelcome00000001',
  discountPercent: 20,
  source: 'Welcome offer',
  channelId: CHANNEL,
  status: 'active',
  expiresAt: 2_000_000_000_000,
  createdAt: 6,
  consultantId: 'uidConsultant0000001',
  serviceId: 'ServicePricing000001',
  serviceTitle: 'Pricing deep dive',
  state: 'active',
};
const practiceData = {
  services: [],
  hours: {},
  bookings: { upcoming: [booking], past: [] },
  ledger: { entries: [], balance: { credits: 3, passes: 1 } },
  earnings: null,
  offers: [received],
};
const asked = practiceRequested({ consultantIds: ['uidConsultant0000001'], isConsultant: false });

/** The device's store, with every write it was asked for followed until it has ended. */
function followed(inner: LastKnownStore): { store: LastKnownStore; written(): Promise<void> } {
  const pending = new Set<Promise<unknown>>();
  const follow =
    <A extends unknown[]>(write: (...args: A) => Promise<void>) =>
    (...args: A): Promise<void> => {
      const done = write(...args);
      pending.add(done);
      void done.finally(() => pending.delete(done)).catch(() => undefined);
      return done;
    };
  return {
    store: { ...inner, putAccount: follow(inner.putAccount), putPage: follow(inner.putPage) },
    async written() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

/**
 * Runs lastKnownSaga on `device` from `state`: `drive` dispatches and moves the clock, then the clock runs on for
 * `forMs` (past the save's debounce by default) and the run ends once the device's writes have ended.
 */
async function keepRun(
  state: State,
  {
    device = store,
    drive,
    forMs = SAVED_WITHIN_MS,
    plan = (saga) => saga,
  }: {
    device?: LastKnownStore | ((time: VirtualTime) => LastKnownStore);
    /** The effects the run must show (expectSaga's assertions). */
    plan?: (saga: ExpectApi) => ExpectApi;
    drive?: (dispatch: (action: UnknownAction) => void, time: VirtualTime) => Promise<void>;
    forMs?: number;
  } = {},
) {
  const time = createVirtualTime();
  const { store: watched, written } = followed(typeof device === 'function' ? device(time) : device);
  const saga = plan(expectSaga(untilEnded, lastKnownSaga, watched))
    .withReducer(reducer, state)
    .provide([time.provider]);
  const ran = saga.run(UNTIL_ENDED);
  await time.flush();
  await drive?.((action) => saga.dispatch(action), time);
  await time.advance(forMs);
  await written();
  return endRun(saga, ran);
}

let store: LastKnownStore;
beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  store = createLastKnownStore();
});

const loading = (): State => reducer(undefined, signedIn({ authUser: morgan }));

describe('lastKnownSaga', () => {
  it('draws what was kept for the person at once: channels, offers, then the account with its time', async () => {
    await store.putAccount({
      uid: UID,
      savedAt: 42_000,
      account,
      channels: [overview],
      offers: [],
      bookings: null,
      receivedOffers: null,
    });
    const { storeState } = await keepRun(loading(), {
      plan: (saga) =>
        saga
          .put(overviewLoaded({ items: [overview] }))
          .put(activeOffersLoaded({ items: [] }))
          .put(lastKnownShown({ ...account, domainId: undefined, authUser: morgan, asOf: 42_000 })),
    });
    expect((storeState as State).user).toMatchObject({ status: 'signedIn', nickname: 'Morgan', credits: 3 });
  });

  it('draws the kept account also when the backend said "unread" first (offline)', async () => {
    await store.putAccount({
      uid: UID,
      savedAt: 42_000,
      account,
      channels: null,
      offers: null,
      bookings: null,
      receivedOffers: null,
    });
    const unread = reducer(
      loading(),
      accountLoaded({ ...buildUserState(morgan, null, { isAdmin: false }), asOf: 0 }),
    );
    const { storeState } = await keepRun(unread);
    expect((storeState as State).user).toMatchObject({ status: 'signedIn', credits: 3, asOf: 42_000 });
  });

  it('draws nothing for another person signing in on the device', async () => {
    await store.putAccount({
      uid: 'uidOther000000000001',
      savedAt: 1,
      account,
      channels: [overview],
      offers: [],
      bookings: { savedAt: 1, upcoming: [booking] },
      receivedOffers: [received],
    });
    const { storeState } = await keepRun(reducer(loading(), asked));
    expect((storeState as State).user.status).toBe('loading');
    expect((storeState as State).channels.ids).toEqual([]);
    expect((storeState as State).offers.received).toEqual([]);
    expect((storeState as State).practice.bookings).toEqual({ upcoming: [], past: [] });
  });

  it("draws a channel's kept messages as it opens, into a window that its newest page replaces", async () => {
    await store.putAccount({
      uid: UID,
      savedAt: 1,
      account,
      channels: [overview],
      offers: null,
      bookings: null,
      receivedOffers: null,
    });
    await store.putPage({ uid: UID, channelId: CHANNEL, savedAt: 1, messages: [message(1), message(2)] });
    const { storeState } = await keepRun(loading(), {
      drive: async (dispatch) => {
        dispatch(messagesRequested({ channelId: CHANNEL }));
        dispatch(channelOpened({ id: CHANNEL }));
      },
      plan: (saga) =>
        saga.put(lastKnownPageShown({ channelId: CHANNEL, messages: [message(1), message(2)] })),
    });
    const shown = (storeState as State).conversation.byChannel[CHANNEL];
    expect(shown).toMatchObject({ status: 'loaded', hasNewer: true });
    expect(shown?.messages.map((m) => m.id)).toEqual([message(1).id, message(2).id]);
    // The newest page answers: it replaces what was kept (no gap between the two).
    const after = reducer(
      storeState as State,
      messagesLoaded({ channelId: CHANNEL, messages: [message(9)] }),
    );
    expect(after.conversation.byChannel[CHANNEL]?.messages.map((m) => m.id)).toEqual([message(9).id]);
  });

  it('keeps live data, not what it drew, and the open channel once its window reaches the newest', async () => {
    await keepRun(loading(), {
      drive: async (dispatch) => {
        dispatch(accountLoaded(buildUserState(morgan, doc, { isAdmin: false })));
        dispatch(overviewLoaded({ items: [overview] }));
        dispatch(messagesRequested({ channelId: CHANNEL }));
        dispatch(messagesLoaded({ channelId: CHANNEL, messages: [message(1), message(2)] }));
      },
    });
    const kept = await store.load(UID);
    expect(kept.account).toMatchObject({
      uid: UID,
      account,
      channels: [overview],
      offers: null,
      bookings: null,
      receivedOffers: null,
    });
    expect(kept.pages.map((page) => page.messages)).toEqual([[message(1), message(2)]]);
  });

  it('keeps what turned live while it started (a backend faster than the device)', async () => {
    const live = reducer(
      reducer(loading(), accountLoaded(buildUserState(morgan, doc, { isAdmin: false }))),
      overviewLoaded({ items: [overview] }),
    );
    await keepRun(live, { forMs: 0 });
    expect((await store.load(UID)).account).toMatchObject({ account, channels: [overview] });
  });

  // A slow device (a loaded phone, CI): the account's write is still under way when the channel list turns live.
  // The write that took it must not forget it, nor a second write started meanwhile write the kept parts over it.
  it.each([
    ['the next write', 200],
    ['a second write started while the first is under way', LAST_KNOWN_SAVE_DEBOUNCE_MS + 600],
  ])('keeps what turned live while a write was under way (%s)', async (_case, writeMs) => {
    const slow = (time: VirtualTime): LastKnownStore => ({
      ...store,
      // Written in the order asked (as IndexedDB does), answered late.
      putAccount: async (record) => {
        await store.putAccount(record);
        await time.after(writeMs);
      },
    });
    const live = reducer(loading(), accountLoaded(buildUserState(morgan, doc, { isAdmin: false })));
    await keepRun(live, {
      device: slow,
      drive: async (dispatch, time) => {
        await time.advance(50);
        dispatch(overviewLoaded({ items: [overview] }));
      },
      forMs: SAVED_WITHIN_MS + writeMs,
    });
    expect((await store.load(UID)).account).toMatchObject({ account, channels: [overview] });
  });

  it('keeps nothing of an account the backend could not read (offline)', async () => {
    await keepRun(loading(), {
      drive: async (dispatch) => {
        dispatch(accountLoaded({ ...buildUserState(morgan, null, { isAdmin: false }), asOf: 0 }));
      },
    });
    expect((await store.load(UID)).account).toBeNull();
  });

  it('forgets everything when the person signs out', async () => {
    await store.putAccount({
      uid: UID,
      savedAt: 1,
      account,
      channels: [overview],
      offers: [],
      bookings: null,
      receivedOffers: null,
    });
    await store.putPage({ uid: UID, channelId: CHANNEL, savedAt: 1, messages: [message(1)] });
    await keepRun(loading(), {
      drive: async (dispatch) => {
        dispatch(signOutRequested());
      },
    });
    expect(await createLastKnownStore().load(UID)).toEqual({ account: null, pages: [] });
  });

  it('draws the kept received offers with the active ones, and the upcoming bookings when /services asks', async () => {
    const bookings = { savedAt: 41_000, upcoming: [booking] };
    await store.putAccount({
      uid: UID,
      savedAt: 42_000,
      account,
      channels: [overview],
      offers: [received],
      bookings,
      receivedOffers: [received],
    });
    const { storeState } = await keepRun(loading(), {
      drive: async (dispatch) => {
        dispatch(asked);
      },
      plan: (saga) =>
        saga
          .put(receivedOffersLoaded([received]))
          .put(lastKnownBookingsShown({ upcoming: [booking], asOf: 41_000 })),
    });
    // Offline: the backend's refusal leaves the kept bookings on screen, as of their time.
    const state = reducer(storeState as State, practiceFailed({ message: 'You are offline.' }));
    expect(state.offers.received).toEqual([received]);
    expect(state.practice).toMatchObject({ status: 'failed', asOf: 41_000, offers: [received] });
    // The past is unknown, and the upcoming are the kept ones.
    expect(state.practice.bookings).toEqual({ upcoming: [booking], past: [] });
  });

  /** Morgan's account kept at 42_000, with one upcoming booking kept at 41_000 and nothing else. */
  const keepBookings = () =>
    store.putAccount({
      uid: UID,
      savedAt: 42_000,
      account,
      channels: null,
      offers: null,
      bookings: { savedAt: 41_000, upcoming: [booking] },
      receivedOffers: null,
    });

  it('draws the kept bookings when the practice was asked for before the device was read', async () => {
    await keepBookings();
    const { storeState } = await keepRun(reducer(loading(), asked));
    expect((storeState as State).practice).toMatchObject({ asOf: 41_000, bookings: { upcoming: [booking] } });
  });

  it('keeps the live upcoming bookings with their own time, and keeps the kept ones where none came live', async () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(50_000);
    await keepBookings();
    // A session that never opens /services: the account is live again, the bookings are still those of 41_000.
    await keepRun(loading(), {
      drive: async (dispatch) => {
        dispatch(accountLoaded(buildUserState(morgan, doc, { isAdmin: false })));
        dispatch(receivedOffersLoaded([received]));
      },
    });
    expect((await store.load(UID)).account).toMatchObject({
      savedAt: 50_000,
      receivedOffers: [received],
      bookings: { savedAt: 41_000, upcoming: [booking] },
    });

    now.mockReturnValue(60_000);
    const confirmed = { ...booking, state: 'confirmed' as const };
    await keepRun(loading(), {
      drive: async (dispatch) => {
        dispatch(asked);
        dispatch(practiceLoaded(practiceData));
        dispatch(bookingChanged({ booking: confirmed }));
      },
    });
    expect((await store.load(UID)).account?.bookings).toEqual({ savedAt: 60_000, upcoming: [confirmed] });
    now.mockRestore();
  });

  it('never keeps kept bookings with a live change applied as if they were the backend’s list', async () => {
    await keepBookings();
    const other = { ...booking, id: 'Booking0000000000002' };
    await keepRun(loading(), {
      drive: async (dispatch) => {
        dispatch(asked);
        dispatch(accountLoaded(buildUserState(morgan, doc, { isAdmin: false })));
        dispatch(bookingChanged({ booking: other }));
      },
    });
    expect((await store.load(UID)).account?.bookings).toEqual({ savedAt: 41_000, upcoming: [booking] });
  });
});
