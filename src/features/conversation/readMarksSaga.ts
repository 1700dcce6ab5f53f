// Read marks that stick. A message is read when the person has seen it: the channel is open and the
// window is visible and focused. The newest message seen becomes the channel's pending mark, sent at most once a
// second, at once when the person leaves the channel, and with keepalive when the page hides; a mark the backend
// has not acknowledged (sending failed, or the page hid) is kept on the device for the next start. The backend keeps marks monotonic, so a late or repeated one is harmless;
// one that failed is sent again on the next occasion (a new mark, the network back, the next start).
import type { EventChannel } from 'redux-saga';
import type { Action } from '@reduxjs/toolkit';
import { call, fork, put, select, take, takeEvery, throttle } from 'redux-saga/effects';
import type { Backend } from '@/backend/ports';
import { compareMessages } from '@core/messages';
import type { MessageCursor } from '@core/messages';
import type { ChatMessage } from '@core/model';
import { createAttentionChannel, createPageHideChannel, isAttentive } from '@/platform/attention';
import type { AttentionEvent } from '@/platform/attention';
import { browserConversationStore } from '@/platform/conversationStore';
import type { ConversationStore } from '@/platform/conversationStore';
import { connectivityChanged } from '@/store/appSlice';
import { channelOpened, selectOpenChannelId } from '@/store/channelsSlice';
import { messagesArrived } from '@/store/messages';
import { messagesLoaded, selectConversation } from '@/store/conversationSlice';
import type { Conversation } from '@/store/conversationSlice';
import { liveResumed } from '@/store/liveSlice';
import { conversationsRestored } from '@/store/outboxSlice';
import {
  messagesSeen,
  readMarkAcknowledged,
  selectNewestMark,
  selectPendingMarks,
} from '@/store/readMarksSlice';
import type { PendingMark } from '@/store/readMarksSlice';
import { forEachSession } from '@/sagas/session';
import { supervise } from '@/sagas/supervise';
import { READ_MARK_THROTTLE_MS } from '@/timings';

/** Whether the person is looking (kept by the attention watcher; read by the others). */
export interface Attention {
  attentive: boolean;
}

/** If the person is looking at a channel, its newest message is seen: it becomes the pending mark. */
export function* noteSeen(store: ConversationStore, uid: string, attention: Attention) {
  if (!attention.attentive) return;
  const channelId: string | null = yield select(selectOpenChannelId);
  if (channelId === null) return;
  const conversation: Conversation | undefined = yield select(selectConversation, channelId);
  // A window that does not reach the newest (the person paged far back) has not seen it.
  const newest: ChatMessage | undefined = conversation?.hasNewer ? undefined : conversation?.messages.at(-1);
  if (!newest) return;
  const known: MessageCursor | undefined = yield select(selectNewestMark, channelId);
  if (known && compareMessages(newest, known) <= 0) return;
  yield put(messagesSeen({ channelId, createdAt: newest.createdAt, id: newest.id }));
}

/**
 * Keeps a mark on the device until it is acknowledged: written when sending it failed, and before a page that
 * hides sends its marks (it may not live to hear the answer) — not for every message seen, which would be a
 * device write per message of a busy channel for a mark that is sent within a second anyway.
 */
export function* keepOnDevice(store: ConversationStore, uid: string, mark: PendingMark) {
  yield call([store, store.putReadMark], {
    uid,
    channelId: mark.channelId,
    messageId: mark.id,
    createdAt: mark.createdAt,
  });
}

/**
 * Sends every pending mark. `leaving`: the page is going away (keepalive). After marks that went through while
 * the person is here, the pending notifications behind the badge are cleared too (they have read them).
 */
export function* sendMarks(backend: Backend, store: ConversationStore, uid: string, leaving: boolean) {
  const marks: PendingMark[] = yield select(selectPendingMarks);
  if (leaving) for (const mark of marks) yield call(keepOnDevice, store, uid, mark);
  let sent = 0;
  for (const mark of marks) {
    try {
      yield call([backend.channels, backend.channels.markRead], mark.channelId, mark.id, { leaving });
      yield put(readMarkAcknowledged(mark));
      yield call([store, store.deleteReadMark], uid, mark.channelId, mark.id);
      sent += 1;
    } catch (error) {
      // Kept, here and on the device: the next occasion sends it again.
      if (!leaving) yield call(keepOnDevice, store, uid, mark);
      console.warn('A read mark could not be sent yet', error);
    }
  }
  if (sent === 0 || leaving) return;
  try {
    yield call([backend.callables, backend.callables.clearPendingNotifications], { userId: uid });
  } catch (error) {
    console.warn('Clearing pending notifications failed', error);
  }
}

export function* watchAttention(store: ConversationStore, uid: string, attention: Attention) {
  const channel: EventChannel<AttentionEvent> = yield call(createAttentionChannel);
  try {
    while (true) {
      const { attentive }: AttentionEvent = yield take(channel);
      attention.attentive = attentive;
      if (attentive) yield call(noteSeen, store, uid, attention);
    }
  } finally {
    channel.close();
  }
}

export function* sendOnPageHide(backend: Backend, store: ConversationStore, uid: string) {
  const channel: EventChannel<{ hidden: true }> = yield call(createPageHideChannel);
  try {
    while (true) {
      yield take(channel);
      yield call(sendMarks, backend, store, uid, true);
    }
  } finally {
    channel.close();
  }
}

/** Leaving a channel sends what was seen there at once (it may be the last chance before the page goes). */
export function* sendOnLeave(backend: Backend, store: ConversationStore, uid: string) {
  let open: string | null = yield select(selectOpenChannelId);
  while (true) {
    const action: ReturnType<typeof channelOpened> = yield take(channelOpened.type);
    if (open !== null && action.payload.id !== open) yield call(sendMarks, backend, store, uid, false);
    open = action.payload.id;
  }
}

const isOnline = (action: Action): boolean => connectivityChanged.match(action) && action.payload.online;

/** One signed-in session's read marks. */
export function* runReadMarks(uid: string, backend: Backend, store: ConversationStore) {
  const attention: Attention = { attentive: (yield call(isAttentive)) as boolean };
  yield takeEvery(
    [channelOpened.type, messagesLoaded.type, messagesArrived.type],
    noteSeen,
    store,
    uid,
    attention,
  );
  yield throttle(READ_MARK_THROTTLE_MS, messagesSeen.type, sendMarks, backend, store, uid, false);
  yield takeEvery(
    [conversationsRestored.type, liveResumed.type, isOnline],
    sendMarks,
    backend,
    store,
    uid,
    false,
  );
  yield fork(supervise, 'attention', watchAttention, store, uid, attention);
  yield fork(supervise, 'page hide', sendOnPageHide, backend, store, uid);
  yield fork(supervise, 'read marks', sendOnLeave, backend, store, uid);
  yield call(noteSeen, store, uid, attention);
}

export function* readMarksSaga(backend: Backend) {
  const store: ConversationStore = yield call(browserConversationStore);
  yield call(forEachSession, runReadMarks, backend, store);
}
