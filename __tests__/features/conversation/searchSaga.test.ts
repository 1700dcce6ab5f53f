import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { dynamic, throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import { focusLoaded, messageFocusRequested } from '@/features/conversation/conversationWindow';
import {
  FOCUS_BEFORE,
  handleMessageFocusRequested,
  handleSearchMoreRequested,
  handleSearchRequested,
  searchSaga,
} from '@/features/conversation/searchSaga';
import search, {
  ALL_CHANNELS,
  searchAnswered,
  searchMoreRequested,
  searchRequested,
} from '@/features/conversation/searchSlice';
import conversation, { MESSAGES_PAGE, messagesLoaded, messagesRequested } from '@/store/conversationSlice';
import { cursorOf, encodeCursor } from '@core/messages';
import type { MessageCursor } from '@core/messages';
import type { ChatMessage } from '@core/model';
import { createFakeBackend } from '../../support/fakeBackend';

const reducer = combineReducers({ conversation, messageSearch: search });
type State = ReturnType<typeof reducer>;
const A = 'chanA000000000000001';
const msg = (n: number): ChatMessage => ({
  id: `m${String(n).padStart(19, '0')}`,
  channelId: A,
  senderId: 'uidDana0000000000001',
  senderName: 'Dana',
  text: `message ${n}`,
  createdAt: 1_000 * n,
});
/** Messages from..to, oldest first. */
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i));
const backend = createFakeBackend() as unknown as Backend;

/** The channel's history 1..300, as listMessages answers a page of it. */
function pageOf(
  _channelId: string,
  options: { before?: MessageCursor; after?: MessageCursor; limit?: number },
) {
  const all = range(1, 300);
  const limit = options.limit ?? MESSAGES_PAGE;
  const { before, after } = options;
  if (before) return all.filter((m) => m.createdAt < before.createdAt).slice(-limit);
  if (after)
    return all
      .filter((m) => m.createdAt > after.createdAt || (m.createdAt === after.createdAt && m.id > after.id))
      .slice(0, limit);
  return all.slice(-limit);
}

describe('handleSearchRequested', () => {
  it('asks the search port for the text in every channel, and shows the hits', async () => {
    const hits = [msg(9), msg(3)];
    const action = searchRequested({ scope: ALL_CHANNELS, text: 'message' });
    const { storeState } = await expectSaga(handleSearchRequested, backend, action)
      .withReducer(reducer, reducer(undefined, action))
      .provide([[matchers.call.fn(backend.search.searchMessages), { hits, next: 'cursor-1' }]])
      .call([backend.search, backend.search.searchMessages], { text: 'message' })
      .run();
    expect((storeState as State).messageSearch.byScope[ALL_CHANNELS]).toEqual({
      text: 'message',
      status: 'done',
      hits,
      next: 'cursor-1',
      loadingMore: false,
      error: null,
    });
  });

  it("names the channel of a conversation's search, and shows a refusal in words", async () => {
    const action = searchRequested({ scope: A, text: 'x'.repeat(300) });
    const { storeState } = await expectSaga(handleSearchRequested, backend, action)
      .withReducer(reducer, reducer(undefined, action))
      .provide([
        [
          matchers.call.fn(backend.search.searchMessages),
          throwError(new BackendError('INVALID_ARGUMENT', 'Search for at most 200 characters.')),
        ],
      ])
      .call([backend.search, backend.search.searchMessages], { text: 'x'.repeat(300), channelId: A })
      .run();
    expect((storeState as State).messageSearch.byScope[A]).toMatchObject({
      status: 'failed',
      error: 'Search for at most 200 characters.',
    });
  });

  it('leaves out the answer of a text the person has since replaced', async () => {
    const first = searchRequested({ scope: ALL_CHANNELS, text: 'old' });
    const start = reducer(reducer(undefined, first), searchRequested({ scope: ALL_CHANNELS, text: 'new' }));
    const { storeState } = await expectSaga(handleSearchRequested, backend, first)
      .withReducer(reducer, start)
      .provide([[matchers.call.fn(backend.search.searchMessages), { hits: [msg(1)], next: null }]])
      .run();
    expect((storeState as State).messageSearch.byScope[ALL_CHANNELS]).toMatchObject({
      text: 'new',
      status: 'searching',
      hits: [],
    });
  });
});

describe('handleSearchMoreRequested', () => {
  it('asks for the page after the last one, and adds its hits after those shown', async () => {
    const asked = searchRequested({ scope: ALL_CHANNELS, text: 'message' });
    let state = reducer(undefined, asked);
    state = reducer(
      state,
      searchAnswered({ scope: ALL_CHANNELS, text: 'message', hits: [msg(9)], next: 'c1', more: false }),
    );
    const more = searchMoreRequested({ scope: ALL_CHANNELS });
    const { storeState } = await expectSaga(handleSearchMoreRequested, backend, more)
      .withReducer(reducer, reducer(state, more))
      .provide([[matchers.call.fn(backend.search.searchMessages), { hits: [msg(9), msg(4)], next: null }]])
      .call([backend.search, backend.search.searchMessages], { text: 'message', cursor: 'c1' })
      .run();
    expect((storeState as State).messageSearch.byScope[ALL_CHANNELS]).toMatchObject({
      hits: [msg(9), msg(4)],
      next: null,
      loadingMore: false,
    });
  });
});

describe('handleMessageFocusRequested', () => {
  const focusOn = (n: number) =>
    messageFocusRequested({ channelId: A, cursor: encodeCursor(cursorOf(msg(n))) });
  const loaded = reducer(
    reducer(undefined, messagesRequested({ channelId: A })),
    messagesLoaded({ channelId: A, messages: range(271, 300) }),
  );

  it('loads the page around an old message in place of the window, away from the newest', async () => {
    const { storeState } = await expectSaga(handleMessageFocusRequested, backend, focusOn(40))
      .withReducer(reducer, loaded)
      .provide([
        [matchers.call.fn(backend.messages.listMessages), dynamic(({ args }) => pageOf(args[0], args[1]))],
      ])
      .call([backend.messages, backend.messages.listMessages], A, {
        before: cursorOf(msg(40)),
        limit: FOCUS_BEFORE,
      })
      .run();
    const opened = (storeState as State).conversation.byChannel[A];
    expect(opened?.messages).toEqual(range(40 - FOCUS_BEFORE, 40 + FOCUS_BEFORE));
    expect(opened).toMatchObject({ hasMore: true, hasNewer: true, focus: { id: msg(40).id, seq: 1 } });
  });

  it('waits for the first page before it loads the one around the message', async () => {
    const result = await expectSaga(handleMessageFocusRequested, backend, focusOn(40))
      .withReducer(reducer, reducer(undefined, messagesRequested({ channelId: A })))
      .provide([
        [matchers.call.fn(backend.messages.listMessages), dynamic(({ args }) => pageOf(args[0], args[1]))],
      ])
      .dispatch(messagesLoaded({ channelId: A, messages: range(271, 300) }))
      .run();
    // The newest page came first and the page around the message after it: the window is the one around it.
    expect((result.storeState as State).conversation.byChannel[A]?.messages[0]).toEqual(
      msg(40 - FOCUS_BEFORE),
    );
  });

  it('keeps a window that holds the message, and only marks it', async () => {
    const { storeState } = await expectSaga(handleMessageFocusRequested, backend, focusOn(290))
      .withReducer(reducer, loaded)
      .put(
        focusLoaded({ channelId: A, messageId: msg(290).id, messages: [], hasMore: true, hasNewer: false }),
      )
      .not.call.fn(backend.messages.listMessages)
      .run();
    const kept = (storeState as State).conversation.byChannel[A];
    expect(kept?.messages).toEqual(range(271, 300));
    expect(kept?.focus).toEqual({ id: msg(290).id, seq: 1 });
  });

  it('opens a message near the start with nothing older to load, and one near the newest reaching it', async () => {
    const near = await expectSaga(handleMessageFocusRequested, backend, focusOn(3))
      .withReducer(reducer, loaded)
      .provide([
        [matchers.call.fn(backend.messages.listMessages), dynamic(({ args }) => pageOf(args[0], args[1]))],
      ])
      .run();
    expect((near.storeState as State).conversation.byChannel[A]).toMatchObject({
      hasMore: false,
      hasNewer: true,
    });
    expect((near.storeState as State).conversation.byChannel[A]?.messages[0]).toEqual(msg(1));
  });

  it('opens the channel as usual for a link that is no cursor, or a message that is not there', async () => {
    await expectSaga(
      handleMessageFocusRequested,
      backend,
      messageFocusRequested({ channelId: A, cursor: 'nope' }),
    )
      .withReducer(reducer, loaded)
      .not.call.fn(backend.messages.listMessages)
      .not.put.actionType(focusLoaded.type)
      .run();
    const gone = messageFocusRequested({
      channelId: A,
      cursor: encodeCursor({ createdAt: 40_500, id: 'm0000000000000000gone' }),
    });
    await expectSaga(handleMessageFocusRequested, backend, gone)
      .withReducer(reducer, loaded)
      .provide([
        [matchers.call.fn(backend.messages.listMessages), dynamic(({ args }) => pageOf(args[0], args[1]))],
      ])
      .not.put.actionType(focusLoaded.type)
      .run();
  });
});

describe('searchSaga', () => {
  it('handles the search that came while its chunk loaded', async () => {
    const action = searchRequested({ scope: ALL_CHANNELS, text: 'message' });
    await expectSaga(searchSaga, backend, [action])
      .withReducer(reducer, reducer(undefined, action))
      .provide([[matchers.call.fn(backend.search.searchMessages), { hits: [], next: null }]])
      .put(searchAnswered({ scope: ALL_CHANNELS, text: 'message', hits: [], next: null, more: false }))
      .silentRun(20);
  });
});
