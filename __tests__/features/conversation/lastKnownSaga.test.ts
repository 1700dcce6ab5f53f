// The last known state kept and drawn: the saga with the real slices and the real store on an in-memory IndexedDB
// (fake-indexeddb: the browser edge).
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { expectSaga } from 'redux-saga-test-plan';
import { combineReducers } from '@reduxjs/toolkit';
import { lastKnownSaga, LAST_KNOWN_SAVE_DEBOUNCE_MS } from '@/features/conversation/lastKnownSaga';
import { createLastKnownStore } from '@/platform/lastKnownStore';
import type { KnownAccount, LastKnownStore } from '@/platform/lastKnownStore';
import { lastKnownPageShown } from '@/features/conversation/conversationWindow';
import user, { accountLoaded, buildUserState, lastKnownShown, signedIn } from '@/store/userSlice';
import channels, { channelOpened, overviewLoaded } from '@/store/channelsSlice';
import conversation, { messagesLoaded, messagesRequested } from '@/store/conversationSlice';
import offers, { activeOffersLoaded } from '@/store/offersSlice';
import auth, { signOutRequested } from '@/store/authSlice';
import type { ChannelOverview, ChatMessage, UserDoc } from '@core/model';

const reducer = combineReducers({ user, channels, conversation, offers, auth });
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

let store: LastKnownStore;
beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  store = createLastKnownStore();
});

const loading = (): State => reducer(undefined, signedIn({ authUser: morgan }));

describe('lastKnownSaga', () => {
  it('draws what was kept for the person at once: channels, offers, then the account with its time', async () => {
    await store.putAccount({ uid: UID, savedAt: 42_000, account, channels: [overview], offers: [] });
    const { storeState } = await expectSaga(lastKnownSaga, store)
      .withReducer(reducer, loading())
      .put(overviewLoaded({ items: [overview] }))
      .put(activeOffersLoaded({ items: [] }))
      .put(lastKnownShown({ ...account, domainId: undefined, authUser: morgan, asOf: 42_000 }))
      .silentRun(500);
    expect((storeState as State).user).toMatchObject({ status: 'signedIn', nickname: 'Morgan', credits: 3 });
  });

  it('draws the kept account also when the backend said "unread" first (offline)', async () => {
    await store.putAccount({ uid: UID, savedAt: 42_000, account, channels: null, offers: null });
    const unread = reducer(
      loading(),
      accountLoaded({ ...buildUserState(morgan, null, { isAdmin: false }), asOf: 0 }),
    );
    const { storeState } = await expectSaga(lastKnownSaga, store).withReducer(reducer, unread).silentRun(500);
    expect((storeState as State).user).toMatchObject({ status: 'signedIn', credits: 3, asOf: 42_000 });
  });

  it('draws nothing for another person signing in on the device', async () => {
    await store.putAccount({
      uid: 'uidOther000000000001',
      savedAt: 1,
      account,
      channels: [overview],
      offers: [],
    });
    const { storeState } = await expectSaga(lastKnownSaga, store)
      .withReducer(reducer, loading())
      .silentRun(500);
    expect((storeState as State).user.status).toBe('loading');
    expect((storeState as State).channels.ids).toEqual([]);
  });

  it("draws a channel's kept messages as it opens, into a window that its newest page replaces", async () => {
    await store.putAccount({ uid: UID, savedAt: 1, account, channels: [overview], offers: null });
    await store.putPage({ uid: UID, channelId: CHANNEL, savedAt: 1, messages: [message(1), message(2)] });
    const { storeState } = await expectSaga(lastKnownSaga, store)
      .withReducer(reducer, loading())
      .dispatch(messagesRequested({ channelId: CHANNEL }))
      .dispatch(channelOpened({ id: CHANNEL }))
      .put(lastKnownPageShown({ channelId: CHANNEL, messages: [message(1), message(2)] }))
      .silentRun(500);
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
    await expectSaga(lastKnownSaga, store)
      .withReducer(reducer, loading())
      .dispatch(accountLoaded(buildUserState(morgan, doc, { isAdmin: false })))
      .dispatch(overviewLoaded({ items: [overview] }))
      .dispatch(messagesRequested({ channelId: CHANNEL }))
      .dispatch(messagesLoaded({ channelId: CHANNEL, messages: [message(1), message(2)] }))
      .silentRun(LAST_KNOWN_SAVE_DEBOUNCE_MS + 200);
    const kept = await store.load(UID);
    expect(kept.account).toMatchObject({ uid: UID, account, channels: [overview], offers: null });
    expect(kept.pages.map((page) => page.messages)).toEqual([[message(1), message(2)]]);
  });

  it('keeps what turned live while it started (a backend faster than the device)', async () => {
    const live = reducer(
      reducer(loading(), accountLoaded(buildUserState(morgan, doc, { isAdmin: false }))),
      overviewLoaded({ items: [overview] }),
    );
    await expectSaga(lastKnownSaga, store).withReducer(reducer, live).silentRun(500);
    expect((await store.load(UID)).account).toMatchObject({ account, channels: [overview] });
  });

  it('keeps nothing of an account the backend could not read (offline)', async () => {
    await expectSaga(lastKnownSaga, store)
      .withReducer(reducer, loading())
      .dispatch(accountLoaded({ ...buildUserState(morgan, null, { isAdmin: false }), asOf: 0 }))
      .silentRun(LAST_KNOWN_SAVE_DEBOUNCE_MS + 200);
    expect((await store.load(UID)).account).toBeNull();
  });

  it('forgets everything when the person signs out', async () => {
    await store.putAccount({ uid: UID, savedAt: 1, account, channels: [overview], offers: [] });
    await store.putPage({ uid: UID, channelId: CHANNEL, savedAt: 1, messages: [message(1)] });
    await expectSaga(lastKnownSaga, store)
      .withReducer(reducer, loading())
      .dispatch(signOutRequested())
      .silentRun(500);
    expect(await createLastKnownStore().load(UID)).toEqual({ account: null, pages: [] });
  });
});
