import { findNonSerializableValue } from '@reduxjs/toolkit';
import type { ChatMessage } from '@core/model';
import { messagesArrived } from '@/store/messages';
import reducer, {
  LATER_MAX,
  MESSAGES_PAGE,
  MESSAGES_WINDOW,
  initialState,
  messagesFailed,
  messagesLoaded,
  messagesRequested,
  olderFailed,
  olderLoaded,
  olderRequested,
  selectConversation,
  selectConversationView,
} from '@/store/conversationSlice';
import {
  firstIndexShift,
  latestReached,
  newerFailed,
  newerLoaded,
  newerRequested,
  scrollBackStarted,
} from '@/features/conversation/conversationWindow';
import type { ConversationState } from '@/store/conversationSlice';
import outboxReducer, { messageSendRequested } from '@/store/outboxSlice';
import type { OutboxState } from '@/store/outboxSlice';
import { signedOut } from '@/store/userSlice';

const A = 'ChannelA000000000001';
const B = 'ChannelB000000000001';
const ME = 'uidMe000000000000001';
const T0 = 1_700_000_000_000;

const msg = (id: string, at: number, channelId = A): ChatMessage => ({
  id,
  channelId,
  senderId: 'uidDana0000000000001',
  senderName: 'Dana',
  text: `text of ${id}`,
  createdAt: T0 + at,
});

/** `n` messages a millisecond apart, ids m000… in order, ending at `last`. */
const page = (n: number, last = n): ChatMessage[] =>
  Array.from({ length: n }, (_, i) => msg(`m${String(last - n + 1 + i).padStart(3, '0')}`, last - n + 1 + i));

const ids = (state: ConversationState, channelId = A) =>
  selectConversation({ conversation: state }, channelId)?.messages.map((m) => m.id);

const loaded = (messages: ChatMessage[], channelId = A) =>
  reducer(reducer(initialState, messagesRequested({ channelId })), messagesLoaded({ channelId, messages }));

describe('conversation reducer: the first page', () => {
  it('starts with no conversation', () => {
    expect(selectConversation({ conversation: reducer(undefined, { type: '@@INIT' }) }, A)).toBeUndefined();
  });

  it('loads a channel that was asked for, with nothing in it yet', () => {
    const state = reducer(initialState, messagesRequested({ channelId: A }));
    expect(selectConversation({ conversation: state }, A)).toEqual({
      status: 'loading',
      messages: [],
      hasMore: false,
      loadingOlder: false,
      error: null,
    });
    expect(selectConversation({ conversation: state }, B)).toBeUndefined();
  });

  it('puts a loaded page in (createdAt, id) order, whatever order it came in', () => {
    const state = loaded([msg('b', 5), msg('c', 1), msg('a', 5)]);
    expect(ids(state)).toEqual(['c', 'a', 'b']);
    expect(selectConversation({ conversation: state }, A)?.status).toBe('loaded');
  });

  it('expects older messages only after a full page', () => {
    expect(selectConversation({ conversation: loaded(page(MESSAGES_PAGE)) }, A)?.hasMore).toBe(true);
    expect(selectConversation({ conversation: loaded(page(MESSAGES_PAGE - 1)) }, A)?.hasMore).toBe(false);
  });

  it('keeps live messages that came in while the first page was on its way', () => {
    let state = reducer(initialState, messagesRequested({ channelId: A }));
    state = reducer(state, messagesArrived({ messages: [msg('live', 100)], ownUid: ME }));
    state = reducer(state, messagesLoaded({ channelId: A, messages: [msg('old', 1), msg('live', 100)] }));
    expect(ids(state)).toEqual(['old', 'live']);
  });

  it('says why a channel with nothing shown failed to load, and tries again when asked', () => {
    let state = reducer(initialState, messagesRequested({ channelId: A }));
    state = reducer(state, messagesFailed({ channelId: A, message: "Can't reach QuPM right now." }));
    expect(selectConversation({ conversation: state }, A)).toMatchObject({
      status: 'failed',
      error: "Can't reach QuPM right now.",
    });
    state = reducer(state, messagesRequested({ channelId: A }));
    expect(selectConversation({ conversation: state }, A)).toMatchObject({ status: 'loading', error: null });
  });

  it('keeps showing what it has when a reload fails', () => {
    let state = loaded([msg('a', 1)]);
    state = reducer(state, messagesRequested({ channelId: A }));
    expect(selectConversation({ conversation: state }, A)?.status).toBe('loaded');
    state = reducer(state, messagesFailed({ channelId: A, message: 'Server busy' }));
    expect(selectConversation({ conversation: state }, A)).toMatchObject({
      status: 'loaded',
      error: 'Server busy',
      messages: [msg('a', 1)],
    });
  });

  it('merges a reload into what it has, each message once', () => {
    const state = reducer(
      loaded([msg('a', 1), msg('b', 2)]),
      messagesLoaded({ channelId: A, messages: [msg('b', 2), msg('c', 3)] }),
    );
    expect(ids(state)).toEqual(['a', 'b', 'c']);
  });
});

describe('conversation reducer: paging back', () => {
  it('marks a page back as loading, only for a channel it knows', () => {
    const state = reducer(loaded(page(MESSAGES_PAGE)), olderRequested({ channelId: A }));
    expect(selectConversation({ conversation: state }, A)?.loadingOlder).toBe(true);
    expect(reducer(initialState, olderRequested({ channelId: A }))).toEqual(initialState);
  });

  it('puts an older page before what it has, and stops expecting more after a short page', () => {
    let state = reducer(loaded(page(MESSAGES_PAGE, 100)), olderRequested({ channelId: A }));
    state = reducer(state, olderLoaded({ channelId: A, messages: page(5, 70) }));
    const conversation = selectConversation({ conversation: state }, A);
    expect(conversation?.messages.map((m) => m.id).slice(0, 6)).toEqual([
      'm066',
      'm067',
      'm068',
      'm069',
      'm070',
      'm071',
    ]);
    expect(conversation?.messages).toHaveLength(MESSAGES_PAGE + 5);
    expect(conversation).toMatchObject({ loadingOlder: false, hasMore: false });
  });

  it('keeps expecting more after a full older page', () => {
    let state = reducer(loaded(page(MESSAGES_PAGE, 100)), olderRequested({ channelId: A }));
    state = reducer(state, olderLoaded({ channelId: A, messages: page(MESSAGES_PAGE, 70) }));
    expect(selectConversation({ conversation: state }, A)?.hasMore).toBe(true);
  });

  it('keeps the older page of a channel it no longer knows out of the state', () => {
    const state = reducer(initialState, olderLoaded({ channelId: A, messages: page(3) }));
    expect(state).toEqual(initialState);
  });

  it('says why a page back failed, keeping the messages and the hope of more', () => {
    let state = reducer(loaded(page(MESSAGES_PAGE)), olderRequested({ channelId: A }));
    state = reducer(state, olderFailed({ channelId: A, message: 'Server busy' }));
    expect(selectConversation({ conversation: state }, A)).toMatchObject({
      loadingOlder: false,
      hasMore: true,
      error: 'Server busy',
      status: 'loaded',
    });
    expect(ids(state)).toHaveLength(MESSAGES_PAGE);
    expect(reducer(initialState, olderFailed({ channelId: A, message: 'x' }))).toEqual(initialState);
  });
});

describe('conversation reducer: live messages and sign-out', () => {
  it('adds arriving messages to the conversations it holds, each to its own, each once', () => {
    let state = loaded([msg('a1', 1)]);
    state = reducer(state, messagesRequested({ channelId: B }));
    state = reducer(
      state,
      messagesArrived({
        messages: [msg('b1', 3, B), msg('a3', 3), msg('a1', 1), msg('a2', 2), msg('a3', 3)],
        ownUid: ME,
      }),
    );
    expect(ids(state, A)).toEqual(['a1', 'a2', 'a3']);
    expect(ids(state, B)).toEqual(['b1']);
  });

  it('does not open a conversation for a channel nobody is looking at', () => {
    const state = reducer(
      loaded([msg('a1', 1)]),
      messagesArrived({ messages: [msg('c1', 1, 'ChannelC')], ownUid: ME }),
    );
    expect(selectConversation({ conversation: state }, 'ChannelC')).toBeUndefined();
  });

  it('forgets every conversation at sign-out', () => {
    expect(reducer(loaded(page(3)), signedOut())).toEqual(initialState);
  });

  it('stays serializable through loads, pages and live batches', () => {
    let state = loaded(page(MESSAGES_PAGE, 100));
    state = reducer(state, olderRequested({ channelId: A }));
    state = reducer(state, olderLoaded({ channelId: A, messages: page(2, 70) }));
    state = reducer(state, messagesArrived({ messages: [msg('z', 500)], ownUid: ME }));
    state = reducer(state, messagesFailed({ channelId: B, message: 'offline' }));
    expect(findNonSerializableValue(state)).toBe(false);
  });
});

describe('selectConversationView', () => {
  const send = (outbox: OutboxState, text: string, channelId = A) =>
    outboxReducer(outbox, messageSendRequested({ channelId, text }));

  it("shows the channel's messages, then its own sends still on their way, in the order written", () => {
    let outbox = send(outboxReducer(undefined, { type: '@@INIT' }), 'first');
    outbox = send(outbox, 'elsewhere', B);
    outbox = send(outbox, 'second');
    const view = selectConversationView({ conversation: loaded([msg('a', 1)]), outbox }, A);
    expect(view.messages.map((m) => m.id)).toEqual(['a']);
    expect(view.pending.map((entry) => entry.text)).toEqual(['first', 'second']);
  });

  it('shows a sent message once, where the backend put it, while it is still in the outbox', () => {
    const outbox = send(outboxReducer(undefined, { type: '@@INIT' }), 'hello');
    const sent = outbox.entries[0];
    if (!sent) throw new Error('nothing queued');
    const conversation = reducer(
      loaded([msg('a', 1)]),
      messagesArrived({ messages: [{ ...msg(sent.id, 2), senderId: ME, text: 'hello' }], ownUid: ME }),
    );
    const view = selectConversationView({ conversation, outbox }, A);
    expect(view.messages.map((m) => m.text)).toEqual(['text of a', 'hello']);
    expect(view.pending).toEqual([]);
  });

  it('finds a sent message also deep in a long conversation', () => {
    const outbox = send(outboxReducer(undefined, { type: '@@INIT' }), 'old send');
    const sent = outbox.entries[0];
    if (!sent) throw new Error('nothing queued');
    // 231 messages (within the window): the sent one is further back than the newest 200.
    const conversation = loaded([{ ...msg(sent.id, 0), senderId: ME }, ...page(230, 300)]);
    expect(selectConversationView({ conversation, outbox }, A).pending).toEqual([]);
  });

  it('gives an empty view of a channel it does not hold, and the same view again for the same state', () => {
    const state = { conversation: initialState, outbox: outboxReducer(undefined, { type: '@@INIT' }) };
    const view = selectConversationView(state, A);
    expect(view).toEqual({ messages: [], pending: [] });
    expect(selectConversationView(state, A)).toBe(view);
  });
});

describe('changed messages arriving (issue #13)', () => {
  const loadedWith = (messages: ChatMessage[]) =>
    [messagesRequested({ channelId: A }), messagesLoaded({ channelId: A, messages })].reduce(
      (state, action) => reducer(state, action),
      initialState,
    );

  it('puts an edit of a held message in its place', () => {
    const state = reducer(
      loadedWith(page(3)),
      messagesArrived({
        messages: [{ ...msg('m002', 2), text: 'edited', editedAt: T0 + 9, updatedAt: T0 + 9 }],
        ownUid: ME,
      }),
    );
    expect(selectConversation({ conversation: state }, A)?.messages.map((m) => m.text)).toEqual([
      'text of m001',
      'edited',
      'text of m003',
    ]);
  });

  it('leaves out a change of a message older than those loaded (paging back brings it as it stands)', () => {
    const held = loadedWith(page(3, 10));
    const state = reducer(
      held,
      messagesArrived({
        messages: [{ ...msg('m001', 1), text: 'old, edited', updatedAt: T0 + 20 }],
        ownUid: ME,
      }),
    );
    expect(ids(state)).toEqual(['m008', 'm009', 'm010']);
    // A message created and changed while the window was away is new: it joins.
    const later = reducer(
      state,
      messagesArrived({
        messages: [{ ...msg('m011', 11), text: 'new, edited', updatedAt: T0 + 21 }],
        ownUid: ME,
      }),
    );
    expect(ids(later)).toEqual(['m008', 'm009', 'm010', 'm011']);
  });
});

describe('the window of messages held (issue #13 part 2)', () => {
  const OTHER = 'uidDana0000000000001';
  const get = (state: ConversationState) => {
    const conversation = selectConversation({ conversation: state }, A);
    if (!conversation) throw new Error('no conversation');
    return conversation;
  };
  /** Message number `k` (ids sort with their times). */
  const nth = (k: number) => msg(`m${String(k).padStart(4, '0')}`, k);
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => nth(from + i));
  const numbers = (state: ConversationState) => get(state).messages.map((m) => m.createdAt - T0);
  /** Pages back from the newest page (ending at 1000) until `pages` older pages are in. */
  function pagedBack(pages: number): ConversationState {
    let state = loaded(range(1000 - MESSAGES_PAGE + 1, 1000));
    for (let i = 0; i < pages; i += 1) {
      const first = get(state).messages[0];
      if (!first) throw new Error('empty');
      const k = first.createdAt - T0;
      state = reducer(state, olderRequested({ channelId: A }));
      state = reducer(
        state,
        olderLoaded({ channelId: A, messages: range(k - MESSAGES_PAGE, k - 1), before: first.id }),
      );
    }
    return state;
  }

  it('numbers the first message held: down by the messages added before it, up by those let go', () => {
    const [a, b, c, d] = [nth(1), nth(2), nth(3), nth(4)];
    if (!a || !b || !c || !d) throw new Error('no messages');
    expect(firstIndexShift([c, d], [a, b, c, d])).toBe(-2);
    expect(firstIndexShift([a, b, c, d], [c, d])).toBe(2);
    expect(firstIndexShift([a, b], [a, b, c])).toBe(0);
    expect(firstIndexShift([], [a])).toBe(0);
  });

  it('lets the newest end go once paging back passes the window, keeping the numbering of what stays', () => {
    const state = pagedBack(8);
    const conversation = get(state);
    expect(conversation.messages).toHaveLength(MESSAGES_WINDOW);
    // The oldest eight pages back are held; the newest page (971..1000) is let go.
    expect(numbers(state)).toEqual(
      range(1000 - 9 * MESSAGES_PAGE + 1, 1000 - MESSAGES_PAGE).map((m) => m.createdAt - T0),
    );
    expect(conversation).toMatchObject({ hasNewer: true, hasMore: true, firstIndex: -8 * MESSAGES_PAGE });
  });

  it('leaves out a page back asked for from a first message that is no longer first', () => {
    let state = loaded(range(971, 1000));
    state = reducer(state, olderRequested({ channelId: A }));
    const before = get(state);
    state = reducer(state, olderLoaded({ channelId: A, messages: range(900, 929), before: 'm0950' }));
    expect(get(state).messages).toBe(before.messages);
    expect(get(state).loadingOlder).toBe(false);
  });

  it('pages forward towards the newest, letting the oldest end go, and reaches it with a short page', () => {
    let state = pagedBack(8);
    const newest = get(state).messages.at(-1);
    if (!newest) throw new Error('empty');
    state = reducer(state, newerRequested({ channelId: A }));
    expect(get(state).loadingNewer).toBe(true);
    // A full page forward: 971..1000 join, the 30 oldest go.
    expect(newest.id).toBe('m0970');
    state = reducer(state, newerLoaded({ channelId: A, messages: range(971, 1000), after: newest.id }));
    expect(get(state).messages).toHaveLength(MESSAGES_WINDOW);
    expect(numbers(state)).toEqual(range(761, 1000).map((m) => m.createdAt - T0));
    expect(get(state)).toMatchObject({ hasNewer: true, firstIndex: -7 * MESSAGES_PAGE, loadingNewer: false });
    // The next page forward is short (here empty): the newest is reached.
    state = reducer(state, newerLoaded({ channelId: A, messages: [], after: 'm1000' }));
    expect(get(state).hasNewer).toBe(false);
    expect(numbers(state)).toEqual(range(761, 1000).map((m) => m.createdAt - T0));
  });

  it('leaves out a page forward asked for from a newest message that is no longer newest', () => {
    let state = pagedBack(8);
    const before = get(state).messages;
    state = reducer(state, newerLoaded({ channelId: A, messages: range(941, 970), after: 'm0500' }));
    expect(get(state).messages).toBe(before);
  });

  it('keeps live messages newer than a window that does not reach the newest, counts them, and loses none', () => {
    let state = reducer(pagedBack(8), scrollBackStarted({ channelId: A }));
    const held = get(state).messages;
    // Two by someone else (one of them twice), one of the person's own, and an edit of a message held.
    const edited = { ...nth(800), text: 'edited', updatedAt: T0 + 2_000 } as ChatMessage;
    state = reducer(
      state,
      messagesArrived({
        messages: [nth(1001), nth(1002), nth(1001), { ...nth(1003), senderId: ME }, edited],
        ownUid: ME,
      }),
    );
    const conversation = get(state);
    expect(conversation.messages).toHaveLength(held.length);
    expect(conversation.messages.find((m) => m.id === 'm0800')?.text).toBe('edited');
    expect(conversation.later?.map((m) => m.id)).toEqual(['m1001', 'm1002', 'm1003']);
    expect(conversation.unseen).toEqual(['m1001', 'm1002']);
    expect(get(reducer(state, latestReached({ channelId: A }))).unseen).toHaveLength(2);

    // Paging forward to the end brings them in, each once and in order.
    state = reducer(state, newerLoaded({ channelId: A, messages: range(971, 1000), after: 'm0970' }));
    expect(get(state).hasNewer).toBe(true);
    state = reducer(state, newerLoaded({ channelId: A, messages: range(1001, 1002), after: 'm1000' }));
    expect(get(state).hasNewer).toBe(false);
    expect(numbers(state)).toEqual(range(1003 - MESSAGES_WINDOW + 1, 1003).map((m) => m.createdAt - T0));
    expect(get(state).later).toEqual([]);
    state = reducer(state, latestReached({ channelId: A }));
    expect(get(state)).toMatchObject({ unseen: [], away: false });
  });

  it('replaces a window far back with the newest page and what waited, starting the list again', () => {
    let state = reducer(pagedBack(8), scrollBackStarted({ channelId: A }));
    state = reducer(state, messagesArrived({ messages: [nth(1001)], ownUid: ME }));
    state = reducer(state, messagesLoaded({ channelId: A, messages: range(972, 1001).slice(0, 29) }));
    expect(numbers(state)).toEqual(range(972, 1001).map((m) => m.createdAt - T0));
    expect(get(state)).toMatchObject({
      hasNewer: false,
      hasMore: false,
      firstIndex: 0,
      generation: 1,
      later: [],
      unseen: [],
      away: false,
    });
  });

  it('lets the oldest end go as live messages come while the person is at the newest', () => {
    let state = loaded(range(1, MESSAGES_WINDOW));
    state = reducer(
      state,
      messagesArrived({ messages: range(MESSAGES_WINDOW + 1, MESSAGES_WINDOW + 3), ownUid: ME }),
    );
    expect(get(state).messages).toHaveLength(MESSAGES_WINDOW);
    expect(numbers(state)[0]).toBe(4);
    expect(get(state)).toMatchObject({ hasMore: true, firstIndex: 3 });
    expect(get(state).hasNewer).toBeFalsy();
  });

  it('does not let go of what the person reads further up: a full window stops reaching the newest instead', () => {
    let state = reducer(loaded(range(1, MESSAGES_WINDOW)), scrollBackStarted({ channelId: A }));
    state = reducer(state, messagesArrived({ messages: [nth(MESSAGES_WINDOW + 1)], ownUid: ME }));
    expect(numbers(state)[0]).toBe(1);
    expect(get(state)).toMatchObject({ hasNewer: true, firstIndex: 0 });
    expect(get(state).later?.map((m) => m.createdAt - T0)).toEqual([MESSAGES_WINDOW + 1]);
    expect(get(state).unseen).toHaveLength(1);
  });

  it('keeps at most LATER_MAX waiting messages, the newest', () => {
    let state = reducer(pagedBack(8), scrollBackStarted({ channelId: A }));
    state = reducer(state, messagesArrived({ messages: range(1001, 1000 + LATER_MAX + 5), ownUid: ME }));
    expect(get(state).later).toHaveLength(LATER_MAX);
    expect(get(state).later?.[0]?.createdAt).toBe(T0 + 1006);
  });

  it('says why a page forward failed, keeping the window', () => {
    let state = reducer(pagedBack(8), newerRequested({ channelId: A }));
    state = reducer(state, newerFailed({ channelId: A, message: 'Server busy' }));
    expect(get(state)).toMatchObject({ loadingNewer: false, hasNewer: true, error: 'Server busy' });
    expect(reducer(initialState, newerRequested({ channelId: A }))).toEqual(initialState);
  });

  it('stays serializable with a window far back and messages waiting', () => {
    let state = reducer(pagedBack(9), scrollBackStarted({ channelId: A }));
    state = reducer(
      state,
      messagesArrived({ messages: [nth(1001), { ...nth(1002), senderId: OTHER }], ownUid: ME }),
    );
    expect(findNonSerializableValue(state)).toBe(false);
  });
});
