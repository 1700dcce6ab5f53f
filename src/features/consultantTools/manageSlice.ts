// A consultant's tools on the main screen (issue #6): creating and editing a channel, and its members; and, for
// clients and consultants alike, opening a private consultation (issue #13 part 5).
import { createAction, createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { ChannelMember, NewChannel, NewPrivateChannel } from '@core/model';
import type { LoadStatus } from '@/store/status';
import { signedOut } from '@/store/userSlice';

export interface ManageState {
  members: Record<string, { status: LoadStatus; items: ChannelMember[]; error: string | null }>;
  save: {
    status: 'idle' | 'saving' | 'saved' | 'failed';
    error: string | null;
    /** The channel created or edited by the last save. */
    channelId: string | null;
  };
  /** Opening a private consultation: with whom, and the channel it answered (the screen then opens it). */
  privateChat: {
    status: 'idle' | 'opening' | 'opened' | 'failed';
    withUid: string | null;
    channelId: string | null;
    error: string | null;
  };
}

export const initialState: ManageState = {
  members: {},
  save: { status: 'idle', error: null, channelId: null },
  privateChat: { status: 'idle', withUid: null, channelId: null, error: null },
};

/** "Talk privately with Dana" / "Message Morgan privately" was pressed. */
export const privateChannelRequested = createAction<NewPrivateChannel>('manage/privateChannelRequested');
/** The backend answered the private consultation (new or existing). */
export const privateChannelOpened = createAction<{ channelId: string }>('manage/privateChannelOpened');
export const privateChannelFailed = createAction<{ message: string }>('manage/privateChannelFailed');
/** The screen opened the consultation it was answered (or the person dismissed the error). */
export const privateChannelShown = createAction('manage/privateChannelShown');

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
    membersRequested(state, action: PayloadAction<{ channelId: string }>) {
      const known = state.members[action.payload.channelId];
      state.members[action.payload.channelId] = {
        status: known?.status === 'loaded' ? 'loaded' : 'loading',
        items: known?.items ?? [],
        error: null,
      };
    },
    membersLoaded(state, action: PayloadAction<{ channelId: string; items: ChannelMember[] }>) {
      state.members[action.payload.channelId] = {
        status: 'loaded',
        items: action.payload.items,
        error: null,
      };
    },
    membersFailed(state, action: PayloadAction<{ channelId: string; message: string }>) {
      const known = state.members[action.payload.channelId];
      state.members[action.payload.channelId] = {
        status: known && known.items.length > 0 ? 'loaded' : 'failed',
        items: known?.items ?? [],
        error: action.payload.message,
      };
    },
  },
  extraReducers: (builder) => {
    builder.addCase(privateChannelRequested, (state, action) => {
      state.privateChat = {
        status: 'opening',
        withUid: action.payload.withUid,
        channelId: null,
        error: null,
      };
    });
    builder.addCase(privateChannelOpened, (state, action) => {
      state.privateChat = {
        status: 'opened',
        withUid: state.privateChat.withUid,
        channelId: action.payload.channelId,
        error: null,
      };
    });
    builder.addCase(privateChannelFailed, (state, action) => {
      state.privateChat = { ...state.privateChat, status: 'failed', error: action.payload.message };
    });
    builder.addCase(privateChannelShown, (state) => {
      state.privateChat = initialState.privateChat;
    });
    builder.addCase(signedOut, () => initialState);
  },
});

export const {
  channelCreateRequested,
  channelUpdateRequested,
  channelSaved,
  channelSaveFailed,
  channelSaveDismissed,
  membersRequested,
  membersLoaded,
  membersFailed,
} = manageSlice.actions;
export default manageSlice.reducer;

interface WithManage {
  manage: ManageState;
}
export const selectChannelSave = (state: WithManage) => state.manage.save;
export const selectMembers = (state: WithManage, channelId: string) => state.manage.members[channelId];
export const selectPrivateChat = (state: WithManage) => state.manage.privateChat;
