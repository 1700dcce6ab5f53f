// Which version of the app runs and how it heals: a new worker waiting to take over and
// the update banner (spec §2), and the recovery from a route chunk that failed to load (spec §4).
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';

/** 'waiting': a new worker is installed and waits; 'applying': the person asked to restart into it. */
export type UpdateStatus = 'current' | 'waiting' | 'applying';
/** 'reloading': the first failure of this session reloads once; 'failed': the error screen with a retry. */
export type ChunkRecoveryStatus = 'idle' | 'reloading' | 'failed';

export interface VersionState {
  update: UpdateStatus;
  /** The local setting enable_update_notifications is 'true' (spec §2), as last read or written. */
  bannerEnabled: boolean;
  bannerVisible: boolean;
  chunkRecovery: ChunkRecoveryStatus;
}

export const initialState: VersionState = {
  update: 'current',
  bannerEnabled: false,
  bannerVisible: false,
  chunkRecovery: 'idle',
};

const versionSlice = createSlice({
  name: 'version',
  initialState,
  reducers: {
    /** A new version of the worker is installed and waits to take over. */
    updateInstalled(state) {
      if (state.update === 'current') state.update = 'waiting';
    },
    updateNotificationsRead(state, action: PayloadAction<{ enabled: boolean }>) {
      state.bannerEnabled = action.payload.enabled;
    },
    /** Settings → about: the person turned update notices on or off. */
    updateNotificationsToggled(state, action: PayloadAction<{ enabled: boolean }>) {
      state.bannerEnabled = action.payload.enabled;
    },
    updateBannerShown(state) {
      state.bannerVisible = true;
    },
    updateBannerHidden(state) {
      state.bannerVisible = false;
    },
    /** The person chose to restart into the waiting version. */
    updateRestartRequested(state) {
      state.update = 'applying';
      state.bannerVisible = false;
    },
    /** A route's code or styles failed to load (the lazy route's loader caught a chunk load error). */
    chunkLoadFailed() {},
    chunkReloadStarted(state) {
      state.chunkRecovery = 'reloading';
    },
    chunkRecoveryExhausted(state) {
      state.chunkRecovery = 'failed';
    },
    /** The error screen's "Try again". */
    chunkRetryRequested() {},
  },
});

export const {
  updateInstalled,
  updateNotificationsRead,
  updateNotificationsToggled,
  updateBannerShown,
  updateBannerHidden,
  updateRestartRequested,
  chunkLoadFailed,
  chunkReloadStarted,
  chunkRecoveryExhausted,
  chunkRetryRequested,
} = versionSlice.actions;
export default versionSlice.reducer;

interface WithVersion {
  version: VersionState;
}
export const selectUpdateStatus = (state: WithVersion): UpdateStatus => state.version.update;
export const selectUpdateBannerVisible = (state: WithVersion): boolean => state.version.bannerVisible;
export const selectChunkRecovery = (state: WithVersion): ChunkRecoveryStatus => state.version.chunkRecovery;
export const selectUpdateNotificationsEnabled = (state: WithVersion): boolean => state.version.bannerEnabled;
