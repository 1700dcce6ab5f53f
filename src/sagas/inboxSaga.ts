// Foreground messages and pending notifications (spec §5, §7). PUSH_MSG from the worker
// arrives through an eventChannel; an id already seen (messageId or fcmMessageId) is skipped; a new one updates the
// unread counts and the badge, and when the worker asked this page to present it (and the person is signed in and
// takes in-app notices) it shows an in-app notice and tells the worker (foregroundHandled), which then shows no
// system notification. Opening the app — the first screen signed in, or coming back to it — calls
// clear_pending_notifications for the signed-in person and clears the badge (pendingSaga, which starts with the
// backend); opening a channel clears the badge too (channelsSaga makes that call for the channel).
// A message shown in-app from live data already (liveNoticesSaga) is not shown again when its push comes.
import { call, delay, fork, put, select, take, takeEvery, takeLeading } from 'redux-saga/effects';
import type { EventChannel } from 'redux-saga';
import { wantsInApp } from '@core/delivery';
import type { Backend } from '@/backend/ports';
import type { PushMsgMessage } from '@/protocol/messages';
import { channelOpened } from '@/store/channelsSlice';
import {
  chatMessageIdOf,
  duplicateMessageSkipped,
  noticeExpired,
  pushMessageReceived,
  selectSeenMessageIds,
} from '@/store/inboxSlice';
import { workerMessageIgnored } from '@/store/swHealthSlice';
import { accountLoaded, selectUid, selectUser } from '@/store/userSlice';
import type { UserState } from '@/store/userSlice';
import { applyAppBadge } from '@/platform/browser';
import { createWorkerMessageChannel, postToWorker } from '@/platform/serviceWorker';
import type { WorkerMessageEvent } from '@/platform/serviceWorker';
import { createVisibilityChannel } from '@/platform/browserEvents';
import type { VisibilityEvent } from '@/platform/browserEvents';
import { NOTICE_DURATION_MS, VISIBILITY_THROTTLE_MS } from '@/timings';
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

/** A channel's conversation opened: its saga clears the pending count; the badge goes with it. */
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
  yield takeEvery(channelOpened.type, handleChannelOpened);
  yield fork(supervise, 'inbox', followWorkerMessages);
}

/** Clearing pending notifications, against the backend: when the app opens signed in, and when it comes back. */
export function* pendingSaga(backend: Backend) {
  // user/accountLoaded: the app opened with a session, or someone signed in.
  yield takeLeading(accountLoaded.type, clearPending, backend);
  yield fork(superviseQuietly, 'app visibility', followVisibility, backend);
}
