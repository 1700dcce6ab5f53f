// The main screen's requests (issue #6): a conversation's newest messages and older pages (a (createdAt, id)
// cursor, so messages sharing a millisecond are never skipped), and a consultant's channel tools. Newer pages back
// towards the newest (issue #13 part 2) are asked for by newerPagesSaga.ts, in the conversation chunk. Sending goes
// through the outbox (src/sagas/outboxSaga.ts). Each worker catches its own failure and puts it as plain words.
import { call, put, select, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects';
import type { Backend } from '@/backend/ports';
import type { Channel, ChannelMember, ChatMessage } from '@core/model';
import { cursorOf } from '@core/messages';
import { channelChanged } from '@/store/channelsSlice';
import { toFailure } from '@/backend/errors';
import {
  MESSAGES_PAGE,
  messagesFailed,
  messagesLoaded,
  messagesRequested,
  olderFailed,
  olderLoaded,
  olderRequested,
  selectConversation,
} from '@/store/conversationSlice';
import type { Conversation } from '@/store/conversationSlice';
import {
  channelCreateRequested,
  channelSaveFailed,
  channelSaved,
  channelUpdateRequested,
  membersFailed,
  membersLoaded,
  membersRequested,
  privateChannelFailed,
  privateChannelOpened,
  privateChannelRequested,
} from '@/features/consultantTools/manageSlice';

const message = (error: unknown): string => toFailure(error).message;

export function* handleMessagesRequested(backend: Backend, action: ReturnType<typeof messagesRequested>) {
  const { channelId } = action.payload;
  try {
    const messages: ChatMessage[] = yield call([backend.messages, backend.messages.listMessages], channelId, {
      limit: MESSAGES_PAGE,
    });
    yield put(messagesLoaded({ channelId, messages }));
  } catch (error) {
    yield put(messagesFailed({ channelId, message: message(error) }));
  }
}

export function* handleOlderRequested(backend: Backend, action: ReturnType<typeof olderRequested>) {
  const { channelId } = action.payload;
  const conversation: Conversation | undefined = yield select(selectConversation, channelId);
  const oldest = conversation?.messages[0];
  if (!oldest) return;
  try {
    const messages: ChatMessage[] = yield call([backend.messages, backend.messages.listMessages], channelId, {
      before: cursorOf(oldest),
      limit: MESSAGES_PAGE,
    });
    yield put(olderLoaded({ channelId, messages, before: oldest.id }));
  } catch (error) {
    yield put(olderFailed({ channelId, message: message(error) }));
  }
}

export function* handleChannelCreate(backend: Backend, action: ReturnType<typeof channelCreateRequested>) {
  try {
    const channel: Channel = yield call([backend.channels, backend.channels.createChannel], action.payload);
    yield put(channelChanged({ channel }));
    yield put(channelSaved({ channelId: channel.id }));
  } catch (error) {
    yield put(channelSaveFailed({ message: message(error) }));
  }
}

export function* handleChannelUpdate(backend: Backend, action: ReturnType<typeof channelUpdateRequested>) {
  try {
    const channel: Channel = yield call(
      [backend.channels, backend.channels.updateChannel],
      action.payload.id,
      action.payload.patch,
    );
    yield put(channelChanged({ channel }));
    yield put(channelSaved({ channelId: channel.id }));
  } catch (error) {
    yield put(channelSaveFailed({ message: message(error) }));
  }
}

export function* handleMembersRequested(backend: Backend, action: ReturnType<typeof membersRequested>) {
  const { channelId } = action.payload;
  try {
    const items: ChannelMember[] = yield call([backend.channels, backend.channels.listMembers], channelId);
    yield put(membersLoaded({ channelId, items }));
  } catch (error) {
    yield put(membersFailed({ channelId, message: message(error) }));
  }
}

/**
 * Opens (or finds) a private consultation; the channel joins the list at once (its live event may come later),
 * and the screen opens it. takeLeading: a double press asks once (the backend makes one per pair anyway).
 */
export function* handlePrivateChannelRequested(
  backend: Backend,
  action: ReturnType<typeof privateChannelRequested>,
) {
  try {
    const channel: Channel = yield call(
      [backend.channels, backend.channels.openPrivateChannel],
      action.payload,
    );
    yield put(channelChanged({ channel }));
    yield put(privateChannelOpened({ channelId: channel.id }));
  } catch (error) {
    yield put(privateChannelFailed({ message: message(error) }));
  }
}

export function* mainSaga(backend: Backend) {
  yield takeEvery(messagesRequested.type, handleMessagesRequested, backend);
  yield takeLeading(olderRequested.type, handleOlderRequested, backend);
  yield takeLeading(channelCreateRequested.type, handleChannelCreate, backend);
  yield takeLeading(channelUpdateRequested.type, handleChannelUpdate, backend);
  yield takeLatest(membersRequested.type, handleMembersRequested, backend);
  yield takeLeading(privateChannelRequested.type, handlePrivateChannelRequested, backend);
}
