// Settings → Your data: "Download my data" and "Delete my account", each request's state and
// its last failure in words for the person. A deletion that succeeded stays known after the sign-out it causes,
// so the section can say plainly what happened; the next sign-in starts afresh.
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction, WithSlice } from '@reduxjs/toolkit';
import { sharedReducer } from '@/store/reducer';
import { signedIn, signedOut } from '@/store/userSlice';

export interface LeavingState {
  export: {
    status: 'idle' | 'preparing' | 'saved' | 'failed';
    fileName: string | null;
    error: string | null;
  };
  deletion: { status: 'idle' | 'deleting' | 'failed' | 'deleted'; error: string | null };
}

export const initialState: LeavingState = {
  export: { status: 'idle', fileName: null, error: null },
  deletion: { status: 'idle', error: null },
};

const leavingSlice = createSlice({
  name: 'leaving',
  initialState,
  reducers: {
    dataExportRequested(state) {
      state.export = { status: 'preparing', fileName: null, error: null };
    },
    dataExported(state, action: PayloadAction<{ fileName: string }>) {
      state.export = { status: 'saved', fileName: action.payload.fileName, error: null };
    },
    dataExportFailed(state, action: PayloadAction<{ message: string }>) {
      state.export = { status: 'failed', fileName: null, error: action.payload.message };
    },
    accountDeletionRequested(state, _action: PayloadAction<{ password: string }>) {
      state.deletion = { status: 'deleting', error: null };
    },
    accountDeleted(state) {
      state.deletion = { status: 'deleted', error: null };
    },
    accountDeletionFailed(state, action: PayloadAction<{ message: string }>) {
      state.deletion = { status: 'failed', error: action.payload.message };
    },
  },
  extraReducers: (builder) => {
    // Deleting signs the person out (before or after accountDeleted arrives): that sentence stays.
    builder.addCase(signedOut, (state) => (state.deletion.status === 'deleted' ? state : initialState));
    builder.addCase(signedIn, () => initialState);
  },
});

export const {
  dataExportRequested,
  dataExported,
  dataExportFailed,
  accountDeletionRequested,
  accountDeleted,
  accountDeletionFailed,
} = leavingSlice.actions;
export default leavingSlice.reducer;

// Injected when this module loads (with the settings section or the leaving saga): the shell carries none of it.
declare module '@/store/reducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof leavingSlice> {}
}
leavingSlice.injectInto(sharedReducer);

interface WithLeaving {
  leaving?: LeavingState;
}
export const selectLeaving = (state: WithLeaving): LeavingState => state.leaving ?? initialState;
