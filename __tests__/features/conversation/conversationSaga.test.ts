import { all, fork } from 'redux-saga/effects';
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { dynamic, throwError } from 'redux-saga-test-plan/providers';
import type { StaticProvider } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import {
  conversationSaga,
  handleMessagesRequested,
  handleOlderRequested,
} from '@/features/conversation/conversationSaga';
import { handleNewerRequested, newerPagesSaga } from '@/features/conversation/newerPagesSaga';
import conversation, {
  MESSAGES_PAGE,
  MESSAGES_WINDOW,
  messagesLoaded,
  messagesRequested,
  olderRequested,
} from '@/store/conversationSlice';
import { messagesArrived } from '@/store/messages';
import { newerRequested, scrollBackStarted } from '@/features/conversation/conversationWindow';
import { compareMessages } from '@core/messages';
import type { MessageCursor } from '@core/messages';
import channels from '@/store/channelsSlice';
import user from '@/store/userSlice';
import type { ChatMessage } from '@core/model';
import { createFakeBackend } from '../../support/fakeBackend';

const reducer = combineReducers({ user, channels, conversation });
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
const backend = createFakeBackend() as unknown as Backend;

describe('conversationSaga', () => {
  it('loads the page the view asked for with the request that loaded its chunk', async () => {
    const page = [msg(1), msg(2)];
    const { storeState } = await expectSaga(conversationSaga, backend, [messagesRequested({ channelId: A })])
      .withReducer(reducer, reducer(undefined, messagesRequested({ channelId: A })))
      .provide([[matchers.call.fn(backend.messages.listMessages), page]])
      .call([backend.messages, backend.messages.listMessages], A, { limit: MESSAGES_PAGE })
      .silentRun(20);
    expect((storeState as State).conversation.byChannel[A]).toMatchObject({
      status: 'loaded',
      messages: page,
    });
  });
});

describe('conversation', () => {
  it('loads the newest page and knows more may be older when the page was full', async () => {
    const page = Array.from({ length: MESSAGES_PAGE }, (_, i) => msg(100 + i));
    const { storeState } = await expectSaga(
      handleMessagesRequested,
      backend,
      messagesRequested({ channelId: A }),
    )
      .withReducer(reducer, reducer(undefined, messagesRequested({ channelId: A })))
      .provide([[matchers.call.fn(backend.messages.listMessages), page]])
      .call([backend.messages, backend.messages.listMessages], A, { limit: MESSAGES_PAGE })
      .run();
    expect((storeState as State).conversation.byChannel[A]).toMatchObject({
      status: 'loaded',
      hasMore: true,
    });
  });

  it('pages back from the oldest loaded message by its (createdAt, id), keeping order and each message once', async () => {
    let state = reducer(undefined, messagesRequested({ channelId: A }));
    state = reducer(state, messagesLoaded({ channelId: A, messages: [msg(50), msg(51)] }));
    const { storeState } = await expectSaga(handleOlderRequested, backend, olderRequested({ channelId: A }))
      .withReducer(reducer, reducer(state, olderRequested({ channelId: A })))
      .provide([[matchers.call.fn(backend.messages.listMessages), [msg(48), msg(49), msg(50)]]])
      .call([backend.messages, backend.messages.listMessages], A, {
        before: { createdAt: 50_000, id: msg(50).id },
        limit: MESSAGES_PAGE,
      })
      .run();
    const loaded = (storeState as State).conversation.byChannel[A];
    expect(loaded?.messages.map((m) => m.text)).toEqual([
      'message 48',
      'message 49',
      'message 50',
      'message 51',
    ]);
    expect(loaded).toMatchObject({ hasMore: false, loadingOlder: false });
  });

  it('says why when the first load fails', async () => {
    const { storeState } = await expectSaga(
      handleMessagesRequested,
      backend,
      messagesRequested({ channelId: A }),
    )
      .withReducer(reducer, reducer(undefined, messagesRequested({ channelId: A })))
      .provide([
        [
          matchers.call.fn(backend.messages.listMessages),
          throwError(new BackendError('PERMISSION_DENIED', 'You are not a member of this channel.')),
        ],
      ])
      .run();
    expect((storeState as State).conversation.byChannel[A]).toMatchObject({
      status: 'failed',
      error: 'You are not a member of this channel.',
    });
  });
});

describe('paging through a long conversation (issue #13 part 2)', () => {
  /** A channel of 1,000 messages, and the port's paging over it: newest `limit`, before or after a cursor. */
  const history = Array.from({ length: 1_000 }, (_, i) => msg(i + 1));
  const list = (
    _channelId: string,
    options: { before?: MessageCursor; after?: MessageCursor; limit?: number } = {},
  ): ChatMessage[] => {
    const limit = options.limit ?? 50;
    const { before, after } = options;
    if (after) return history.filter((m) => compareMessages(m, after) > 0).slice(0, limit);
    const older = before ? history.filter((m) => compareMessages(m, before) < 0) : history;
    return older.slice(-limit);
  };
  const listing: StaticProvider = [
    matchers.call.fn(backend.messages.listMessages),
    dynamic(({ args }) => list(args[0] as string, args[1] as Parameters<typeof list>[1])),
  ];
  const numbers = (state: State) =>
    state.conversation.byChannel[A]?.messages.map((m) => m.createdAt / 1_000) ?? [];
  const STOP = { type: 'test/stop' };

  it('pages back past the window and forward again: each page from the right cursor, each message once', async () => {
    const saga = expectSaga(function* pages() {
      yield all([fork(conversationSaga, backend), fork(newerPagesSaga, backend)]);
    })
      .withReducer(reducer, reducer(undefined, messagesRequested({ channelId: A })))
      .provide([listing]);
    const running = saga.run({ timeout: 1_000, silenceTimeout: true });
    saga.dispatch(messagesRequested({ channelId: A }));
    for (let i = 0; i < 12; i += 1) saga.dispatch(olderRequested({ channelId: A }));
    saga.dispatch({ type: 'test/back' });
    for (let i = 0; i < 12; i += 1) saga.dispatch(newerRequested({ channelId: A }));
    saga.dispatch(STOP);
    const { storeState, effects } = await running;
    const calls = effects.call
      .filter((effect) => effect.payload.fn === backend.messages.listMessages)
      .map((effect) => effect.payload.args[1] as Record<string, MessageCursor | number>);
    // The newest page, twelve pages back (each before the oldest held), then forward (each after the newest held).
    expect(calls[0]).toEqual({ limit: MESSAGES_PAGE });
    expect(calls.slice(1, 13).map((c) => (c.before as MessageCursor).createdAt / 1_000)).toEqual(
      Array.from({ length: 12 }, (_, i) => 1_000 - (i + 1) * MESSAGES_PAGE + 1),
    );
    const forward = calls.slice(13).map((c) => (c.after as MessageCursor).createdAt / 1_000);
    // Twelve pages back let the newest 5 pages go (the window is eight): forward from the newest held, 30 at a time,
    // until a short page reaches the newest.
    expect(forward[0]).toBe(1_000 - 5 * MESSAGES_PAGE);
    expect(forward.at(-1)).toBe(1_000);
    const state = storeState as State;
    expect(numbers(state)).toEqual(
      Array.from({ length: MESSAGES_WINDOW }, (_, i) => 1_000 - MESSAGES_WINDOW + 1 + i),
    );
    expect(state.conversation.byChannel[A]).toMatchObject({
      hasNewer: false,
      hasMore: true,
      loadingNewer: false,
    });
  });

  it('asks for nothing forward while the window reaches the newest', async () => {
    let state = reducer(undefined, messagesRequested({ channelId: A }));
    state = reducer(state, messagesLoaded({ channelId: A, messages: list(A, { limit: MESSAGES_PAGE }) }));
    await expectSaga(handleNewerRequested, backend, newerRequested({ channelId: A }))
      .withState(state)
      .provide([listing])
      .not.call.fn(backend.messages.listMessages)
      .run();
  });

  it('jumps from far back to the newest page, with a message that arrived meanwhile once', async () => {
    let state = reducer(undefined, messagesRequested({ channelId: A }));
    state = reducer(state, messagesLoaded({ channelId: A, messages: list(A, { limit: MESSAGES_PAGE }) }));
    for (let i = 0; i < 10; i += 1) {
      const oldest = state.conversation.byChannel[A]?.messages[0];
      if (!oldest) throw new Error('empty');
      state = reducer(state, olderRequested({ channelId: A }));
      state = reducer(state, {
        type: 'conversation/olderLoaded',
        payload: {
          channelId: A,
          messages: list(A, { before: oldest, limit: MESSAGES_PAGE }),
          before: oldest.id,
        },
      });
    }
    state = reducer(state, scrollBackStarted({ channelId: A }));
    const live = { ...msg(1_001), senderId: 'uidOther000000000001' };
    state = reducer(state, messagesArrived({ messages: [live], ownUid: 'uidMe000000000000001' }));
    expect(state.conversation.byChannel[A]).toMatchObject({ hasNewer: true, unseen: [live.id] });
    history.push(live);
    try {
      const { storeState } = await expectSaga(
        handleMessagesRequested,
        backend,
        messagesRequested({ channelId: A }),
      )
        .withReducer(reducer, reducer(state, messagesRequested({ channelId: A })))
        .provide([listing])
        .call([backend.messages, backend.messages.listMessages], A, { limit: MESSAGES_PAGE })
        .run();
      const after = storeState as State;
      expect(numbers(after)).toEqual(
        Array.from({ length: MESSAGES_PAGE }, (_, i) => 1_001 - MESSAGES_PAGE + 1 + i),
      );
      expect(after.conversation.byChannel[A]).toMatchObject({ hasNewer: false, unseen: [], generation: 1 });
    } finally {
      history.pop();
    }
  });
});
