// The tab title while the person is not looking: when the page is hidden or its window has lost
// the focus, the title shows how many messages from others are unread in the channels they have not muted —
// "(3) QuPM" — and it is "QuPM" again as soon as they look (or nothing is unread). The count is the store's
// (src/store/attentionCount.ts); the browser's edge is src/platform/attention.ts.
import type { EventChannel } from 'redux-saga';
import { call, race, select, take } from 'redux-saga/effects';
import { createAttentionChannel, isAttentive, setDocumentTitle } from '@/platform/attention';
import type { AttentionEvent } from '@/platform/attention';
import { now } from '@/platform/browser';
import { channelChanged, channelOpened, overviewLoaded } from '@/store/channelsSlice';
import { messagesArrived } from '@/store/messages';
import { messagesLoaded } from '@/store/conversationSlice';
import { selectAttentionCount } from '@/store/attentionCount';
import { mutesLoaded, muteSaved, unmuteSaved } from '@/store/mutesSlice';
import { messagesSeen, readMarkAcknowledged } from '@/store/readMarksSlice';
import { selectUid, signedOut } from '@/store/userSlice';

/** The app's name, as public/index.html's <title> and the manifest say it. */
export const APP_TITLE = 'QuPM';

/** "(3) QuPM"; past 99, "(99+) QuPM"; with nothing unread, "QuPM". */
export function titleFor(count: number): string {
  if (count <= 0) return APP_TITLE;
  return `(${count > 99 ? '99+' : count}) ${APP_TITLE}`;
}

/** What changes the count: messages, the list, the open channel, mutes, what was seen, the session. */
export const TITLE_INPUTS = [
  messagesArrived.type,
  messagesLoaded.type,
  overviewLoaded.type,
  channelChanged.type,
  channelOpened.type,
  mutesLoaded.type,
  muteSaved.type,
  unmuteSaved.type,
  messagesSeen.type,
  readMarkAcknowledged.type,
  signedOut.type,
];

/** The title for now: the app's name while the person looks, else with the count. */
export function* currentTitle(attentive: boolean) {
  if (attentive) return APP_TITLE;
  const uid: string | null = yield select(selectUid);
  const at: number = yield call(now);
  const count: number = yield select(selectAttentionCount, uid, at);
  return titleFor(count);
}

/** Keeps the title: after every change of attention and of what the count is made of. */
export function* watchTitle(channel: EventChannel<AttentionEvent>) {
  let attentive: boolean = yield call(isAttentive);
  let shown: string | null = null;
  try {
    while (true) {
      const title: string = yield call(currentTitle, attentive);
      if (title !== shown) {
        yield call(setDocumentTitle, title);
        shown = title;
      }
      const { attention }: { attention?: AttentionEvent } = yield race({
        attention: take(channel),
        change: take(TITLE_INPUTS),
      });
      if (attention) attentive = attention.attentive;
    }
  } finally {
    channel.close();
  }
}

export function* followTitle() {
  const channel: EventChannel<AttentionEvent> = yield call(createAttentionChannel);
  yield call(watchTitle, channel);
}

/** Starts with the app (the root supervises it); the title follows whoever is signed in. */
export function* titleSaga() {
  yield call(followTitle);
}
