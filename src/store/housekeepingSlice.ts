// A consultant's housekeeping (core/housekeeping.ts): archive or restore a channel, delete it after its notice was
// shown, hand it over, remove a member, revoke an invitation, withdraw an offer. Each request is one step keyed by
// what it acts on, so two buttons never share a "Working…" or an error. Its actions are named `manage/…`: the
// consultant tools' saga (src/app/lazySagas.ts loads it at the first `manage/` action) handles them, and the shell
// carries none of this; its state lives at `housekeeping`.
import { createAction, createSlice } from '@reduxjs/toolkit';
import type { PayloadAction, WithSlice } from '@reduxjs/toolkit';
import type { ChannelRemoval } from '@/backend/ports';
import { sharedReducer } from '@/store/reducer';
import { signedOut } from '@/store/userSlice';

export interface Step {
  status: 'working' | 'done' | 'failed';
  error: string | null;
}

export interface RemovalNotice {
  status: 'loading' | 'loaded' | 'failed';
  value: ChannelRemoval | null;
  error: string | null;
}

export interface HousekeepingState {
  /** By stepKey(kind, target). */
  steps: Record<string, Step>;
  /** What archiving and deleting would do, by channel id, read before either is offered. */
  notices: Record<string, RemovalNotice>;
  /** Channels gone for this person while signed in (deleted, or they were taken out): an open one says so. */
  gone: string[];
}

export const initialState: HousekeepingState = { steps: {}, notices: {}, gone: [] };

/**
 * Live: a channel is gone for this person. Not a `manage/` action: a client's window has it too, and must not
 * load the consultant tools for it.
 */
export const channelRemoved = createAction<{ channelId: string }>('housekeeping/channelRemoved');

export type StepKind = 'archive' | 'unarchive' | 'delete' | 'handOver' | 'remove' | 'revoke' | 'withdraw';

/** The key of one step: its kind and what it acts on (a member is `channelId/uid`). */
export const stepKey = (kind: StepKind, target: string): string => `${kind}:${target}`;

const working = (state: HousekeepingState, key: string): void => {
  state.steps[key] = { status: 'working', error: null };
};

const housekeepingSlice = createSlice({
  name: 'manage',
  reducerPath: 'housekeeping',
  initialState,
  reducers: {
    removalNoticeRequested(state, action: PayloadAction<{ channelId: string }>) {
      const known = state.notices[action.payload.channelId];
      state.notices[action.payload.channelId] = {
        status: 'loading',
        value: known?.value ?? null,
        error: null,
      };
    },
    removalNoticeLoaded(state, action: PayloadAction<{ channelId: string; removal: ChannelRemoval }>) {
      state.notices[action.payload.channelId] = {
        status: 'loaded',
        value: action.payload.removal,
        error: null,
      };
    },
    removalNoticeFailed(state, action: PayloadAction<{ channelId: string; message: string }>) {
      state.notices[action.payload.channelId] = {
        status: 'failed',
        value: null,
        error: action.payload.message,
      };
    },
    archiveRequested(state, action: PayloadAction<{ channelId: string }>) {
      working(state, stepKey('archive', action.payload.channelId));
    },
    unarchiveRequested(state, action: PayloadAction<{ channelId: string }>) {
      working(state, stepKey('unarchive', action.payload.channelId));
    },
    channelDeleteRequested(state, action: PayloadAction<{ channelId: string }>) {
      working(state, stepKey('delete', action.payload.channelId));
    },
    handOverRequested(state, action: PayloadAction<{ channelId: string; toUid: string }>) {
      working(state, stepKey('handOver', action.payload.channelId));
    },
    memberRemoveRequested(state, action: PayloadAction<{ channelId: string; uid: string }>) {
      working(state, stepKey('remove', `${action.payload.channelId}/${action.payload.uid}`));
    },
    invitationRevokeRequested(state, action: PayloadAction<{ invitationId: string; channelId: string }>) {
      working(state, stepKey('revoke', action.payload.invitationId));
    },
    offerWithdrawRequested(state, action: PayloadAction<{ offerId: string }>) {
      working(state, stepKey('withdraw', action.payload.offerId));
    },
    stepDone(state, action: PayloadAction<{ key: string }>) {
      state.steps[action.payload.key] = { status: 'done', error: null };
    },
    stepFailed(state, action: PayloadAction<{ key: string; message: string }>) {
      state.steps[action.payload.key] = { status: 'failed', error: action.payload.message };
    },
    /** The person closed what the step said (its error, or its "done"). */
    stepDismissed(state, action: PayloadAction<{ key: string }>) {
      delete state.steps[action.payload.key];
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
    builder.addCase(channelRemoved, (state, action) => {
      if (!state.gone.includes(action.payload.channelId)) state.gone.push(action.payload.channelId);
    });
  },
});

export const {
  removalNoticeRequested,
  removalNoticeLoaded,
  removalNoticeFailed,
  archiveRequested,
  unarchiveRequested,
  channelDeleteRequested,
  handOverRequested,
  memberRemoveRequested,
  invitationRevokeRequested,
  offerWithdrawRequested,
  stepDone,
  stepFailed,
  stepDismissed,
} = housekeepingSlice.actions;
export default housekeepingSlice.reducer;

declare module '@/store/reducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof housekeepingSlice> {}
}
housekeepingSlice.injectInto(sharedReducer);

interface WithHousekeeping {
  housekeeping?: HousekeepingState;
}
export const selectStep = (state: WithHousekeeping, key: string): Step | undefined =>
  state.housekeeping?.steps[key];
export const selectRemovalNotice = (state: WithHousekeeping, channelId: string): RemovalNotice | undefined =>
  state.housekeeping?.notices[channelId];
export const selectChannelGone = (state: WithHousekeeping, channelId: string): boolean =>
  state.housekeeping?.gone.includes(channelId) === true;
