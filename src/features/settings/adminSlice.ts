// The admin section (ARCHITECTURE.md: admins see users, roles and channels): the lists, and a role
// change in progress. Only admins reach it; the backend checks the isAdmin claim on every call anyway.
import { createSlice } from '@reduxjs/toolkit';
import type { WithSlice } from '@reduxjs/toolkit';
import { sharedReducer } from '@/store/reducer';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { AdminChannel, AdminUser } from '@core/model';
import type { LoadStatus } from '@/store/status';
import { signedOut } from '@/store/userSlice';

export interface AdminState {
  users: { status: LoadStatus; items: AdminUser[]; error: string | null };
  channels: { status: LoadStatus; items: AdminChannel[]; error: string | null };
  /** Users whose role change is on its way, and the last failure. */
  changing: string[];
  roleError: string | null;
}

export const initialState: AdminState = {
  users: { status: 'idle', items: [], error: null },
  channels: { status: 'idle', items: [], error: null },
  changing: [],
  roleError: null,
};

const adminSlice = createSlice({
  name: 'admin',
  initialState,
  reducers: {
    adminUsersRequested(state) {
      state.users.status = 'loading';
      state.users.error = null;
    },
    adminUsersLoaded(state, action: PayloadAction<{ items: AdminUser[] }>) {
      state.users = { status: 'loaded', items: action.payload.items, error: null };
    },
    adminUsersFailed(state, action: PayloadAction<{ message: string }>) {
      state.users = { ...state.users, status: 'failed', error: action.payload.message };
    },
    adminChannelsRequested(state) {
      state.channels.status = 'loading';
      state.channels.error = null;
    },
    adminChannelsLoaded(state, action: PayloadAction<{ items: AdminChannel[] }>) {
      state.channels = { status: 'loaded', items: action.payload.items, error: null };
    },
    adminChannelsFailed(state, action: PayloadAction<{ message: string }>) {
      state.channels = { ...state.channels, status: 'failed', error: action.payload.message };
    },
    roleChangeRequested(state, action: PayloadAction<{ uid: string; isOwner: boolean }>) {
      if (!state.changing.includes(action.payload.uid)) state.changing.push(action.payload.uid);
      state.roleError = null;
    },
    roleChanged(state, action: PayloadAction<{ user: AdminUser }>) {
      const { user } = action.payload;
      state.users.items = state.users.items.map((u) => (u.uid === user.uid ? user : u));
      state.changing = state.changing.filter((uid) => uid !== user.uid);
    },
    roleChangeFailed(state, action: PayloadAction<{ uid: string; message: string }>) {
      state.changing = state.changing.filter((uid) => uid !== action.payload.uid);
      state.roleError = action.payload.message;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
  },
});

export const {
  adminUsersRequested,
  adminUsersLoaded,
  adminUsersFailed,
  adminChannelsRequested,
  adminChannelsLoaded,
  adminChannelsFailed,
  roleChangeRequested,
  roleChanged,
  roleChangeFailed,
} = adminSlice.actions;
export default adminSlice.reducer;

// Injected when this module loads (with the part of the app that uses it): the shell carries none of it.
declare module '@/store/reducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof adminSlice> {}
}
adminSlice.injectInto(sharedReducer);

interface WithAdmin {
  admin?: AdminState;
}
export const selectAdmin = (state: WithAdmin): AdminState => state.admin ?? initialState;
