// The person's channel mutes (issue #13 part 6): until when each channel is muted (core/mutes.ts; the backend's
// clock set it), the changes under way and the last refusal per channel, in words for a person. A timed mute ends
// by itself: selectors compare it with the clock they are given. Also the count the tab title shows while the
// window is not looked at: what is unread in the channels that are not muted (docs/DECISIONS.md).
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import { compareMessages } from '@core/messages';
import type { ChannelMute } from '@core/model';
import { isChannelMuted } from '@core/mutes';
import type { ChannelMutes, MuteDuration } from '@core/mutes';
import type { ChannelsState } from './channelsSlice';
import type { ConversationState } from './conversationSlice';
import type { ReadMarksState } from './readMarksSlice';
import type { LoadStatus } from './status';
import { signedOut } from './userSlice';

export interface MutesState {
  status: LoadStatus;
  /** Channel id → the moment its mute ends (epoch ms). */
  byChannel: Record<string, number>;
  /** Channels whose mute is being changed. */
  saving: Record<string, true>;
  /** The last refusal of a change, per channel. */
  errors: Record<string, string>;
}

export const initialState: MutesState = { status: 'idle', byChannel: {}, saving: {}, errors: {} };

const mutesSlice = createSlice({
  name: 'mutes',
  initialState,
  reducers: {
    mutesRequested(state) {
      if (state.status !== 'loaded') state.status = 'loading';
    },
    mutesLoaded(state, action: PayloadAction<{ mutes: ChannelMutes }>) {
      state.status = 'loaded';
      // A change under way keeps what the person asked for until its answer comes.
      const kept = Object.fromEntries(
        Object.keys(state.saving)
          .filter((id) => state.byChannel[id] !== undefined)
          .map((id) => [id, state.byChannel[id] as number]),
      );
      state.byChannel = { ...action.payload.mutes, ...kept };
    },
    mutesFailed(state) {
      // Nothing to say: the channels read as unmuted, as before; the next session or resync reads them again.
      if (state.status !== 'loaded') state.status = 'failed';
    },
    muteRequested(state, action: PayloadAction<{ channelId: string; duration: MuteDuration }>) {
      state.saving[action.payload.channelId] = true;
      delete state.errors[action.payload.channelId];
    },
    unmuteRequested(state, action: PayloadAction<{ channelId: string }>) {
      state.saving[action.payload.channelId] = true;
      delete state.errors[action.payload.channelId];
    },
    muteSaved(state, action: PayloadAction<ChannelMute>) {
      const { channelId, mutedUntil } = action.payload;
      state.byChannel[channelId] = mutedUntil;
      delete state.saving[channelId];
    },
    unmuteSaved(state, action: PayloadAction<{ channelId: string }>) {
      delete state.byChannel[action.payload.channelId];
      delete state.saving[action.payload.channelId];
    },
    muteFailed(state, action: PayloadAction<{ channelId: string; message: string }>) {
      delete state.saving[action.payload.channelId];
      state.errors[action.payload.channelId] = action.payload.message;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
  },
});

export const {
  mutesRequested,
  mutesLoaded,
  mutesFailed,
  muteRequested,
  unmuteRequested,
  muteSaved,
  unmuteSaved,
  muteFailed,
} = mutesSlice.actions;
export default mutesSlice.reducer;

interface WithMutes {
  mutes: MutesState;
}
export const selectMutes = (state: WithMutes): Record<string, number> => state.mutes.byChannel;
/** Until when the channel is muted, or null; whether that is still ahead is the caller's clock to say. */
export const selectMutedUntil = (state: WithMutes, channelId: string): number | null =>
  state.mutes.byChannel[channelId] ?? null;
export const selectIsMuted = (state: WithMutes, channelId: string, now: number): boolean =>
  isChannelMuted(state.mutes.byChannel, channelId, now);
export const selectMuteSaving = (state: WithMutes, channelId: string): boolean =>
  state.mutes.saving[channelId] === true;
export const selectMuteError = (state: WithMutes, channelId: string): string | null =>
  state.mutes.errors[channelId] ?? null;

interface WithAttention extends WithMutes {
  channels: ChannelsState;
  conversation: ConversationState;
  readMarks: ReadMarksState;
}

/**
 * The tab title's count (issue #13): messages from others not read yet in the channels not muted at `now` — the
 * list's unread counts, and in the open channel (whose list count stays 0 while it is open) the messages after
 * the newest one the person has seen, which grow while the window is not looked at.
 */
export function selectAttentionCount(state: WithAttention, ownUid: string | null, now: number): number {
  const mutes = state.mutes.byChannel;
  let total = 0;
  for (const { channel, unread } of state.channels.items) {
    if (!isChannelMuted(mutes, channel.id, now)) total += unread;
  }
  const openId = state.channels.openId;
  if (openId === null || isChannelMuted(mutes, openId, now)) return total;
  const seen = state.readMarks.pending[openId] ?? state.readMarks.acknowledged[openId];
  if (!seen) return total;
  const messages = state.conversation.byChannel[openId]?.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (!message || compareMessages(message, seen) <= 0) break;
    if (message.senderId !== ownUid) total += 1;
  }
  return total;
}
