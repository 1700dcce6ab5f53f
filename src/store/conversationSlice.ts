// The conversations of the main screen: each channel's loaded messages in (createdAt, id) order, and paging back
// through history. Every way a message arrives — a page, a live batch, a catch-up after a reconnect, the
// acknowledgement of a send — goes through one merge (core/messages.ts mergeMessages): each id once, in order,
// whatever the interleaving. Messages still on their way out live in the outbox (src/store/outboxSlice.ts).
// A conversation holds a bounded window of messages: paging back past MESSAGES_WINDOW lets the
// newest end go (`hasNewer`), paging forward again lets the oldest end go, and live messages newer than a window
// that no longer reaches the newest wait in `later` until the person comes back to the newest.
import { createSelector, createSlice, isDraft, original } from '@reduxjs/toolkit';
import type { PayloadAction, UnknownAction } from '@reduxjs/toolkit';
import { compareMessages, isChanged, mergeMessages } from '@core/messages';
import type { ChatMessage } from '@core/model';
import { messagesArrived } from './messages';
import { selectPendingFor } from './outboxSlice';
import type { OutboxEntry, OutboxState } from './outboxSlice';
import { signedOut } from './userSlice';

/** Messages asked for at once, first load and each page back. */
export const MESSAGES_PAGE = 30;
/** At most this many messages are held per conversation (eight pages: several screens either side of the view). */
export const MESSAGES_WINDOW = 8 * MESSAGES_PAGE;
/** At most this many live messages wait in `later`, and this many ids in `unseen` (the newest are kept). */
export const LATER_MAX = MESSAGES_WINDOW;

export interface Conversation {
  status: 'loading' | 'loaded' | 'failed';
  /** The window of messages held, oldest first. */
  messages: ChatMessage[];
  /** Older messages may exist (the last page back was full, or the oldest end was let go). */
  hasMore: boolean;
  loadingOlder: boolean;
  error: string | null;
  // The window's fields (conversationWindow.ts) are absent until it sets them: false, 0 or empty.
  /** Newer messages exist than the window holds: its newest end was let go while paging back. */
  hasNewer?: boolean;
  loadingNewer?: boolean;
  /**
   * Where `messages[0]` stands in the list's numbering: down by as many as are added before it, up by as many as
   * are let go from the start. The list keeps its place by it (virtuoso's firstItemIndex).
   */
  firstIndex?: number;
  /** Live messages (and changes) newer than the window while it does not reach the newest, oldest first. */
  later?: ChatMessage[];
  /** The person is reading away from the newest (scrolled up). */
  away?: boolean;
  /** The ids of messages by others that arrived while the person was away: the "Jump to latest" count. */
  unseen?: string[];
  /** Goes up each time the window is replaced by the newest page: the list starts again at its bottom. */
  generation?: number;
  /**
   * The message the conversation was opened at (a search hit), which the list brings into view and marks; `seq`
   * goes up with each time it is asked for, so the same message can be opened at again.
   */
  focus?: { id: string; seq: number };
}

export interface ConversationState {
  byChannel: Record<string, Conversation>;
}

export const initialState: ConversationState = { byChannel: {} };

const emptyConversation = (): Conversation => ({
  status: 'loading',
  messages: [],
  hasMore: false,
  loadingOlder: false,
  error: null,
});

/** The plain array behind a draft (see merge). */
export function plain<T>(value: T[]): T[] {
  return isDraft(value) ? ((original(value as never) as T[] | undefined) ?? value) : value;
}

/**
 * The window's rules (src/features/conversation/conversationWindow.ts): how pages and live messages change a conversation's window. Loaded
 * with the conversation sagas once a session starts, or with the conversation view, which is where every
 * conversation starts, so the shell carries none of them; until then (and in code that loads neither) a page or a
 * live batch simply merges.
 */
export interface WindowRules {
  pageLoaded(conversation: Conversation, page: ChatMessage[]): void;
  olderLoaded(conversation: Conversation, page: ChatMessage[]): void;
  arrived(conversation: Conversation, messages: ChatMessage[], ownUid: string | null): void;
  /**
   * The window's own actions (paging forward, the person leaving and reaching the newest), which conversationWindow.ts
   * creates: every action no reducer here handles is handed to it.
   */
  other(state: ConversationState, action: UnknownAction): void;
}
let rules: WindowRules | null = null;
/** Installs the window's rules (called once by conversationWindow.ts as it loads). */
export function installWindowRules(windowRules: WindowRules) {
  rules = windowRules;
}

/**
 * The merge on the plain (frozen) arrays rather than Immer's drafts of them: a draft of a 10,000-message list
 * would make a proxy of every message it touches. Each reducer here merges a conversation at most once, so the
 * draft's original is the list as it stands.
 */
export function merge(into: ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  return mergeMessages(plain(into), incoming);
}

/**
 * `incoming` less the changed copies of messages the conversation does not hold and that are older than its newest
 * (an edit of a message further back than the pages loaded): taking one would leave a gap before it, which paging
 * back would never fill. Paging back brings the message as it stands when it is reached.
 */
export function withoutUnheldChanges(
  conversation: Conversation,
  incoming: readonly ChatMessage[],
): ChatMessage[] {
  if (!incoming.some(isChanged)) return incoming as ChatMessage[];
  const held = plain(conversation.messages);
  const newest = held.at(-1);
  const ids = new Set(held.map((message) => message.id));
  return incoming.filter(
    (message) =>
      !isChanged(message) ||
      ids.has(message.id) ||
      (newest === undefined ? conversation.status === 'loaded' : compareMessages(message, newest) > 0),
  );
}

const conversationSlice = createSlice({
  name: 'conversation',
  initialState,
  reducers: {
    messagesRequested(state, action: PayloadAction<{ channelId: string }>) {
      const existing = state.byChannel[action.payload.channelId];
      if (existing) {
        existing.error = null;
        if (existing.status === 'failed') existing.status = 'loading';
      } else state.byChannel[action.payload.channelId] = emptyConversation();
    },
    /** The newest page: merged into a window that reaches the newest, else it replaces the window. */
    messagesLoaded(state, action: PayloadAction<{ channelId: string; messages: ChatMessage[] }>) {
      const conversation = (state.byChannel[action.payload.channelId] ??= emptyConversation());
      conversation.status = 'loaded';
      if (rules) return rules.pageLoaded(conversation, action.payload.messages);
      conversation.messages = merge(conversation.messages, action.payload.messages);
      conversation.hasMore = action.payload.messages.length >= MESSAGES_PAGE;
    },
    messagesFailed(state, action: PayloadAction<{ channelId: string; message: string }>) {
      const conversation = (state.byChannel[action.payload.channelId] ??= emptyConversation());
      conversation.status = conversation.messages.length > 0 ? 'loaded' : 'failed';
      conversation.error = action.payload.message;
    },
    olderRequested(state, action: PayloadAction<{ channelId: string }>) {
      const conversation = state.byChannel[action.payload.channelId];
      if (conversation) conversation.loadingOlder = true;
    },
    /**
     * A page back, from before `before` (the first message when it was asked for: a page for a window that has
     * moved since is left out). Past MESSAGES_WINDOW the newest end is let go.
     */
    olderLoaded(
      state,
      action: PayloadAction<{ channelId: string; messages: ChatMessage[]; before?: string }>,
    ) {
      const conversation = state.byChannel[action.payload.channelId];
      if (!conversation) return;
      conversation.loadingOlder = false;
      const { before, messages } = action.payload;
      if (before !== undefined && conversation.messages[0]?.id !== before) return;
      if (rules) return rules.olderLoaded(conversation, messages);
      conversation.messages = merge(conversation.messages, messages);
      conversation.hasMore = messages.length >= MESSAGES_PAGE;
    },
    olderFailed(state, action: PayloadAction<{ channelId: string; message: string }>) {
      const conversation = state.byChannel[action.payload.channelId];
      if (!conversation) return;
      conversation.loadingOlder = false;
      conversation.error = action.payload.message;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
    // Messages that arrived together join the conversations that are loaded, each once; a newer version of a
    // message held (edited, deleted) takes its place.
    builder.addCase(messagesArrived, (state, action) => {
      const byChannel = new Map<string, ChatMessage[]>();
      for (const message of action.payload.messages) {
        if (!state.byChannel[message.channelId]) continue;
        byChannel.set(message.channelId, [...(byChannel.get(message.channelId) ?? []), message]);
      }
      for (const [channelId, messages] of byChannel) {
        const conversation = state.byChannel[channelId];
        if (!conversation) continue;
        if (rules) {
          rules.arrived(conversation, messages, action.payload.ownUid);
          continue;
        }
        const kept = withoutUnheldChanges(conversation, messages);
        if (kept.length > 0) conversation.messages = merge(conversation.messages, kept);
      }
    });
    // The window's own actions (paging forward, the person leaving and reaching the newest) are created and
    // handled by conversationWindow.ts, so neither their creators nor their reducers are in the shell.
    builder.addDefaultCase((state, action) => rules?.other(state, action));
  },
});

export const { messagesRequested, messagesLoaded, messagesFailed, olderRequested, olderLoaded, olderFailed } =
  conversationSlice.actions;
export default conversationSlice.reducer;

interface WithConversation {
  conversation: ConversationState;
}
export const selectConversation = (state: WithConversation, channelId: string): Conversation | undefined =>
  state.conversation.byChannel[channelId];

const NO_MESSAGES: ChatMessage[] = [];

/** Whether `messages` holds `id` (a just-sent message is among the newest: looked for from the end first). */
function holds(messages: readonly ChatMessage[], id: string): boolean {
  for (let i = messages.length - 1; i >= 0 && i >= messages.length - 200; i -= 1) {
    if (messages[i]?.id === id) return true;
  }
  return messages.length > 200 && messages.some((message) => message.id === id);
}

export interface ConversationView {
  /** The backend's messages, in (createdAt, id) order, each once. */
  messages: ChatMessage[];
  /** The person's messages on their way out, in the order written, none of them among `messages`. */
  pending: OutboxEntry[];
}

/**
 * What the screen shows of a channel: its messages, then what is still on its way out. A sent message is in the
 * conversation a moment before it leaves the outbox: it shows once, where the backend put it.
 */
export const selectConversationView = createSelector(
  [
    (state: WithConversation & { outbox: OutboxState }, channelId: string) =>
      selectConversation(state, channelId),
    (state: WithConversation & { outbox: OutboxState }, channelId: string) =>
      selectPendingFor(state, channelId),
  ],
  (conversation, outgoing): ConversationView => {
    const messages = conversation?.messages ?? NO_MESSAGES;
    return { messages, pending: outgoing.filter((entry) => !holds(messages, entry.id)) };
  },
);
