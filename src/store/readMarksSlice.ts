// Read marks on their way to the backend: per channel, the newest message the person has seen (the
// window visible and focused, the channel open), until the backend acknowledges it. Kept on the device too, so a
// mark that could not be sent (offline, the page closed) is sent on the next start: what was seen stays read.
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import { compareMessages } from '@core/messages';
import type { MessageCursor } from '@core/messages';
import { conversationsRestored } from './outboxSlice';
import { signedOut } from './userSlice';

export interface PendingMark extends MessageCursor {
  channelId: string;
}

export interface ReadMarksState {
  /** Seen but not acknowledged yet, by channel. */
  pending: Record<string, PendingMark>;
  /** The newest mark per channel this session knows the backend has (nothing older is sent again). */
  acknowledged: Record<string, MessageCursor>;
}

export const initialState: ReadMarksState = { pending: {}, acknowledged: {} };

const readMarksSlice = createSlice({
  name: 'readMarks',
  initialState,
  reducers: {
    /** The person has seen the channel up to this message (the saga only reports one newer than any known). */
    messagesSeen(state, action: PayloadAction<PendingMark>) {
      state.pending[action.payload.channelId] = action.payload;
    },
    readMarkAcknowledged(state, action: PayloadAction<PendingMark>) {
      const { channelId, createdAt, id } = action.payload;
      // Overlapping sends may answer out of order: an older acknowledgement never replaces a newer one.
      const known = state.acknowledged[channelId];
      if (!known || compareMessages({ createdAt, id }, known) > 0)
        state.acknowledged[channelId] = { createdAt, id };
      if (state.pending[channelId]?.id === id) delete state.pending[channelId];
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
    builder.addCase(conversationsRestored, (state, action) => {
      for (const mark of action.payload.readMarks) {
        state.pending[mark.channelId] ??= {
          channelId: mark.channelId,
          createdAt: mark.createdAt,
          id: mark.messageId,
        };
      }
    });
  },
});

export const { messagesSeen, readMarkAcknowledged } = readMarksSlice.actions;
export default readMarksSlice.reducer;

interface WithReadMarks {
  readMarks: ReadMarksState;
}
export const selectPendingMarks = (state: WithReadMarks): PendingMark[] =>
  Object.values(state.readMarks.pending);
/** The newest mark known for a channel, sent or not. */
export const selectNewestMark = (state: WithReadMarks, channelId: string): MessageCursor | undefined =>
  state.readMarks.pending[channelId] ?? state.readMarks.acknowledged[channelId];
