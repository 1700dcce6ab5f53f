// Foreground messages and pending notifications (issue #5 parts 3 and 9, spec §5, §7). PUSH_MSG from the worker
// arrives through an eventChannel; an id already seen (messageId or fcmMessageId) is skipped; a new one updates the
// unread counts and the badge, and when the worker asked this page to present it (and the person is signed in and
// takes in-app notices) it shows an in-app notice and tells the worker (foregroundHandled), which then shows no
// system notification. Opening the app — the first screen signed in, or coming back to it — calls
// clear_pending_notifications for the signed-in person and clears the badge (pendingSaga, which starts with the
// backend); opening a channel clears the badge too (issue #6's channelsSaga makes that call for the channel).
// Off the home screen, a new message from live data gets an in-app notice even without push (issue #13), except
// from a muted channel or from the person themselves; a message noticed both ways is shown once.
import { call, delay, fork, put, select, take, takeEvery, takeLeading } from 'redux-saga/effects';
import type { EventChannel } from 'redux-saga';
import { wantsInApp, wantsInAppFrom } from '@core/delivery';
import type { ChatMessage } from '@core/model';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@core/model';
import { messagePush } from '@core/push';
import type { Backend } from '@/backend/ports';
import type { PushMsgMessage } from '@/protocol/messages';
import { channelOpened, messagesArrived } from '@/store/channelsSlice';
import {
  chatMessageIdOf,
  duplicateMessageSkipped,
  liveMessageNoticed,
  noticeExpired,
  pushMessageReceived,
  selectNoticedIds,
  selectScreenPath,
  selectSeenMessageIds,
} from '@/store/inboxSlice';
import type { Notice } from '@/store/inboxSlice';
import { selectMutes } from '@/store/mutesSlice';
import { workerMessageIgnored } from '@/store/swHealthSlice';
import { accountLoaded, selectUid, selectUser } from '@/store/userSlice';
import type { UserState } from '@/store/userSlice';
import { applyAppBadge, now } from '@/platform/browser';
import { createWorkerMessageChannel, postToWorker } from '@/platform/serviceWorker';
import type { WorkerMessageEvent } from '@/platform/serviceWorker';
import { createVisibilityChannel } from '@/platform/browserEvents';
import type { VisibilityEvent } from '@/platform/browserEvents';
import { LIVE_NOTICE_MAX_AGE_MS, NOTICE_DURATION_MS, VISIBILITY_THROTTLE_MS } from '@/timings';
import { supervise, superviseQuietly } from './supervise';

/**
 * Whether this page may show a message in-app: someone is signed in and takes in-app notices. Settings not read
 * yet count as the defaults every account starts with, which take them (core/model.ts
 * DEFAULT_NOTIFICATION_SETTINGS; __tests__/core/delivery.test.ts holds the two together).
 */
export function canPresentInApp(user: UserState): boolean {
  if (user.status !== 'signedIn') return false;
  return user.notificationSettings === null || wantsInApp(user.notificationSettings);
}

export function* handlePushMessage(message: PushMsgMessage) {
  const seen: string[] = yield select(selectSeenMessageIds);
  if (seen.includes(message.messageId)) {
    yield put(duplicateMessageSkipped({ messageId: message.messageId }));
    return;
  }
  const user: UserState = yield select(selectUser);
  const presented = message.present && canPresentInApp(user);
  yield put(pushMessageReceived({ messageId: message.messageId, payload: message.payload, presented }));
  yield call(applyAppBadge, message.payload.data.badge_count);
  if (!presented) return;
  try {
    yield call(postToWorker, { type: 'foregroundHandled', messageId: message.messageId });
  } catch (error) {
    // The worker then shows the system notification after its wait: shown twice, never lost.
    console.warn('Telling the service worker about a shown message failed', error);
  }
}

export function* watchWorkerMessages(channel: EventChannel<WorkerMessageEvent>) {
  try {
    while (true) {
      const event: WorkerMessageEvent = yield take(channel);
      if (event.kind === 'ignored') yield put(workerMessageIgnored());
      else yield call(handlePushMessage, event.message);
    }
  } finally {
    channel.close();
  }
}

export function* expireNotice(action: ReturnType<typeof pushMessageReceived>) {
  if (!action.payload.presented) return;
  yield delay(NOTICE_DURATION_MS);
  yield put(noticeExpired({ id: chatMessageIdOf(action.payload.messageId, action.payload.payload) }));
}

export function* expireLiveNotice(action: ReturnType<typeof liveMessageNoticed>) {
  yield delay(NOTICE_DURATION_MS);
  yield put(noticeExpired({ id: action.payload.notice.id }));
}

/**
 * Off the home screen (issue #13: /services, /settings and the others), where no channel list shows what is new,
 * a new message gets an in-app notice from live data, even without push. Not on the home screen (its list shows
 * the unread counts), and not before the layout has said where the person is.
 */
export function isOffHomeScreen(path: string | null): boolean {
  return path !== null && path !== '/';
}

/** The notice of a live message: the words and link of its push (core/push.ts), under the message's id. */
export function liveNotice(message: ChatMessage): Notice {
  const push = messagePush({
    channelId: message.channelId,
    senderName: message.senderName,
    text: message.text,
    badgeCount: 0,
  });
  return { id: message.id, title: push.notification.title, body: push.notification.body, path: push.path };
}

/**
 * Messages from live data: each new one from someone else, in a channel the person has not muted, gets an in-app
 * notice when they are off the home screen and take in-app notices (core/delivery.ts wantsInAppFrom). A catch-up
 * after a long time offline brings old messages: those are not news (LIVE_NOTICE_MAX_AGE_MS).
 */
export function* handleLiveMessages(action: ReturnType<typeof messagesArrived>) {
  const path: string | null = yield select(selectScreenPath);
  if (!isOffHomeScreen(path)) return;
  const user: UserState = yield select(selectUser);
  if (user.status !== 'signedIn') return;
  const settings = user.notificationSettings ?? DEFAULT_NOTIFICATION_SETTINGS;
  const at: number = yield call(now);
  const mutes: Record<string, number> = yield select(selectMutes);
  const noticed: string[] = yield select(selectNoticedIds);
  for (const message of action.payload.messages) {
    if (message.senderId === action.payload.ownUid || noticed.includes(message.id)) continue;
    if (at - message.createdAt > LIVE_NOTICE_MAX_AGE_MS) continue;
    if (!wantsInAppFrom(settings, mutes[message.channelId], at)) continue;
    yield put(liveMessageNoticed({ notice: liveNotice(message) }));
  }
}

/** spec §7 clear_pending_notifications {userId} for the signed-in person, and the badge cleared. */
export function* clearPending(backend: Backend) {
  const uid: string | null = yield select(selectUid);
  if (uid === null) return;
  yield call(applyAppBadge, 0);
  try {
    yield call([backend.callables, backend.callables.clearPendingNotifications], { userId: uid });
  } catch (error) {
    // spec §8: only logged; the next opening clears them.
    console.warn('Clearing pending notifications failed', error);
  }
}

/** Coming back to the app counts as opening it (at most once per spec §9's 5 s visibility rate limit). */
export function* watchVisibility(backend: Backend, channel: EventChannel<VisibilityEvent>) {
  try {
    while (true) {
      const { visible }: VisibilityEvent = yield take(channel);
      if (!visible) continue;
      yield call(clearPending, backend);
      yield delay(VISIBILITY_THROTTLE_MS);
    }
  } finally {
    channel.close();
  }
}

/** A channel's conversation opened (issue #6): its saga clears the pending count; the badge goes with it. */
export function* handleChannelOpened(action: ReturnType<typeof channelOpened>) {
  if (action.payload.id !== null) yield call(applyAppBadge, 0);
}

/** PUSH_MSG from the worker, from a channel of its own (a restart after a crash opens a new one). */
export function* followWorkerMessages() {
  const channel: EventChannel<WorkerMessageEvent> = yield call(createWorkerMessageChannel);
  yield call(watchWorkerMessages, channel);
}

export function* followVisibility(backend: Backend) {
  const channel: EventChannel<VisibilityEvent> = yield call(createVisibilityChannel);
  yield call(watchVisibility, backend, channel);
}

/** Starts with the app, before the worker registers, so a PUSH_MSG sent at once finds its listener. */
export function* inboxSaga() {
  yield takeEvery(pushMessageReceived.type, expireNotice);
  yield takeEvery(liveMessageNoticed.type, expireLiveNotice);
  yield takeEvery(messagesArrived.type, handleLiveMessages);
  yield takeEvery(channelOpened.type, handleChannelOpened);
  yield fork(supervise, 'inbox', followWorkerMessages);
}

/** Clearing pending notifications, against the backend: when the app opens signed in, and when it comes back. */
export function* pendingSaga(backend: Backend) {
  // user/accountLoaded: the app opened with a session, or someone signed in.
  yield takeLeading(accountLoaded.type, clearPending, backend);
  yield fork(superviseQuietly, 'app visibility', followVisibility, backend);
}
