// The outbox: sends each message the person writes exactly once, in the order written, whatever the
// network does. A message is kept on the device (IndexedDB) from Send until the backend acknowledges it, retried
// with backoff — at once when the network or live data comes back — also after a reload, and always under its
// client-made id, which the backend treats as the idempotency key (a repeat answers the stored message). One that
// the backend refuses says why and waits for Retry or Delete; the ones behind it go on. Drafts are kept per
// channel on the device too. Everything here runs per signed-in session; an explicit sign-out forgets what this
// device kept for the account (a shared device must not keep someone's unsent words).
import type { EventChannel } from 'redux-saga';
import type { Action } from '@reduxjs/toolkit';
import { call, debounce, delay, fork, put, race, select, take, takeEvery } from 'redux-saga/effects';
import type { Backend } from '@/backend/ports';
import { BackendError } from '@/backend/ports';
import type { ChatMessage } from '@core/model';
import { browserConversationStore } from '@/platform/conversationStore';
import type { ConversationStore, RestoredConversations } from '@/platform/conversationStore';
import { createPageHideChannel } from '@/platform/attention';
import { connectivityChanged } from '@/store/appSlice';
import { signOutRequested } from '@/store/authSlice';
import { messagesArrived } from '@/store/messages';
import { liveResumed } from '@/store/liveSlice';
import {
  conversationsRestored,
  draftChanged,
  messageAcknowledged,
  messageSendRequested,
  outboxDeleteRequested,
  outboxRetryRequested,
  outboxSendPostponed,
  outboxSendRefused,
  outboxSendStarted,
  selectNextToSend,
  selectOutboxEntries,
  selectOutboxEntry,
} from '@/store/outboxSlice';
import type { OutboxEntry, OutboxState } from '@/store/outboxSlice';
import { toFailure } from '@/backend/errors';
import { forEachSession } from '@/sagas/session';
import { supervise } from '@/sagas/supervise';
import {
  DRAFT_SAVE_DEBOUNCE_MS,
  OUTBOX_RETRY_MAX_MS,
  OUTBOX_RETRY_START_MS,
  OUTBOX_SEND_TIMEOUT_MS,
} from '@/timings';

/** Refusals that another try cannot change: the person decides (Retry or Delete). */
const REFUSED = new Set([
  'INVALID_ARGUMENT',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'FAILED_PRECONDITION',
  'ALREADY_EXISTS',
]);

export const NOT_SENT_YET = 'Not sent yet. QuPM will send it when the connection is back.';

export function isRefusal(error: unknown): boolean {
  return error instanceof BackendError && REFUSED.has(error.status);
}

/** The wait after the n-th failed attempt (n from 1): 1 s, 2 s, 4 s … up to 30 s. */
export function retryDelay(attempts: number): number {
  return Math.min(OUTBOX_RETRY_MAX_MS, OUTBOX_RETRY_START_MS * 2 ** Math.max(0, attempts - 1));
}

const isOnline = (action: Action): boolean => connectivityChanged.match(action) && action.payload.online;

/** One attempt at the next message; answers whether to wait before the next attempt. */
export function* attemptSend(backend: Backend, uid: string, entry: OutboxEntry) {
  yield put(outboxSendStarted({ id: entry.id }));
  try {
    const { sent } = (yield race({
      sent: call([backend.messages, backend.messages.sendMessage], entry.channelId, {
        id: entry.id,
        text: entry.text,
        ...(entry.attachments ? { attachments: entry.attachments } : {}),
        ...(entry.replyTo ? { replyTo: entry.replyTo.id } : {}),
      }),
      timeout: delay(OUTBOX_SEND_TIMEOUT_MS),
    })) as { sent?: ChatMessage };
    if (sent) {
      // Into its conversation first, then out of the outbox: it is never off the screen in between.
      yield put(messagesArrived({ messages: [sent], ownUid: uid }));
      yield put(messageAcknowledged({ message: sent }));
      return false;
    }
    yield put(outboxSendPostponed({ id: entry.id, error: NOT_SENT_YET }));
    return true;
  } catch (error) {
    const { message } = toFailure(error);
    if (isRefusal(error)) {
      yield put(outboxSendRefused({ id: entry.id, error: message }));
      return false;
    }
    yield put(outboxSendPostponed({ id: entry.id, error: NOT_SENT_YET }));
    return true;
  }
}

/** Sends the queued messages one at a time, oldest first; a message that must wait keeps its place. */
export function* sendQueued(backend: Backend, uid: string) {
  while (true) {
    const next: OutboxEntry | undefined = yield select(selectNextToSend);
    if (!next) {
      yield take([messageSendRequested.type, outboxRetryRequested.type, conversationsRestored.type]);
      continue;
    }
    const wait: boolean = yield call(attemptSend, backend, uid, next);
    if (!wait) continue;
    const entry: OutboxEntry | undefined = yield select(selectOutboxEntry, next.id);
    yield race({
      timer: delay(retryDelay(entry?.attempts ?? 1)),
      online: take(isOnline),
      live: take(liveResumed.type),
      retry: take(outboxRetryRequested.type),
    });
  }
}

// ---- keeping it on the device

export function* keepNew(
  store: ConversationStore,
  uid: string,
  action: ReturnType<typeof messageSendRequested>,
) {
  const { id, channelId, text, attachments, replyTo, createdAt } = action.payload;
  yield call([store, store.putOutbox], {
    id,
    uid,
    channelId,
    text,
    ...(attachments ? { attachments } : {}),
    ...(replyTo ? { replyTo } : {}),
    createdAt,
    status: 'pending',
    error: null,
  });
}

export function* keepState(
  store: ConversationStore,
  uid: string,
  action: { type: string; payload: { id: string } },
) {
  const entry: OutboxEntry | undefined = yield select(selectOutboxEntry, action.payload.id);
  if (!entry) return;
  yield call([store, store.putOutbox], {
    id: entry.id,
    uid,
    channelId: entry.channelId,
    text: entry.text,
    ...(entry.attachments ? { attachments: entry.attachments } : {}),
    ...(entry.replyTo ? { replyTo: entry.replyTo } : {}),
    createdAt: entry.createdAt,
    status: entry.status === 'refused' ? 'refused' : 'pending',
    error: entry.status === 'refused' ? entry.error : null,
  });
}

export function* forget(
  store: ConversationStore,
  action: { type: string; payload: { id: string } | { message: ChatMessage } },
) {
  const id = 'message' in action.payload ? action.payload.message.id : action.payload.id;
  const entry: OutboxEntry | undefined = yield select(selectOutboxEntry, id);
  // A delete asked for while the message was on its way is not done (the message may well be sent).
  if (entry) return;
  yield call([store, store.deleteOutbox], id);
}

const selectDrafts = (state: { outbox: OutboxState }): Record<string, string> => state.outbox.drafts;

/** Writes the drafts that changed since the last write (`saved` remembers what the device has). */
export function* saveDrafts(store: ConversationStore, uid: string, saved: Map<string, string>) {
  const drafts: Record<string, string> = yield select(selectDrafts);
  const channels = new Set([...saved.keys(), ...Object.keys(drafts)]);
  for (const channelId of channels) {
    const text = drafts[channelId] ?? '';
    if ((saved.get(channelId) ?? '') === text) continue;
    yield call([store, store.putDraft], { uid, channelId, text });
    if (text === '') saved.delete(channelId);
    else saved.set(channelId, text);
  }
}

export function* saveDraftsOnPageHide(store: ConversationStore, uid: string, saved: Map<string, string>) {
  const channel: EventChannel<{ hidden: true }> = yield call(createPageHideChannel);
  try {
    while (true) {
      yield take(channel);
      yield call(saveDrafts, store, uid, saved);
    }
  } finally {
    channel.close();
  }
}

export function* forgetDevice(store: ConversationStore, uid: string) {
  yield call([store, store.clear], uid);
}

/** One signed-in session's outbox and drafts. */
export function* runOutbox(uid: string, backend: Backend, store: ConversationStore) {
  const saved = new Map<string, string>();
  yield takeEvery(messageSendRequested.type, keepNew, store, uid);
  yield takeEvery([outboxSendRefused.type, outboxRetryRequested.type], keepState, store, uid);
  yield takeEvery([messageAcknowledged.type, outboxDeleteRequested.type], forget, store);
  yield debounce(
    DRAFT_SAVE_DEBOUNCE_MS,
    [draftChanged.type, messageSendRequested.type],
    saveDrafts,
    store,
    uid,
    saved,
  );
  yield takeEvery(signOutRequested.type, forgetDevice, store, uid);
  yield fork(supervise, 'drafts', saveDraftsOnPageHide, store, uid, saved);

  const restored: RestoredConversations = yield call([store, store.load], uid);
  for (const draft of restored.drafts) saved.set(draft.channelId, draft.text);
  // What was sent before this saga started (its chunk was loading) is kept on the device now.
  const kept = new Set(restored.outbox.map((entry) => entry.id));
  const early: OutboxEntry[] = yield select(selectOutboxEntries);
  for (const entry of early)
    if (!kept.has(entry.id)) yield call(keepState, store, uid, { type: '', payload: entry });
  yield put(conversationsRestored(restored));
  yield call(saveDrafts, store, uid, saved);
  yield fork(supervise, 'outbox', sendQueued, backend, uid);
}

export function* outboxSaga(backend: Backend) {
  const store: ConversationStore = yield call(browserConversationStore);
  yield call(forEachSession, runOutbox, backend, store);
}
