// The person's channels for as long as they are signed in (issues #6, #11): the overview, kept live from the
// backend's channel and message subscriptions; opening a channel clears the pending notifications behind the
// badge (clear_pending_notifications) and asks check_channel_permissions for the service banner (spec §2, §7).
// Live messages of every channel arrive through one channel and are put as one action per batch, so a burst is
// one render, not hundreds. Each watcher is supervised (restarted after a crash, reported); the live status is
// followed, and when live data flows again after an interruption what is not a subscription is read again.
import type { EventChannel } from 'redux-saga';
import { buffers } from 'redux-saga';
import { call, delay, fork, put, race, select, take, takeEvery, takeLatest } from 'redux-saga/effects';
import type { Backend, ChannelsPort, LiveStatus, MessagesPort, Unsubscribe } from '@/backend/ports';
import { sinceOf } from '@core/messages';
import type { MessagesSince } from '@core/messages';
import type { Channel, ChannelOverview, ChannelPermissions, ChatMessage } from '@core/model';
import {
  channelChanged,
  channelOpened,
  overviewFailed,
  overviewLoaded,
  overviewRequested,
  permissionsFailed,
  permissionsLoaded,
  permissionsRequested,
  selectOpenChannelId,
  selectOverview,
} from '@/store/channelsSlice';
import { messagesArrived } from '@/store/messages';
import { liveResumed, liveStatusChanged, reconnectingNoticeShown } from '@/store/liveSlice';
import { selectConversation } from '@/store/conversationSlice';
import type { Conversation } from '@/store/conversationSlice';
import { toFailure } from '@/backend/errors';
import { forEachSession, keepingChannel, takeBatch } from './session';
import { supervise } from './supervise';
import { LIVE_SLICE_MAX, RECONNECTING_NOTICE_DELAY_MS } from '@/timings';

export function createChannelsChannel(channels: ChannelsPort): EventChannel<{ channel: Channel }> {
  return keepingChannel((emit) => channels.subscribeChannels((channel) => emit({ channel })));
}

export function createLiveStatusChannel(backend: Backend): EventChannel<{ status: LiveStatus }> {
  return keepingChannel((emit) => backend.live.subscribeStatus((status) => emit({ status })));
}

/** Live messages of many channels through one channel: each subscription's batches, as they come. */
export interface LiveMessagesMux {
  channel: EventChannel<ChatMessage[]>;
  /** Follows a channel from what the page holds (`since`); a channel followed already is left as it is. */
  follow(channelId: string, since: MessagesSince): void;
  isFollowing(channelId: string): boolean;
}

export function createLiveMessagesMux(messages: MessagesPort): LiveMessagesMux {
  const stops = new Map<string, Unsubscribe>();
  let emit: ((batch: ChatMessage[]) => void) | null = null;
  const channel = keepingChannel<ChatMessage[]>((emitter) => {
    emit = emitter;
    return () => {
      emit = null;
      for (const stop of stops.values()) stop();
      stops.clear();
    };
  }, buffers.expanding<ChatMessage[]>(256));
  return {
    channel,
    follow(channelId, since) {
      if (stops.has(channelId) || emit === null) return;
      stops.set(
        channelId,
        messages.subscribeMessages(channelId, since, (batch) => emit?.(batch)),
      );
    },
    isFollowing: (channelId) => stops.has(channelId),
  };
}

export function* handleOverviewRequested(backend: Backend) {
  try {
    const items: ChannelOverview[] = yield call([backend.channels, backend.channels.listOverview]);
    yield put(overviewLoaded({ items }));
  } catch (error) {
    yield put(overviewFailed({ message: toFailure(error).message }));
  }
}

/**
 * What the page holds of a channel: its loaded conversation (when its window reaches the newest), else the
 * overview's last message.
 */
export function* sinceFor(overview: ChannelOverview) {
  const conversation: Conversation | undefined = yield select(selectConversation, overview.channel.id);
  if (conversation && conversation.messages.length > 0 && !conversation.hasNewer) {
    return sinceOf(conversation.messages, overview.channel.createdAt);
  }
  const last = overview.lastMessage;
  return last
    ? { createdAt: last.createdAt, ids: [last.id] }
    : { createdAt: overview.channel.createdAt, ids: [] };
}

/** Follows every channel of the overview, and those that appear later (created, joined). */
export function* followChannels(mux: LiveMessagesMux) {
  while (true) {
    const overview: ChannelOverview[] = yield select(selectOverview);
    for (const item of overview) {
      if (mux.isFollowing(item.channel.id)) continue;
      const since: MessagesSince = yield call(sinceFor, item);
      mux.follow(item.channel.id, since);
    }
    yield take([overviewLoaded.type, channelChanged.type]);
  }
}

/** Live messages of all the person's channels, one action per batch. */
export function* watchLiveMessages(backend: Backend, ownUid: string) {
  const mux: LiveMessagesMux = yield call(createLiveMessagesMux, backend.messages);
  try {
    yield fork(followChannels, mux);
    while (true) {
      const batches: ChatMessage[][] = yield* takeBatch(mux.channel);
      const messages = batches.flat();
      // A large batch (a catch-up after hours offline) goes in slices, a task each: the page stays responsive.
      for (let start = 0; start < messages.length; start += LIVE_SLICE_MAX) {
        if (start > 0) yield delay(0);
        yield put(messagesArrived({ messages: messages.slice(start, start + LIVE_SLICE_MAX), ownUid }));
      }
    }
  } finally {
    mux.channel.close();
  }
}

export function* watchLiveChannels(backend: Backend) {
  const channel: EventChannel<{ channel: Channel }> = yield call(createChannelsChannel, backend.channels);
  try {
    while (true) {
      const events: Array<{ channel: Channel }> = yield* takeBatch(channel);
      for (const event of events) yield put(channelChanged(event));
    }
  } finally {
    channel.close();
  }
}

/** Tells the person only once an interruption lasts (a planned reconnect never flickers on the screen). */
export function* noticeIfStillDown() {
  const { back } = yield race({
    back: take((action: { type: string; payload?: { status?: LiveStatus } }) => {
      return action.type === liveStatusChanged.type && action.payload?.status === 'live';
    }),
    timeout: delay(RECONNECTING_NOTICE_DELAY_MS),
  });
  if (!back) yield put(reconnectingNoticeShown());
}

/** The backend's live status into the store; live again after an interruption: read the rest again. */
export function* watchLiveStatus(backend: Backend) {
  const channel: EventChannel<{ status: LiveStatus }> = yield call(createLiveStatusChannel, backend);
  let previous: LiveStatus = 'connecting';
  try {
    while (true) {
      const { status }: { status: LiveStatus } = yield take(channel);
      if (status === previous) continue;
      yield put(liveStatusChanged({ status }));
      if (status !== 'live') yield fork(noticeIfStillDown);
      if (status === 'live' && previous === 'interrupted') {
        yield put(liveResumed());
        yield put(overviewRequested());
      }
      previous = status;
    }
  } finally {
    channel.close();
  }
}

export function* handlePermissionsRequested(
  backend: Backend,
  action: ReturnType<typeof permissionsRequested>,
) {
  const { channelId } = action.payload;
  try {
    const result: ChannelPermissions = yield call(
      [backend.callables, backend.callables.checkChannelPermissions],
      { channel_id: channelId },
    );
    yield put(permissionsLoaded({ channelId, result }));
  } catch (error) {
    yield put(permissionsFailed({ channelId, message: toFailure(error).message }));
  }
}

/** A channel opened: its permissions (the service banner), and the pending notifications behind the badge. */
export function* handleChannelOpened(
  backend: Backend,
  uid: string,
  action: ReturnType<typeof channelOpened>,
) {
  if (action.payload.id === null) return;
  yield put(permissionsRequested({ channelId: action.payload.id }));
  try {
    yield call([backend.callables, backend.callables.clearPendingNotifications], { userId: uid });
  } catch (error) {
    // Bookkeeping: the next open tries again.
    console.warn('Clearing pending notifications failed', error);
  }
}

/** Everything of one signed-in session; cancelled by the next session change. */
export function* runSession(uid: string, backend: Backend) {
  yield takeLatest(overviewRequested.type, handleOverviewRequested, backend);
  yield takeEvery(permissionsRequested.type, handlePermissionsRequested, backend);
  yield takeLatest(channelOpened.type, handleChannelOpened, backend, uid);
  yield fork(supervise, 'live status', watchLiveStatus, backend);
  yield fork(supervise, 'channels', watchLiveChannels, backend);
  yield fork(supervise, 'messages', watchLiveMessages, backend, uid);
  yield put(overviewRequested());
  // A session resumed after a restart of this saga: the open channel's banner is asked for again.
  const openId: string | null = yield select(selectOpenChannelId);
  if (openId !== null) yield put(permissionsRequested({ channelId: openId }));
}

export function* channelsSaga(backend: Backend) {
  yield call(forEachSession, runSession, backend);
}
