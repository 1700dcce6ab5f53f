// A consultant's tools: creating a channel and editing one. Who is in a channel, and private consultations, are
// src/store/membersSlice.ts (the conversation shows them too).
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction, WithSlice } from '@reduxjs/toolkit';
import type { NewChannel } from '@core/model';
import { sharedReducer } from '@/store/reducer';
import { signedOut } from '@/store/userSlice';

export interface ManageState {
  save: {
    status: 'idle' | 'saving' | 'saved' | 'failed';
    error: string | null;
    /** The channel created or edited by the last save. */
    channelId: string | null;
  };
}

export const initialState: ManageState = {
  save: { status: 'idle', error: null, channelId: null },
};

const manageSlice = createSlice({
  name: 'manage',
  initialState,
  reducers: {
    channelCreateRequested(state, _action: PayloadAction<NewChannel>) {
      state.save = { status: 'saving', error: null, channelId: null };
    },
    channelUpdateRequested(
      state,
      action: PayloadAction<{ id: string; patch: { title?: string; description?: string } }>,
    ) {
      state.save = { status: 'saving', error: null, channelId: action.payload.id };
    },
    channelSaved(state, action: PayloadAction<{ channelId: string }>) {
      state.save = { status: 'saved', error: null, channelId: action.payload.channelId };
    },
    channelSaveFailed(state, action: PayloadAction<{ message: string }>) {
      state.save = { ...state.save, status: 'failed', error: action.payload.message };
    },
    channelSaveDismissed(state) {
      state.save = initialState.save;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
  },
});

export const {
  channelCreateRequested,
  channelUpdateRequested,
  channelSaved,
  channelSaveFailed,
  channelSaveDismissed,
} = manageSlice.actions;
export default manageSlice.reducer;

// Injected when this module loads (with the consultant tools' chunk): the shell carries none of it.
declare module '@/store/reducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof manageSlice> {}
}
manageSlice.injectInto(sharedReducer);

interface WithManage {
  manage?: ManageState;
}
export const selectChannelSave = (state: WithManage) => state.manage?.save ?? initialState.save;
