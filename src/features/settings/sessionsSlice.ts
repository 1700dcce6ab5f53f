// Settings → Devices' signed-in sessions and Settings → Profile's change of password: the
// list, the sessions being signed out, "everywhere else" in progress, and the password form's state. Injected
// with the settings chunk (the shell carries none of it).
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction, WithSlice } from '@reduxjs/toolkit';
import type { SignedInSession } from '@core/model';
import { sharedReducer } from '@/store/reducer';
import type { LoadStatus } from '@/store/status';
import { signedOut } from '@/store/userSlice';
import type { SaveStatus } from './settingsSlice';

export interface SessionsState {
  status: LoadStatus;
  items: SignedInSession[];
  /** Whether the backend lists every session (false on Firebase: this one only, docs/decisions/auth.md). */
  listsEverySession: boolean;
  error: string | null;
  /** Sessions whose sign-out is on its way. */
  ending: string[];
  endingOthers: boolean;
  password: { status: SaveStatus; error: string | null };
}

export const initialState: SessionsState = {
  status: 'idle',
  items: [],
  listsEverySession: true,
  error: null,
  ending: [],
  endingOthers: false,
  password: { status: 'idle', error: null },
};

const sessionsSlice = createSlice({
  name: 'sessions',
  initialState,
  reducers: {
    sessionsRequested(state) {
      state.status = 'loading';
      state.error = null;
    },
    sessionsLoaded(state, action: PayloadAction<{ items: SignedInSession[]; listsEverySession: boolean }>) {
      state.status = 'loaded';
      state.items = action.payload.items;
      state.listsEverySession = action.payload.listsEverySession;
      state.error = null;
    },
    sessionsLoadFailed(state, action: PayloadAction<{ message: string }>) {
      state.status = 'failed';
      state.error = action.payload.message;
    },
    sessionSignOutRequested(state, action: PayloadAction<{ id: string }>) {
      if (!state.ending.includes(action.payload.id)) state.ending.push(action.payload.id);
      state.error = null;
    },
    /** Ended (or found ended already): the row goes. */
    sessionSignedOut(state, action: PayloadAction<{ id: string }>) {
      state.items = state.items.filter((item) => item.id !== action.payload.id);
      state.ending = state.ending.filter((id) => id !== action.payload.id);
    },
    sessionSignOutFailed(state, action: PayloadAction<{ id: string; message: string }>) {
      state.ending = state.ending.filter((id) => id !== action.payload.id);
      state.error = action.payload.message;
    },
    otherSessionsSignOutRequested(state) {
      state.endingOthers = true;
      state.error = null;
    },
    otherSessionsSignedOut(state) {
      state.endingOthers = false;
      state.items = state.items.filter((item) => item.current);
    },
    otherSessionsSignOutFailed(state, action: PayloadAction<{ message: string }>) {
      state.endingOthers = false;
      state.error = action.payload.message;
    },
    passwordChangeRequested(state, _action: PayloadAction<{ currentPassword: string; newPassword: string }>) {
      state.password = { status: 'saving', error: null };
    },
    passwordChanged(state) {
      state.password = { status: 'saved', error: null };
    },
    passwordChangeFailed(state, action: PayloadAction<{ message: string }>) {
      state.password = { status: 'failed', error: action.payload.message };
    },
  },
  extraReducers: (builder) => {
    // Nothing of one account's sessions survives its sign-out.
    builder.addCase(signedOut, () => initialState);
  },
});

export const {
  sessionsRequested,
  sessionsLoaded,
  sessionsLoadFailed,
  sessionSignOutRequested,
  sessionSignedOut,
  sessionSignOutFailed,
  otherSessionsSignOutRequested,
  otherSessionsSignedOut,
  otherSessionsSignOutFailed,
  passwordChangeRequested,
  passwordChanged,
  passwordChangeFailed,
} = sessionsSlice.actions;
export default sessionsSlice.reducer;

declare module '@/store/reducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof sessionsSlice> {}
}
sessionsSlice.injectInto(sharedReducer);

interface WithSessions {
  sessions?: SessionsState;
}
export const selectSessions = (state: WithSessions): SessionsState => state.sessions ?? initialState;
export const selectPasswordChange = (state: WithSessions): SessionsState['password'] =>
  (state.sessions ?? initialState).password;
