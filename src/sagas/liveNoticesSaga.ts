// In-app notices of live messages off the home screen: on /services, /settings and every screen
// but home (whose channel list shows what is new), a new message from someone else gets a notice from live data
// even without push, except from a channel the person muted; a message whose push was shown already is not shown
// again (the inbox slice keeps the ids noticed). Loaded with the other sagas of a session (src/app/lazySagas.ts).
import { call, delay, put, select, takeEvery } from 'redux-saga/effects';
import { wantsInAppFrom } from '@core/delivery';
import type { ChatMessage } from '@core/model';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@core/model';
import { messagePush } from '@core/push';
import { now } from '@/platform/browser';
import { messagesArrived } from '@/store/messages';
import { liveMessageNoticed, noticeExpired, selectNoticedIds, selectScreenPath } from '@/store/inboxSlice';
import type { Notice } from '@/store/inboxSlice';
import { selectMutes } from '@/store/mutesSlice';
import { selectUser } from '@/store/userSlice';
import type { UserState } from '@/store/userSlice';
import { LIVE_NOTICE_MAX_AGE_MS, NOTICE_DURATION_MS } from '@/timings';

export function* expireLiveNotice(action: ReturnType<typeof liveMessageNoticed>) {
  yield delay(NOTICE_DURATION_MS);
  yield put(noticeExpired({ id: action.payload.notice.id }));
}

/**
 * Off the home screen (/services, /settings and the others), where no channel list shows what is new,
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

export function* liveNoticesSaga() {
  yield takeEvery(messagesArrived.type, handleLiveMessages);
  yield takeEvery(liveMessageNoticed.type, expireLiveNotice);
}
