// The conversations of the main screen: each channel's loaded messages (oldest first), paging back through
// history, and the send in progress. Messages are plain data; the same message arriving twice (sent here and
// streamed back) is kept once, by id.
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { ChatMessage } from '@core/model';
import { messageArrived } from '@/store/channelsSlice';

/** Messages asked for at once, first load and each page back. */
export const MESSAGES_PAGE = 30;

export interface Conversation {
  status: 'loading' | 'loaded' | 'failed';
  messages: ChatMessage[];
  /** Older messages may exist (the last page back was full). */
  hasMore: boolean;
  loadingOlder: boolean;
  error: string | null;
  send: { status: 'idle' | 'sending' | 'failed'; error: string | null };
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
  send: { status: 'idle', error: null },
});

const byTime = (a: ChatMessage, b: ChatMessage): number =>
  a.createdAt - b.createdAt || a.id.localeCompare(b.id);

/** `messages` merged into `into`, once each by id, oldest first. */
function merge(into: ChatMessage[], messages: readonly ChatMessage[]): ChatMessage[] {
  const seen = new Set(into.map((m) => m.id));
  const added = messages.filter((m) => !seen.has(m.id));
  return added.length === 0 ? into : [...into, ...added].sort(byTime);
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
    messageSendRequested(state, action: PayloadAction<{ channelId: string; text: string }>) {
      const conversation = (state.byChannel[action.payload.channelId] ??= emptyConversation());
      conversation.send = { status: 'sending', error: null };
    },
    /** The send is over; the message itself joins the conversation with channels/messageArrived. */
    messageSent(state, action: PayloadAction<{ message: ChatMessage }>) {
      const conversation = state.byChannel[action.payload.message.channelId];
      if (conversation) conversation.send = { status: 'idle', error: null };
    },
    messageSendFailed(state, action: PayloadAction<{ channelId: string; message: string }>) {
      const conversation = state.byChannel[action.payload.channelId];
      if (conversation) conversation.send = { status: 'failed', error: action.payload.message };
    },
  },
  extraReducers: (builder) => {
    builder.addCase('user/signedOut', () => initialState);
    // A live message joins its conversation if that one is loaded (once: sent here and streamed back is one).
    builder.addCase(messageArrived, (state, action) => {
      const conversation = state.byChannel[action.payload.message.channelId];
      if (conversation) conversation.messages = merge(conversation.messages, [action.payload.message]);
    });
  },
});

export const {
  messagesRequested,
  messagesLoaded,
  messagesFailed,
  olderRequested,
  olderLoaded,
  olderFailed,
  messageSendRequested,
  messageSent,
  messageSendFailed,
} = conversationSlice.actions;
export default conversationSlice.reducer;

interface WithConversation {
  conversation: ConversationState;
}
export const selectConversation = (state: WithConversation, channelId: string): Conversation | undefined =>
  state.conversation.byChannel[channelId];
