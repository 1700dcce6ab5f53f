// Read receipts and typing for one signed-in session (core/receipts.ts). The open channel's receipts and typing
// signals are followed while it is open; a typing signal shows for a few seconds after its last one (a timer per
// typer, restarted by each signal) and goes at once with their message (receiptsSlice) or when the live connection
// drops (nothing stale survives a reconnect). The person's own keystrokes (draftChanged) send a typing signal at
// most once every few seconds. Whatever reaches this device (a page, a live batch) moves its delivered mark in that
// channel, sent at most once a second. The settings switch is saved here too (it is in the chunk once signed in).
import { eventChannel } from 'redux-saga';
import type { EventChannel, Task } from 'redux-saga';
import {
  call,
  cancel,
  delay,
  fork,
  put,
  select,
  take,
  takeEvery,
  takeLatest,
  throttle,
} from 'redux-saga/effects';
import type { Backend, TypingSignal } from '@/backend/ports';
import { toFailure } from '@/backend/errors';
import type { Receipt } from '@core/receipts';
import { compareMessages } from '@core/messages';
import type { MessageCursor } from '@core/messages';
import type { ChatMessage } from '@core/model';
import { channelOpened, selectOpenChannelId } from '@/store/channelsSlice';
import { messagesLoaded } from '@/store/conversationSlice';
import { liveStatusChanged } from '@/store/liveSlice';
import type { LiveStatus } from '@/backend/ports';
import { messagesArrived } from '@/store/messages';
import { draftChanged, selectDraft } from '@/store/outboxSlice';
import {
  deliveredNoted,
  receiptSettingsFailed,
  receiptSettingsLoaded,
  receiptSettingsRequested,
  receiptSettingsSaved,
  receiptsLoaded,
  typingExpired,
  typingCleared,
  typingSignalled,
} from '@/store/receiptsSlice';
import { forEachSession } from '@/sagas/session';
import { DELIVERED_MARK_THROTTLE_MS, TYPING_SHOWN_MS, TYPING_SIGNAL_EVERY_MS } from '@/timings';

type Live = { receipts: Receipt[] } | { typing: TypingSignal };

export function createChannelSignals(backend: Backend, channelId: string): EventChannel<Live> {
  return eventChannel<Live>((emit) => {
    const stopReceipts = backend.receipts.subscribeReceipts(channelId, (receipts) => emit({ receipts }));
    const stopTyping = backend.typing.subscribeTyping(channelId, (typing) => emit({ typing }));
    return () => {
      stopReceipts();
      stopTyping();
    };
  });
}

/** Shows a typer until TYPING_SHOWN_MS after their last signal. */
export function* showTyping(channelId: string, uid: string) {
  yield delay(TYPING_SHOWN_MS);
  yield put(typingExpired({ channelId, uid }));
}

/** Follows one channel's receipts and typing while it is open. */
export function* followChannel(backend: Backend, channelId: string) {
  const channel: EventChannel<Live> = yield call(createChannelSignals, backend, channelId);
  const timers = new Map<string, Task>();
  try {
    while (true) {
      const live: Live = yield take(channel);
      if ('receipts' in live) {
        yield put(receiptsLoaded({ channelId, receipts: live.receipts }));
        continue;
      }
      const { uid, name } = live.typing;
      const running = timers.get(uid);
      if (running) yield cancel(running);
      yield put(typingSignalled({ channelId, uid, name }));
      timers.set(uid, (yield fork(showTyping, channelId, uid)) as Task);
    }
  } finally {
    channel.close();
    for (const [uid, timer] of timers) {
      yield cancel(timer);
      yield put(typingExpired({ channelId, uid }));
    }
  }
}

/** The open channel's signals: followed from when it opens until another opens (or the settings change). */
export function* followOpenChannel(backend: Backend) {
  let task: Task | undefined;
  let open: string | null = yield select(selectOpenChannelId);
  while (true) {
    if (open !== null) task = yield fork(followChannel, backend, open);
    const action: { type: string; payload?: { id?: string | null } } = yield take([
      channelOpened.type,
      receiptSettingsSaved.type,
    ]);
    if (task) yield cancel(task);
    task = undefined;
    if (channelOpened.match(action)) open = action.payload.id;
  }
}

/** A dropped connection forgets who was typing: after it, only fresh signals show. */
export function* forgetTypingWhenDown() {
  while (true) {
    const action: { payload: { status: LiveStatus } } = yield take(liveStatusChanged.type);
    if (action.payload.status === 'interrupted') yield put(typingCleared());
  }
}

/** The person typed in a channel: the others hear it (throttled by the caller). */
export function* handleDraftChanged(backend: Backend, action: ReturnType<typeof draftChanged>) {
  const { channelId } = action.payload;
  // Throttled, this may run a few seconds after the keystroke: a draft sent (or erased) meanwhile is no typing.
  const draft: string = yield select(selectDraft, channelId);
  if (draft.trim() === '') return;
  try {
    yield call([backend.typing, backend.typing.sendTyping], channelId);
  } catch {
    // A lost typing signal is nothing to tell anyone about: the next keystrokes send another.
  }
}

/** Delivered marks not yet sent, by channel, and the last sent. */
export interface DeliveredMarks {
  pending: Map<string, ChatMessage>;
  sent: Map<string, MessageCursor>;
}

/** Messages reached this device: the newest by someone else in each channel becomes its pending delivered mark. */
export function* noteDelivered(
  uid: string,
  marks: DeliveredMarks,
  action: ReturnType<typeof messagesArrived> | ReturnType<typeof messagesLoaded>,
) {
  const messages: readonly ChatMessage[] = action.payload.messages;
  for (const message of messages) {
    if (message.senderId === uid) continue;
    const known = marks.pending.get(message.channelId) ?? marks.sent.get(message.channelId);
    if (known && compareMessages(message, known) <= 0) continue;
    marks.pending.set(message.channelId, message);
  }
  if (marks.pending.size > 0) yield put(deliveredNoted());
}

export function* sendDelivered(backend: Backend, marks: DeliveredMarks) {
  const pending = [...marks.pending.values()];
  marks.pending.clear();
  for (const message of pending) {
    try {
      yield call([backend.receipts, backend.receipts.markDelivered], message.channelId, message.id);
      marks.sent.set(message.channelId, { createdAt: message.createdAt, id: message.id });
    } catch {
      // Not marked: the next message to arrive marks this one's too (marks cover everything before them).
    }
  }
}

export function* handleSettingsRequested(
  backend: Backend,
  action: ReturnType<typeof receiptSettingsRequested>,
) {
  try {
    const saved: { enabled: boolean } = yield call([backend.receipts, backend.receipts.setSettings], {
      enabled: action.payload.enabled,
    });
    yield put(receiptSettingsSaved(saved));
  } catch (error) {
    // The switch goes back to what is still stored.
    const message = toFailure(error).message;
    yield put(receiptSettingsFailed({ enabled: !action.payload.enabled, message }));
  }
}

export function* loadSettings(backend: Backend) {
  try {
    const settings: { enabled: boolean } = yield call([backend.receipts, backend.receipts.getSettings]);
    yield put(receiptSettingsLoaded(settings));
  } catch (error) {
    yield put(receiptSettingsFailed({ enabled: null, message: toFailure(error).message }));
  }
}

/** One signed-in session's receipts and typing. */
export function* runReceipts(uid: string, backend: Backend) {
  const marks: DeliveredMarks = { pending: new Map(), sent: new Map() };
  yield takeEvery([messagesArrived.type, messagesLoaded.type], noteDelivered, uid, marks);
  yield throttle(DELIVERED_MARK_THROTTLE_MS, deliveredNoted.type, sendDelivered, backend, marks);
  yield throttle(TYPING_SIGNAL_EVERY_MS, draftChanged.type, handleDraftChanged, backend);
  yield takeLatest(receiptSettingsRequested.type, handleSettingsRequested, backend);
  yield fork(followOpenChannel, backend);
  yield fork(forgetTypingWhenDown);
  yield call(loadSettings, backend);
}

export function* receiptsSaga(backend: Backend) {
  yield call(forEachSession, runReceipts, backend);
}
