// Whether live data is flowing: the backend's live status, whether the person has been told that
// QuPM is reconnecting (only once an interruption lasts), and the long-lived watcher sagas that crashed and are
// being restarted (src/sagas/supervise.ts). The page shows a quiet "Reconnecting…" while live data is not flowing.
import { createAction, createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { LiveStatus } from '@/backend/ports';
import { signedOut } from './userSlice';

export interface WatcherHealth {
  /** It carries live data (its crash means live updates stopped until it is back). */
  live: boolean;
  /** Crashed and waiting to be started again. */
  restarting: boolean;
  restarts: number;
  /** What the last crash said (for the debug menu and the console; never shown as it is). */
  lastError: string | null;
}

export interface LiveState {
  status: LiveStatus;
  /** An interruption lasted long enough to tell the person (the live saga decides when). */
  reconnectingShown: boolean;
  watchers: Record<string, WatcherHealth>;
}

export const initialState: LiveState = { status: 'connecting', reconnectingShown: false, watchers: {} };

const liveSlice = createSlice({
  name: 'live',
  initialState,
  reducers: {
    liveStatusChanged(state, action: PayloadAction<{ status: LiveStatus }>) {
      state.status = action.payload.status;
      if (action.payload.status === 'live') state.reconnectingShown = false;
    },
    reconnectingNoticeShown(state) {
      if (state.status !== 'live') state.reconnectingShown = true;
    },
    watcherCrashed(state, action: PayloadAction<{ name: string; live: boolean; message: string }>) {
      const known = state.watchers[action.payload.name];
      state.watchers[action.payload.name] = {
        live: action.payload.live,
        restarting: true,
        restarts: known?.restarts ?? 0,
        lastError: action.payload.message,
      };
    },
    watcherRestarted(state, action: PayloadAction<{ name: string }>) {
      const known = state.watchers[action.payload.name];
      state.watchers[action.payload.name] = {
        live: known?.live ?? false,
        restarting: false,
        restarts: (known?.restarts ?? 0) + 1,
        lastError: known?.lastError ?? null,
      };
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
  },
});

/**
 * Live data flows again after an interruption: the subscriptions caught up by themselves; reads that are not
 * subscriptions (the channel overview, the user document, offers) are read again.
 */
export const liveResumed = createAction('live/resumed');

export const { liveStatusChanged, reconnectingNoticeShown, watcherCrashed, watcherRestarted } =
  liveSlice.actions;
export default liveSlice.reducer;

interface WithLive {
  live: LiveState;
}
/** "Reconnecting…": the connection has been down for a while, or a watcher crashed and is not back yet. */
export const selectReconnecting = (state: WithLive): boolean =>
  state.live.reconnectingShown || Object.values(state.live.watchers).some((w) => w.live && w.restarting);
