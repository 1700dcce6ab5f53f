// A channel's people: who is in each channel, as the conversation (a client's "Talk privately with Dana") and the
// consultant's tools (the members tab) both show them, and opening a private consultation with one of them, from
// either place. Shared by those two features, so it lives here; injected when its module loads (with the
// conversation view or the consultant tools), so the shell carries none of it.
import { createAction, createSlice } from '@reduxjs/toolkit';
import type { PayloadAction, WithSlice } from '@reduxjs/toolkit';
import type { ChannelMember, NewPrivateChannel } from '@core/model';
import { sharedReducer } from './reducer';
import type { LoadStatus } from './status';
import { signedOut } from './userSlice';

export interface ChannelMembers {
  status: LoadStatus;
  items: ChannelMember[];
  error: string | null;
}

export interface MembersState {
  byChannel: Record<string, ChannelMembers>;
  /** Opening a private consultation: with whom, and the channel it answered (the screen then opens it). */
  privateChat: {
    status: 'idle' | 'opening' | 'opened' | 'failed';
    withUid: string | null;
    channelId: string | null;
    error: string | null;
  };
}

export const initialState: MembersState = {
  byChannel: {},
  privateChat: { status: 'idle', withUid: null, channelId: null, error: null },
};

/** "Talk privately with Dana" / "Message Morgan privately" was pressed. */
export const privateChannelRequested = createAction<NewPrivateChannel>('members/privateChannelRequested');
/** The backend answered the private consultation (new or existing). */
export const privateChannelOpened = createAction<{ channelId: string }>('members/privateChannelOpened');
export const privateChannelFailed = createAction<{ message: string }>('members/privateChannelFailed');
/** The screen opened the consultation it was answered (or the person dismissed the error). */
export const privateChannelShown = createAction('members/privateChannelShown');

const membersSlice = createSlice({
  name: 'members',
  initialState,
  reducers: {
    membersRequested(state, action: PayloadAction<{ channelId: string }>) {
      const known = state.byChannel[action.payload.channelId];
      state.byChannel[action.payload.channelId] = {
        status: known?.status === 'loaded' ? 'loaded' : 'loading',
        items: known?.items ?? [],
        error: null,
      };
    },
    membersLoaded(state, action: PayloadAction<{ channelId: string; items: ChannelMember[] }>) {
      state.byChannel[action.payload.channelId] = {
        status: 'loaded',
        items: action.payload.items,
        error: null,
      };
    },
    membersFailed(state, action: PayloadAction<{ channelId: string; message: string }>) {
      const known = state.byChannel[action.payload.channelId];
      state.byChannel[action.payload.channelId] = {
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

export const { membersRequested, membersLoaded, membersFailed } = membersSlice.actions;
export default membersSlice.reducer;

declare module '@/store/reducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof membersSlice> {}
}
membersSlice.injectInto(sharedReducer);

interface WithMembers {
  members?: MembersState;
}
export const selectMembers = (state: WithMembers, channelId: string): ChannelMembers | undefined =>
  state.members?.byChannel[channelId];
/** A member's name as the channel's people list has it now (null while that list is not loaded). */
export const selectCurrentName = (state: WithMembers, channelId: string, uid: string): string | null =>
  state.members?.byChannel[channelId]?.items.find((member) => member.uid === uid)?.name ?? null;
export const selectPrivateChat = (state: WithMembers) =>
  state.members?.privateChat ?? initialState.privateChat;
