// The tab title shows how many messages from others are unread in the channels the person has not muted —
// "(3) QuPM" — whether or not they are looking, as WhatsApp Web and Slack do: it is the app badge's sum (muted
// channels left out as the badge leaves them out), and "QuPM" when nothing is unread. A message in the open
// channel stops counting once it is seen (the read-mark saga says so while the person looks). The count is the
// store's (src/store/attentionCount.ts); the browser's edge is src/platform/attention.ts.
import { call, select, take } from 'redux-saga/effects';
import { setDocumentTitle } from '@/platform/attention';
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

/** The title for now: the app's name with the unread count. */
export function* currentTitle() {
  const uid: string | null = yield select(selectUid);
  const at: number = yield call(now);
  const count: number = yield select(selectAttentionCount, uid, at);
  return titleFor(count);
}

/** Keeps the title: after every change of what the count is made of, and only when it changes. */
export function* watchTitle() {
  let shown: string | null = null;
  while (true) {
    const title: string = yield call(currentTitle);
    if (title !== shown) {
      yield call(setDocumentTitle, title);
      shown = title;
    }
    yield take(TITLE_INPUTS);
  }
}

/** Starts with the app (the root supervises it); the title follows whoever is signed in. */
export function* titleSaga() {
  yield call(watchTitle);
}
