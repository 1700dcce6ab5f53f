// Replies and reactions on the main screen: the message the person is answering in each channel's composer, the
// jump to a quoted message (looked for through older pages) and the reactions refused, in words. What a reaction
// makes of the message arrives like any message (messagesArrived: the newer version wins).
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction, WithSlice } from '@reduxjs/toolkit';
import type { Reaction } from '@core/reactions';
import type { ReplyQuote } from '@core/replies';
import { sharedReducer } from '@/store/reducer';
import { messageSendRequested } from '@/store/outboxSlice';
import { signedOut } from '@/store/userSlice';

export interface QuoteJump {
  channelId: string;
  messageId: string;
  /**
   * 'seeking': paging back for it; 'found': in the conversation, to be scrolled to; 'missing': not there;
   * 'unreached': there, but the list did not draw it in time (the person may press the quote again).
   */
  status: 'seeking' | 'found' | 'missing' | 'unreached';
}

export interface RepliesState {
  /** The quote each channel's composer will send with its next message. */
  replyingTo: Record<string, ReplyQuote>;
  jump: QuoteJump | null;
  /** Reactions refused, by message id, in words. */
  reactionErrors: Record<string, string>;
}

export const initialState: RepliesState = { replyingTo: {}, jump: null, reactionErrors: {} };

const repliesSlice = createSlice({
  name: 'replies',
  initialState,
  reducers: {
    replyStarted(state, action: PayloadAction<{ channelId: string; quote: ReplyQuote }>) {
      state.replyingTo[action.payload.channelId] = action.payload.quote;
    },
    replyCancelled(state, action: PayloadAction<{ channelId: string }>) {
      delete state.replyingTo[action.payload.channelId];
    },
    quoteJumpRequested(state, action: PayloadAction<{ channelId: string; messageId: string }>) {
      state.jump = { ...action.payload, status: 'seeking' };
    },
    quoteJumpSettled(state, action: PayloadAction<{ messageId: string; found: boolean }>) {
      if (state.jump?.messageId !== action.payload.messageId) return;
      state.jump.status = action.payload.found ? 'found' : 'missing';
    },
    quoteJumpFinished(state) {
      state.jump = null;
    },
    quoteJumpUnreached(state, action: PayloadAction<{ messageId: string }>) {
      if (state.jump?.messageId !== action.payload.messageId || state.jump.status !== 'found') return;
      state.jump.status = 'unreached';
    },
    reactionRequested(
      state,
      action: PayloadAction<{ channelId: string; messageId: string; emoji: Reaction | null }>,
    ) {
      delete state.reactionErrors[action.payload.messageId];
    },
    reactionFailed(state, action: PayloadAction<{ messageId: string; message: string }>) {
      state.reactionErrors[action.payload.messageId] = action.payload.message;
    },
    reactionErrorDismissed(state, action: PayloadAction<{ messageId: string }>) {
      delete state.reactionErrors[action.payload.messageId];
    },
  },
  extraReducers: (builder) => {
    builder
      // The reply goes with the message: the composer starts afresh.
      .addCase(messageSendRequested, (state, action) => {
        delete state.replyingTo[action.payload.channelId];
      })
      .addCase(signedOut, () => initialState);
  },
});

export const {
  replyStarted,
  replyCancelled,
  quoteJumpRequested,
  quoteJumpSettled,
  quoteJumpFinished,
  quoteJumpUnreached,
  reactionRequested,
  reactionFailed,
  reactionErrorDismissed,
} = repliesSlice.actions;
export default repliesSlice.reducer;

// Injected when this module loads (with the conversation): the shell carries none of it.
declare module '@/store/reducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof repliesSlice> {}
}
repliesSlice.injectInto(sharedReducer);

interface WithReplies {
  replies?: RepliesState;
}
export const selectReplyingTo = (state: WithReplies, channelId: string): ReplyQuote | undefined =>
  state.replies?.replyingTo[channelId];
export const selectQuoteJump = (state: WithReplies): QuoteJump | null => state.replies?.jump ?? null;
export const selectReactionError = (state: WithReplies, messageId: string): string | undefined =>
  state.replies?.reactionErrors[messageId];
