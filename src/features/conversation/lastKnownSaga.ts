// The last known state on this device (src/platform/lastKnownStore.ts), kept and shown. As a session begins (the
// backend knows who is there, before it has answered anything else), what was kept for that person is put on
// screen at once: their account, channels and offers, each channel's newest messages as it opens, and the upcoming
// bookings when /services asks for the practice; live data
// replaces it as it comes. Only live data is kept (a part not live yet keeps what was stored). Signing out, or a
// session that ends, forgets all of it before anything else happens on the device. Loaded on demand
// (src/app/lazySagas.ts): a visitor never loads it.
import { buffers } from 'redux-saga';
import type { Channel, Task } from 'redux-saga';
import {
  actionChannel,
  call,
  cancel,
  debounce,
  fork,
  put,
  select,
  take,
  takeEvery,
} from 'redux-saga/effects';
import type { UnknownAction } from '@reduxjs/toolkit';
import type { ChannelOverview, ChatMessage, Offer } from '@core/model';
import type { ReceivedOffer } from '@core/offers';
import { firstScreenDrawn } from '@/platform/firstScreen';
import { browserLastKnownStore, LAST_KNOWN_PAGE_MESSAGES } from '@/platform/lastKnownStore';
import type {
  KeptBookings,
  KnownAccount,
  LastKnown,
  LastKnownStore,
  StoredAccount,
  StoredPage,
} from '@/platform/lastKnownStore';
import { signOutRequested } from '@/store/authSlice';
import {
  channelChanged,
  channelOpened,
  overviewLoaded,
  selectChannels,
  selectOverview,
} from '@/store/channelsSlice';
import type { ChannelsState } from '@/store/channelsSlice';
import {
  messagesLoaded,
  messagesRequested,
  olderLoaded,
  selectConversation,
} from '@/store/conversationSlice';
import type { Conversation } from '@/store/conversationSlice';
import { messagesArrived } from '@/store/messages';
import {
  activeOffersLoaded,
  receivedOffersLoaded,
  selectActiveOffers,
  selectReceivedOffers,
} from '@/store/offersSlice';
import type { OffersState } from '@/store/offersSlice';
import {
  bookingChanged,
  lastKnownBookingsShown,
  practiceLoaded,
  practiceRequested,
  selectPractice,
} from '@/store/practiceSlice';
import type { PracticeState } from '@/store/practiceSlice';
import {
  accountLoaded,
  docChanged,
  lastKnownShown,
  selectUser,
  signedIn,
  signedOut,
} from '@/store/userSlice';
import type { UserState } from '@/store/userSlice';
import { lastKnownPageShown, newerLoaded } from './conversationWindow';

/** Live data comes in bursts (a start, a catch-up): it is written once it has settled. */
export const LAST_KNOWN_SAVE_DEBOUNCE_MS = 1_000;

/** The account as kept: the user state without the session's parts. */
export function knownAccountOf(user: UserState): KnownAccount {
  const { status: _status, authUser: _authUser, asOf: _asOf, ...account } = user;
  if (account.domainId === undefined) delete account.domainId;
  return account;
}

/** Draws what was kept: channels and offers not answered yet, then the account (which puts the home on screen). */
export function* showLastKnown(kept: LastKnown) {
  const { account } = kept;
  const drawn = { channels: false, offers: false };
  if (!account) return drawn;
  const channels: ChannelsState = yield select(selectChannels);
  if (account.channels && channels.status !== 'loaded') {
    yield put(overviewLoaded({ items: account.channels }));
    drawn.channels = true;
  }
  const offers: OffersState['active'] = yield select(selectActiveOffers);
  if (account.offers && offers.status !== 'loaded') {
    yield put(activeOffersLoaded({ items: account.offers }));
    drawn.offers = true;
  }
  // Read with the active ones: not read yet while those were not.
  if (account.receivedOffers && drawn.offers) yield put(receivedOffersLoaded(account.receivedOffers));
  const user: UserState = yield select(selectUser);
  // Offline, the backend may have said "unread" before the device was read: what was kept is better than unknown.
  if (account.account && user.authUser && (user.status === 'loading' || user.asOf === 0)) {
    yield put(
      lastKnownShown({
        ...account.account,
        domainId: account.account.domainId,
        authUser: user.authUser,
        asOf: account.savedAt,
      }),
    );
  }
  return drawn;
}

/** A channel opens: its kept messages are drawn while nothing else is there (its newest page is on its way). */
export function* showKeptPage(pages: Map<string, StoredPage>, action: ReturnType<typeof channelOpened>) {
  const channelId = action.payload.id;
  const page = channelId === null ? undefined : pages.get(channelId);
  if (!channelId || !page) return;
  const conversation: Conversation | undefined = yield select(selectConversation, channelId);
  if (conversation && conversation.messages.length > 0) return;
  yield put(lastKnownPageShown({ channelId, messages: page.messages }));
  // Its newest page replaces what was kept (asked for here: the view finds the conversation known).
  if (!conversation) yield put(messagesRequested({ channelId }));
}

/** /services asks for the practice: the kept upcoming bookings are drawn while the backend has not answered. */
export function* showKeptBookings(bookings: KeptBookings | null) {
  const practice: PracticeState = yield select(selectPractice);
  if (!bookings || !practice.load || practice.status === 'loaded') return;
  yield put(lastKnownBookingsShown({ upcoming: bookings.upcoming, asOf: bookings.savedAt }));
}

/** Which parts of the kept state live data has replaced in this session, and the channels whose pages changed. */
interface Dirty {
  account: boolean;
  channels: boolean;
  offers: boolean;
  receivedOffers: boolean;
  bookings: boolean;
  pages: Set<string>;
}

const PAGE_ACTIONS = [messagesLoaded.type, olderLoaded.type, newerLoaded.type, messagesArrived.type];

/** Notes which part of the kept state a live action replaced. */
export function noteLive(dirty: Dirty, action: UnknownAction): void {
  if (accountLoaded.match(action)) dirty.account = action.payload.asOf === undefined;
  else if (docChanged.match(action)) dirty.account = true;
  else if (activeOffersLoaded.match(action)) dirty.offers = true;
  else if (receivedOffersLoaded.match(action)) dirty.receivedOffers = true;
  else if (practiceLoaded.match(action) || bookingChanged.match(action)) dirty.bookings = true;
  else if (overviewLoaded.match(action) || channelChanged.match(action)) dirty.channels = true;
  if (messagesArrived.match(action)) {
    dirty.channels = true;
    for (const message of action.payload.messages) dirty.pages.add(message.channelId);
  } else if (PAGE_ACTIONS.includes(action.type)) {
    dirty.pages.add((action.payload as { channelId: string }).channelId);
  }
}

function* takeLive(dirty: Dirty, action: UnknownAction) {
  yield call(noteLive, dirty, action);
}

/** What live data replaced so far, handed to one write; what turns live during that write is the next one's. */
function takeDirty(dirty: Dirty): Dirty {
  const taken = { ...dirty, pages: new Set(dirty.pages) };
  dirty.account = dirty.channels = dirty.offers = dirty.receivedOffers = dirty.bookings = false;
  dirty.pages.clear();
  return taken;
}

/**
 * Writes what live data replaced; parts still as kept keep what was stored (and their time). Two writes may be
 * under way at once (the device is slow, live data goes on): each takes its own parts before its first wait, and
 * the record it writes is the next one's "before" at once, so neither loses what the other wrote.
 */
export function* save(
  store: LastKnownStore,
  uid: string,
  live: Dirty,
  stored: { account: Omit<StoredAccount, 'format'> | null },
) {
  const now = Date.now();
  const dirty = takeDirty(live);
  if (dirty.account || dirty.channels || dirty.offers || dirty.receivedOffers || dirty.bookings) {
    const user: UserState = yield select(selectUser);
    const overview: ChannelOverview[] = yield select(selectOverview);
    const offers: OffersState['active'] = yield select(selectActiveOffers);
    const received: ReceivedOffer[] = yield select(selectReceivedOffers);
    const practice: PracticeState = yield select(selectPractice);
    const before = stored.account;
    // Only the backend's own list is the upcoming bookings (not kept ones with a live change applied).
    const liveBookings = dirty.bookings && practice.status === 'loaded' && practice.asOf === undefined;
    const liveAccount = dirty.account && user.status === 'signedIn' && user.asOf === undefined;
    const record: Omit<StoredAccount, 'format'> = {
      uid,
      savedAt: liveAccount ? now : (before?.savedAt ?? now),
      account: liveAccount ? knownAccountOf(user) : (before?.account ?? null),
      channels: dirty.channels ? overview : (before?.channels ?? null),
      offers:
        dirty.offers && offers.status === 'loaded' ? (offers.items as Offer[]) : (before?.offers ?? null),
      receivedOffers: dirty.receivedOffers ? received : (before?.receivedOffers ?? null),
      bookings: liveBookings
        ? { savedAt: now, upcoming: practice.bookings.upcoming }
        : (before?.bookings ?? null),
    };
    // Nothing of the account known live yet: nothing worth a start to draw.
    if (record.account) {
      stored.account = record;
      yield call([store, store.putAccount], record);
    }
  }
  for (const channelId of dirty.pages) {
    const conversation: Conversation | undefined = yield select(selectConversation, channelId);
    // Only a window that reaches the newest is "the newest messages" of the channel.
    if (!conversation || conversation.status !== 'loaded' || conversation.hasNewer) continue;
    const messages: ChatMessage[] = conversation.messages.slice(-LAST_KNOWN_PAGE_MESSAGES);
    if (messages.length === 0) continue;
    yield call([store, store.putPage], { uid, channelId, savedAt: now, messages });
  }
}

/** One person's session on this device: what was kept is drawn, then what is live is kept. */
export function* keepSession(store: LastKnownStore, uid: string) {
  const kept: LastKnown = yield call([store, store.load], uid);
  const pages = new Map(kept.pages.map((page) => [page.channelId, page]));
  const drawn: { channels: boolean; offers: boolean } = yield call(showLastKnown, kept);
  // Nothing was kept: the first screen waits for live data, and so must not what waits for the first screen.
  if (!kept.account) yield call(firstScreenDrawn);
  const openId: string | null = yield select((state: { channels: ChannelsState }) => state.channels.openId);
  yield call(showKeptPage, pages, channelOpened({ id: openId }));
  yield takeEvery(channelOpened.type, showKeptPage, pages);
  const bookings = kept.account?.bookings ?? null;
  yield call(showKeptBookings, bookings);
  yield takeEvery(practiceRequested.type, showKeptBookings, bookings);

  // What turned live while the kept state was read (a fast backend) is kept as well.
  const dirty: Dirty = yield call(liveAlready, drawn);
  const stored: { account: Omit<StoredAccount, 'format'> | null } = { account: kept.account };
  const live = [
    accountLoaded.type,
    docChanged.type,
    activeOffersLoaded.type,
    receivedOffersLoaded.type,
    practiceLoaded.type,
    bookingChanged.type,
    overviewLoaded.type,
    channelChanged.type,
    ...PAGE_ACTIONS,
  ];
  yield takeEvery(live, takeLive, dirty);
  yield debounce(LAST_KNOWN_SAVE_DEBOUNCE_MS, live, save, store, uid, dirty, stored);
  yield call(save, store, uid, dirty, stored);
}

/** The parts that are live already as the saga starts: not drawn from what was kept, and answered. */
export function* liveAlready(drawn: { channels: boolean; offers: boolean }) {
  const user: UserState = yield select(selectUser);
  const channels: ChannelsState = yield select(selectChannels);
  const offers: OffersState['active'] = yield select(selectActiveOffers);
  const practice: PracticeState = yield select(selectPractice);
  const conversations: Record<string, Conversation> = yield select(
    (state: { conversation: { byChannel: Record<string, Conversation> } }) => state.conversation.byChannel,
  );
  return {
    account: user.status === 'signedIn' && user.asOf === undefined,
    channels: channels.status === 'loaded' && !drawn.channels,
    offers: offers.status === 'loaded' && !drawn.offers,
    // Read with the active offers.
    receivedOffers: offers.status === 'loaded' && !drawn.offers,
    bookings: practice.status === 'loaded' && practice.asOf === undefined,
    pages: new Set(Object.keys(conversations)),
  } satisfies Dirty;
}

export function* lastKnownSaga(store: LastKnownStore = browserLastKnownStore()) {
  // Kept in order while a sign-out's forgetting is under way: a sign-in right after it is not missed.
  const sessions: Channel<UnknownAction> = yield actionChannel(
    [signedIn.type, signedOut.type, signOutRequested.type],
    buffers.expanding<UnknownAction>(),
  );
  let task: Task | undefined;
  const user: UserState = yield select(selectUser);
  // A session may be under way (the backend has not said whose): the device is read meanwhile.
  if (user.status !== 'signedOut') yield call([store, store.preload]);
  if (user.authUser && (user.status === 'loading' || user.status === 'signedIn'))
    task = yield fork(keepSession, store, user.authUser.uid);
  while (true) {
    const action: UnknownAction = yield take(sessions);
    if (task) yield cancel(task);
    task = undefined;
    if (signedIn.match(action)) task = yield fork(keepSession, store, action.payload.authUser.uid);
    // A shared device: nothing of the person stays once they sign out or their session ends.
    else yield call([store, store.clear]);
  }
}
