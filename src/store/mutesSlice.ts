// The person's channel mutes: until when each channel is muted (core/mutes.ts; the backend's
// clock set it), the changes under way and the last refusal per channel, in words for a person. A timed mute ends
// by itself: whoever reads it compares it with the clock (core/mutes.ts isMuted). The tab title's count, which
// leaves muted channels out, is src/store/attentionCount.ts.
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { ChannelMute } from '@core/model';
import type { ChannelMutes, MuteDuration } from '@core/mutes';
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
export const selectMuteSaving = (state: WithMutes, channelId: string): boolean =>
  state.mutes.saving[channelId] === true;
export const selectMuteError = (state: WithMutes, channelId: string): string | null =>
  state.mutes.errors[channelId] ?? null;
