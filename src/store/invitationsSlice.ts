// Invitations: the one an invitee is looking at (/invite/:id, /activate/:id) with its accept and
// activate, the ones waiting for the signed-in person (kept live), and a consultant's invitations per
// channel with the one being created. Failures keep the backend's status and reason, so each screen can say which
// of expired, used, not found or not yours it is.
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { InvitationPreview } from '@core/invitations';
import type { Invitation, NewInvitation } from '@core/model';
import type { LoadStatus, PlainFailure } from './status';
import { signedOut } from './userSlice';

/** An accept or activate, of the invitation `id`: an answer about another invitation never lands on it. */
type Step = { status: 'idle' | 'sending' | 'done' | 'failed'; error: PlainFailure | null; id: string | null };
const idle: Step = { status: 'idle', error: null, id: null };

export interface InvitationsState {
  /** What anyone with the link sees of the invitation, signed in or not. */
  preview: {
    id: string | null;
    status: LoadStatus;
    preview: InvitationPreview | null;
    error: PlainFailure | null;
  };
  viewed: {
    id: string | null;
    status: LoadStatus;
    invitation: Invitation | null;
    error: PlainFailure | null;
  };
  accept: Step;
  activate: Step & { granted: { passes: number; credits: number } | null };
  /** The invitations naming the person's email that they can still accept, newest first. */
  mine: { status: LoadStatus; items: Invitation[]; error: string | null };
  byChannel: Record<string, { status: LoadStatus; items: Invitation[]; error: string | null }>;
  create: {
    status: 'idle' | 'sending' | 'created' | 'failed';
    error: string | null;
    created: Invitation | null;
  };
}

export const initialState: InvitationsState = {
  preview: { id: null, status: 'idle', preview: null, error: null },
  viewed: { id: null, status: 'idle', invitation: null, error: null },
  accept: idle,
  activate: { ...idle, granted: null },
  mine: { status: 'idle', items: [], error: null },
  byChannel: {},
  create: { status: 'idle', error: null, created: null },
};

const invitationsSlice = createSlice({
  name: 'invitations',
  initialState,
  reducers: {
    previewRequested(state, action: PayloadAction<{ id: string }>) {
      const sameOne = state.preview.id === action.payload.id && state.preview.preview !== null;
      state.preview = {
        id: action.payload.id,
        status: sameOne ? 'loaded' : 'loading',
        preview: sameOne ? state.preview.preview : null,
        error: null,
      };
    },
    previewLoaded(state, action: PayloadAction<{ preview: InvitationPreview }>) {
      if (state.preview.id !== action.payload.preview.id) return;
      state.preview = { ...state.preview, status: 'loaded', preview: action.payload.preview, error: null };
    },
    previewFailed(state, action: PayloadAction<{ id: string; error: PlainFailure }>) {
      if (state.preview.id !== action.payload.id) return;
      state.preview = { ...state.preview, status: 'failed', error: action.payload.error };
    },
    invitationRequested(state, action: PayloadAction<{ id: string }>) {
      const sameOne = state.viewed.id === action.payload.id;
      state.viewed = {
        id: action.payload.id,
        status: sameOne && state.viewed.invitation ? 'loaded' : 'loading',
        invitation: sameOne ? state.viewed.invitation : null,
        error: null,
      };
      if (!sameOne) {
        state.accept = idle;
        state.activate = { ...idle, granted: null };
      }
    },
    invitationLoaded(state, action: PayloadAction<{ invitation: Invitation }>) {
      if (state.viewed.id !== action.payload.invitation.id) return;
      state.viewed = {
        ...state.viewed,
        status: 'loaded',
        invitation: action.payload.invitation,
        error: null,
      };
    },
    invitationFailed(state, action: PayloadAction<{ id: string; error: PlainFailure }>) {
      if (state.viewed.id !== action.payload.id) return;
      state.viewed = { ...state.viewed, status: 'failed', error: action.payload.error };
    },
    acceptRequested(state, action: PayloadAction<{ id: string }>) {
      state.accept = { status: 'sending', error: null, id: action.payload.id };
    },
    accepted(state, action: PayloadAction<{ invitation: Invitation }>) {
      const { id } = action.payload.invitation;
      if (state.accept.id === id) state.accept = { status: 'done', error: null, id };
      if (state.viewed.id === action.payload.invitation.id)
        state.viewed.invitation = action.payload.invitation;
      // No longer waiting: it leaves the home screen at once (the backend's list agrees when it is read again).
      state.mine.items = state.mine.items.filter((i) => i.id !== action.payload.invitation.id);
    },
    acceptFailed(state, action: PayloadAction<{ id: string; error: PlainFailure }>) {
      const { id, error } = action.payload;
      if (state.accept.id === id) state.accept = { status: 'failed', error, id };
    },
    activateRequested(state, action: PayloadAction<{ id: string }>) {
      state.activate = { status: 'sending', error: null, id: action.payload.id, granted: null };
    },
    activated(state, action: PayloadAction<{ invitation: Invitation }>) {
      const { invitation } = action.payload;
      if (state.activate.id === invitation.id)
        state.activate = {
          status: 'done',
          error: null,
          id: invitation.id,
          granted: { passes: invitation.passes, credits: invitation.credits },
        };
      if (state.viewed.id === invitation.id) state.viewed.invitation = invitation;
    },
    activateFailed(state, action: PayloadAction<{ id: string; error: PlainFailure }>) {
      const { id, error } = action.payload;
      if (state.activate.id === id) state.activate = { status: 'failed', error, id, granted: null };
    },
    myInvitationsRequested(state) {
      state.mine = {
        ...state.mine,
        status: state.mine.status === 'loaded' ? 'loaded' : 'loading',
        error: null,
      };
    },
    myInvitationsLoaded(state, action: PayloadAction<{ items: Invitation[] }>) {
      state.mine = { status: 'loaded', items: action.payload.items, error: null };
    },
    myInvitationsFailed(state, action: PayloadAction<{ message: string }>) {
      // What was shown stays (a failed re-read offline); a first read that failed says so.
      state.mine = {
        ...state.mine,
        status: state.mine.status === 'loaded' ? 'loaded' : 'failed',
        error: action.payload.message,
      };
    },
    channelInvitationsRequested(state, action: PayloadAction<{ channelId: string }>) {
      const known = state.byChannel[action.payload.channelId];
      state.byChannel[action.payload.channelId] = {
        status: known?.status === 'loaded' ? 'loaded' : 'loading',
        items: known?.items ?? [],
        error: null,
      };
    },
    channelInvitationsLoaded(state, action: PayloadAction<{ channelId: string; items: Invitation[] }>) {
      state.byChannel[action.payload.channelId] = {
        status: 'loaded',
        items: action.payload.items,
        error: null,
      };
    },
    channelInvitationsFailed(state, action: PayloadAction<{ channelId: string; message: string }>) {
      const known = state.byChannel[action.payload.channelId];
      state.byChannel[action.payload.channelId] = {
        status: known && known.items.length > 0 ? 'loaded' : 'failed',
        items: known?.items ?? [],
        error: action.payload.message,
      };
    },
    invitationCreateRequested(state, _action: PayloadAction<NewInvitation>) {
      state.create = { status: 'sending', error: null, created: null };
    },
    invitationCreated(state, action: PayloadAction<{ invitation: Invitation }>) {
      const { invitation } = action.payload;
      state.create = { status: 'created', error: null, created: invitation };
      const list = state.byChannel[invitation.channelId];
      if (list) list.items = [invitation, ...list.items.filter((i) => i.id !== invitation.id)];
    },
    invitationCreateFailed(state, action: PayloadAction<{ message: string }>) {
      state.create = { status: 'failed', error: action.payload.message, created: null };
    },
    invitationCreateDismissed(state) {
      state.create = initialState.create;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
  },
});

export const {
  previewRequested,
  previewLoaded,
  previewFailed,
  invitationRequested,
  invitationLoaded,
  invitationFailed,
  acceptRequested,
  accepted,
  acceptFailed,
  activateRequested,
  activated,
  activateFailed,
  myInvitationsRequested,
  myInvitationsLoaded,
  myInvitationsFailed,
  channelInvitationsRequested,
  channelInvitationsLoaded,
  channelInvitationsFailed,
  invitationCreateRequested,
  invitationCreated,
  invitationCreateFailed,
  invitationCreateDismissed,
} = invitationsSlice.actions;
export default invitationsSlice.reducer;

interface WithInvitations {
  invitations: InvitationsState;
}
export const selectInvitationPreview = (state: WithInvitations) => state.invitations.preview;
export const selectViewedInvitation = (state: WithInvitations) => state.invitations.viewed;
export const selectAcceptStep = (state: WithInvitations) => state.invitations.accept;
export const selectActivateStep = (state: WithInvitations) => state.invitations.activate;
export const selectMyInvitations = (state: WithInvitations) => state.invitations.mine;
export const selectInvitationCreate = (state: WithInvitations) => state.invitations.create;
export const selectChannelInvitations = (state: WithInvitations, channelId: string) =>
  state.invitations.byChannel[channelId];
