// The conversations of the main screen: each channel's loaded messages in (createdAt, id) order, and paging back
// through history. Every way a message arrives — a page, a live batch, a catch-up after a reconnect, the
// acknowledgement of a send — goes through one merge (core/messages.ts mergeMessages): each id once, in order,
// whatever the interleaving. Messages still on their way out live in the outbox (src/store/outboxSlice.ts).
import { createSelector, createSlice, isDraft, original } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import { compareMessages, isChanged, mergeMessages } from '@core/messages';
import type { ChatMessage } from '@core/model';
import { messagesArrived } from './channelsSlice';
import { selectPendingFor } from './outboxSlice';
import type { OutboxEntry, OutboxState } from './outboxSlice';
import { signedOut } from './userSlice';

/** Messages asked for at once, first load and each page back. */
export const MESSAGES_PAGE = 30;

export interface Conversation {
  status: 'loading' | 'loaded' | 'failed';
  messages: ChatMessage[];
  /** Older messages may exist (the last page back was full). */
  hasMore: boolean;
  loadingOlder: boolean;
  error: string | null;
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

/**
 * The merge on the plain (frozen) arrays rather than Immer's drafts of them: a draft of a 10,000-message list
 * would make a proxy of every message it touches. Each reducer here merges a conversation at most once, so the
 * draft's original is the list as it stands.
 */
function merge(into: ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const base = isDraft(into) ? ((original(into) as ChatMessage[] | undefined) ?? into) : into;
  return mergeMessages(base, incoming);
}

/**
 * `incoming` less the changed copies of messages the conversation does not hold and that are older than its newest
 * (an edit of a message further back than the pages loaded): taking one would leave a gap before it, which paging
 * back would never fill. Paging back brings the message as it stands when it is reached.
 */
function withoutUnheldChanges(conversation: Conversation, incoming: readonly ChatMessage[]): ChatMessage[] {
  if (!incoming.some(isChanged)) return incoming as ChatMessage[];
  const held = isDraft(conversation.messages)
    ? ((original(conversation.messages) as ChatMessage[] | undefined) ?? conversation.messages)
    : conversation.messages;
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
    messagesLoaded(state, action: PayloadAction<{ channelId: string; messages: ChatMessage[] }>) {
      const conversation = (state.byChannel[action.payload.channelId] ??= emptyConversation());
      conversation.status = 'loaded';
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
    olderLoaded(state, action: PayloadAction<{ channelId: string; messages: ChatMessage[] }>) {
      const conversation = state.byChannel[action.payload.channelId];
      if (!conversation) return;
      conversation.loadingOlder = false;
      conversation.messages = merge(conversation.messages, action.payload.messages);
      conversation.hasMore = action.payload.messages.length >= MESSAGES_PAGE;
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
    // message held (edited, deleted: issue #13) takes its place.
    builder.addCase(messagesArrived, (state, action) => {
      const byChannel = new Map<string, ChatMessage[]>();
      for (const message of action.payload.messages) {
        if (!state.byChannel[message.channelId]) continue;
        byChannel.set(message.channelId, [...(byChannel.get(message.channelId) ?? []), message]);
      }
      for (const [channelId, messages] of byChannel) {
        const conversation = state.byChannel[channelId];
        if (!conversation) continue;
        const kept = withoutUnheldChanges(conversation, messages);
        if (kept.length > 0) conversation.messages = merge(conversation.messages, kept);
      }
    });
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
