// Message search and opening a conversation at a hit. A search asks the backend's search port (one page of hits,
// newest first; the latest text wins, an older answer is left out); "More results" asks for the page after. Opening
// at a message (`/?channel=…&message=<cursor>`, core/paths.ts messagePath) waits for the conversation's first page,
// then loads the page around the message (half a page before it, it, and half a page after), which the window's
// rules put in place of the window unless it holds the message already (conversationWindow.ts focusLoaded).
// Started by conversationSaga.ts, in the conversation view's chunk, with the requests that came while it loaded.
import { call, fork, put, select, take, takeLatest, takeLeading } from 'redux-saga/effects';
import type { Action, UnknownAction } from '@reduxjs/toolkit';
import type { Backend } from '@/backend/ports';
import { toFailure } from '@/backend/errors';
import { latestOf, leadingOf } from '@/sagas/lazySaga';
import { cursorOf, parseCursor } from '@core/messages';
import type { MessageCursor } from '@core/messages';
import type { ChatMessage } from '@core/model';
import type { SearchPage } from '@core/search';
import { MESSAGES_PAGE, messagesFailed, messagesLoaded, selectConversation } from '@/store/conversationSlice';
import type { Conversation } from '@/store/conversationSlice';
import { focusLoaded, messageFocusRequested } from './conversationWindow';
import {
  ALL_CHANNELS,
  searchAnswered,
  searchFailed,
  searchMoreRequested,
  searchRequested,
  selectSearch,
} from './searchSlice';
import type { SearchResults, SearchScope } from './searchSlice';

/** Messages loaded before the one a conversation opens at (and as many after it, it included). */
export const FOCUS_BEFORE = MESSAGES_PAGE / 2;

const channelOf = (scope: SearchScope) => (scope === ALL_CHANNELS ? {} : { channelId: scope });

export function* handleSearchRequested(backend: Backend, action: ReturnType<typeof searchRequested>) {
  const { scope, text } = action.payload;
  try {
    const page: SearchPage = yield call([backend.search, backend.search.searchMessages], {
      text,
      ...channelOf(scope),
    });
    yield put(searchAnswered({ scope, text, hits: page.hits, next: page.next, more: false }));
  } catch (error) {
    yield put(searchFailed({ scope, text, message: toFailure(error).message }));
  }
}

export function* handleSearchMoreRequested(backend: Backend, action: ReturnType<typeof searchMoreRequested>) {
  const { scope } = action.payload;
  const results: SearchResults | undefined = yield select(selectSearch, scope);
  if (!results?.next) return;
  const { text, next } = results;
  try {
    const page: SearchPage = yield call([backend.search, backend.search.searchMessages], {
      text,
      cursor: next,
      ...channelOf(scope),
    });
    yield put(searchAnswered({ scope, text, hits: page.hits, next: page.next, more: true }));
  } catch (error) {
    yield put(searchFailed({ scope, text, message: toFailure(error).message }));
  }
}

const holds = (conversation: Conversation | undefined, id: string) =>
  conversation?.messages.some((message) => message.id === id) === true;

/** The conversation once its first page is in (or failed): the page around a message must come after it. */
function* loadedConversation(channelId: string) {
  let conversation: Conversation | undefined = yield select(selectConversation, channelId);
  while (!conversation || conversation.status === 'loading') {
    yield take(
      (action: Action) =>
        (messagesLoaded.match(action) || messagesFailed.match(action)) &&
        action.payload.channelId === channelId,
    );
    conversation = yield select(selectConversation, channelId);
  }
  return conversation;
}

export function* handleMessageFocusRequested(
  backend: Backend,
  action: ReturnType<typeof messageFocusRequested>,
) {
  const { channelId } = action.payload;
  const cursor: MessageCursor | null = parseCursor(action.payload.cursor);
  // A link whose message part is not a cursor opens the channel as usual.
  if (!cursor || cursor.id === '') return;
  const conversation: Conversation = yield* loadedConversation(channelId);
  const none = { channelId, messageId: cursor.id, hasMore: conversation.hasMore };
  if (holds(conversation, cursor.id)) {
    yield put(focusLoaded({ ...none, messages: [], hasNewer: conversation.hasNewer === true }));
    return;
  }
  try {
    const before: ChatMessage[] = yield call([backend.messages, backend.messages.listMessages], channelId, {
      before: cursor,
      limit: FOCUS_BEFORE,
    });
    // From the message's own millisecond on: it and the half page after it.
    const from = before.at(-1);
    const after: ChatMessage[] = yield call([backend.messages, backend.messages.listMessages], channelId, {
      after: from ? cursorOf(from) : { createdAt: cursor.createdAt, id: '' },
      limit: FOCUS_BEFORE + 1,
    });
    // A message that is gone (deleted for good, or never there) opens the channel as usual.
    if (!after.some((message) => message.id === cursor.id)) return;
    yield put(
      focusLoaded({
        channelId,
        messageId: cursor.id,
        messages: [...before, ...after],
        hasMore: before.length >= FOCUS_BEFORE,
        hasNewer: after.length >= FOCUS_BEFORE + 1,
      }),
    );
  } catch (error) {
    yield put(messagesFailed({ channelId, message: toFailure(error).message }));
  }
}

/** `early`: the requests that came while the chunk loaded, handled as the watchers would have. */
export function* searchSaga(backend: Backend, early: readonly UnknownAction[] = []) {
  const search = latestOf(early, searchRequested);
  if (search) yield fork(handleSearchRequested, backend, search);
  const more = leadingOf(early, searchMoreRequested);
  if (more) yield fork(handleSearchMoreRequested, backend, more);
  const focus = latestOf(early, messageFocusRequested);
  if (focus) yield fork(handleMessageFocusRequested, backend, focus);
  yield takeLatest(searchRequested.type, handleSearchRequested, backend);
  yield takeLeading(searchMoreRequested.type, handleSearchMoreRequested, backend);
  yield takeLatest(messageFocusRequested.type, handleMessageFocusRequested, backend);
}
