// The person's channels for as long as they are signed in (issue #6): the overview, kept live from the backend's
// channel and message streams; opening a channel marks it read, clears the pending notifications behind the
// badge (clear_pending_notifications) and asks check_channel_permissions for the service banner (spec §2, §7).
// A new session cancels the previous one's work, so nothing of it outlives a sign-out.
import { eventChannel } from 'redux-saga';
import type { EventChannel, Task } from 'redux-saga';
import { call, debounce, fork, put, select, take, takeEvery, takeLatest } from 'redux-saga/effects';
import { loadBackend } from '@/backend';
import type { Backend, ChannelsPort, MessagesPort } from '@/backend/ports';
import type { Channel, ChannelOverview, ChannelPermissions, ChatMessage } from '@core/model';
import {
  channelChanged,
  channelOpened,
  messageArrived,
  overviewFailed,
  overviewLoaded,
  overviewRequested,
  permissionsFailed,
  permissionsLoaded,
  permissionsRequested,
  selectOpenChannelId,
  selectOverview,
} from '@/store/channelsSlice';
import { selectUid } from '@/store/userSlice';
import { toFailure } from './errors';
import { READ_MARK_DEBOUNCE_MS } from './timings';

export function createChannelsChannel(channels: ChannelsPort): EventChannel<{ channel: Channel }> {
  return eventChannel((emit) => channels.subscribeChannels((channel) => emit({ channel })));
}

export function createMessagesChannel(
  messages: MessagesPort,
  channelId: string,
): EventChannel<{ message: ChatMessage }> {
  return eventChannel((emit) => messages.subscribeMessages(channelId, (message) => emit({ message })));
}

export function* handleOverviewRequested(backend: Backend) {
  try {
    const items: ChannelOverview[] = yield call([backend.channels, backend.channels.listOverview]);
    yield put(overviewLoaded({ items }));
  } catch (error) {
    yield put(overviewFailed({ message: toFailure(error).message }));
  }
}

/** New messages of one channel, into the overview (and any loaded conversation, which takes the same event). */
export function* watchChannelMessages(backend: Backend, channelId: string, ownUid: string) {
  const channel: EventChannel<{ message: ChatMessage }> = yield call(
    createMessagesChannel,
    backend.messages,
    channelId,
  );
  try {
    while (true) {
      const { message }: { message: ChatMessage } = yield take(channel);
      yield put(messageArrived({ message, ownUid }));
    }
  } finally {
    channel.close();
  }
}

/** One message watcher per known channel; channels that appear later (created, joined) get theirs too. */
export function* watchLiveMessages(backend: Backend, ownUid: string) {
  const watching = new Map<string, Task>();
  while (true) {
    const overview: ChannelOverview[] = yield select(selectOverview);
    for (const { channel } of overview) {
      if (!watching.has(channel.id)) {
        watching.set(channel.id, (yield fork(watchChannelMessages, backend, channel.id, ownUid)) as Task);
      }
    }
    yield take([overviewLoaded.type, channelChanged.type]);
  }
}

export function* watchLiveChannels(backend: Backend) {
  const channel: EventChannel<{ channel: Channel }> = yield call(createChannelsChannel, backend.channels);
  try {
    while (true) {
      const event: { channel: Channel } = yield take(channel);
      yield put(channelChanged(event));
    }
  } finally {
    channel.close();
  }
}

/** The person has read the open channel up to now; the pending notifications behind the badge are cleared. */
export function* markOpenChannelRead(backend: Backend, uid: string) {
  const openId: string | null = yield select(selectOpenChannelId);
  if (openId === null) return;
  try {
    yield call([backend.channels, backend.channels.markRead], openId);
    yield call([backend.callables, backend.callables.clearPendingNotifications], { userId: uid });
  } catch (error) {
    // The marks are bookkeeping: a failure is logged and the next open or message tries again.
    console.warn('Marking the channel read failed', error);
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

export function* handleChannelOpened(
  backend: Backend,
  uid: string,
  action: ReturnType<typeof channelOpened>,
) {
  if (action.payload.id === null) return;
  yield put(permissionsRequested({ channelId: action.payload.id }));
  yield call(markOpenChannelRead, backend, uid);
}

const othersMessage = (uid: string) => (action: { type: string; payload?: unknown }) =>
  action.type === messageArrived.type &&
  (action.payload as { message: ChatMessage }).message.senderId !== uid;

/** A message by someone else arrived: if it is in the open channel, the person has read it. */
export function* handleMessageInOpenChannel(
  backend: Backend,
  uid: string,
  action: ReturnType<typeof messageArrived>,
) {
  const openId: string | null = yield select(selectOpenChannelId);
  if (openId === action.payload.message.channelId) yield call(markOpenChannelRead, backend, uid);
}

/** Everything of one signed-in session; cancelled by the next session change. */
export function* runSession(backend: Backend, uid: string) {
  yield takeLatest(overviewRequested.type, handleOverviewRequested, backend);
  yield takeEvery(permissionsRequested.type, handlePermissionsRequested, backend);
  yield takeLatest(channelOpened.type, handleChannelOpened, backend, uid);
  // Messages that arrive in the open channel are read as they arrive; marked at most once a second.
  yield debounce(READ_MARK_DEBOUNCE_MS, othersMessage(uid), handleMessageInOpenChannel, backend, uid);
  yield fork(watchLiveChannels, backend);
  yield fork(watchLiveMessages, backend, uid);
  yield put(overviewRequested());
}

export function* handleSessionChanged(backend: Backend, action: { type: string }) {
  if (action.type !== 'user/loaded') return;
  const uid: string | null = yield select(selectUid);
  if (uid !== null) yield call(runSession, backend, uid);
}

export function* channelsSaga() {
  let backend: Backend;
  try {
    backend = yield call(loadBackend);
  } catch {
    return; // the auth saga reports a backend that cannot load
  }
  yield takeLatest(['user/loaded', 'user/signedOut'], handleSessionChanged, backend);
}
