// Read receipts and typing (core/receipts.ts): the open channel's receipts as the backend lets this person see
// them, who is typing there now, and whether the person shares receipts. Shared by the conversation (the bubbles'
// "Seen", the composer's "Dana is typing…") and settings (the switch), so it lives here; injected when its module
// loads (with the conversation or settings chunk), so the shell carries none of it.
import { createAction, createSelector, createSlice } from '@reduxjs/toolkit';
import type { PayloadAction, WithSlice } from '@reduxjs/toolkit';
import type { Receipt } from '@core/receipts';
import { messagesArrived } from './messages';
import { sharedReducer } from './reducer';
import { signedOut } from './userSlice';

export interface ReceiptSettingsState {
  /** null until read from the backend. */
  enabled: boolean | null;
  status: 'idle' | 'saving' | 'failed';
  error: string | null;
}

export interface ReceiptsState {
  /** Each followed channel's receipts (the other participants' marks the backend discloses). */
  byChannel: Record<string, Receipt[]>;
  /** Who is typing now, by channel, then uid: their name. Each leaves a few seconds after their last signal. */
  typing: Record<string, Record<string, string>>;
  settings: ReceiptSettingsState;
}

export const initialState: ReceiptsState = {
  byChannel: {},
  typing: {},
  settings: { enabled: null, status: 'idle', error: null },
};

const receiptsSlice = createSlice({
  name: 'receipts',
  initialState,
  reducers: {
    /** The channel's receipts as they now stand (read, or changed live). */
    receiptsLoaded(state, action: PayloadAction<{ channelId: string; receipts: Receipt[] }>) {
      state.byChannel[action.payload.channelId] = action.payload.receipts;
    },
    /** Someone else signalled they are typing in the channel. */
    typingSignalled(state, action: PayloadAction<{ channelId: string; uid: string; name: string }>) {
      const { channelId, uid, name } = action.payload;
      (state.typing[channelId] ??= {})[uid] = name;
    },
    /** Their last signal is a few seconds old: they stopped. */
    typingExpired(state, action: PayloadAction<{ channelId: string; uid: string }>) {
      delete state.typing[action.payload.channelId]?.[action.payload.uid];
    },
    /** The live connection dropped: whoever was typing is unknown now (signals resume when they type on). */
    typingCleared(state) {
      state.typing = {};
    },
    receiptSettingsLoaded(state, action: PayloadAction<{ enabled: boolean }>) {
      state.settings = { enabled: action.payload.enabled, status: 'idle', error: null };
    },
    receiptSettingsRequested(state, action: PayloadAction<{ enabled: boolean }>) {
      state.settings = { enabled: action.payload.enabled, status: 'saving', error: null };
    },
    receiptSettingsSaved(state, action: PayloadAction<{ enabled: boolean }>) {
      state.settings = { enabled: action.payload.enabled, status: 'idle', error: null };
      // What was shown was shown under the old choice: read again.
      state.byChannel = {};
    },
    receiptSettingsFailed(state, action: PayloadAction<{ enabled: boolean | null; message: string }>) {
      state.settings = { enabled: action.payload.enabled, status: 'failed', error: action.payload.message };
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
    // Their message came: they are no longer typing it.
    builder.addCase(messagesArrived, (state, action) => {
      for (const message of action.payload.messages)
        delete state.typing[message.channelId]?.[message.senderId];
    });
  },
});

export const {
  receiptsLoaded,
  typingSignalled,
  typingExpired,
  typingCleared,
  receiptSettingsLoaded,
  receiptSettingsRequested,
  receiptSettingsSaved,
  receiptSettingsFailed,
} = receiptsSlice.actions;
export default receiptsSlice.reducer;

/** Messages by others reached this device: a delivered mark waits to be sent (no state of its own). */
export const deliveredNoted = createAction('receipts/deliveredNoted');

declare module '@/store/reducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof receiptsSlice> {}
}
receiptsSlice.injectInto(sharedReducer);

interface WithReceipts {
  receipts?: ReceiptsState;
}
const NONE: Receipt[] = [];
export const selectReceipts = (state: WithReceipts, channelId: string): Receipt[] =>
  state.receipts?.byChannel[channelId] ?? NONE;
const selectTypingIn = (state: WithReceipts, channelId: string) => state.receipts?.typing[channelId];
/** The names of those typing in the channel now, in the order they began. */
export const selectTypingNames = createSelector([selectTypingIn], (typers) =>
  typers ? Object.values(typers) : [],
);
export const selectReceiptSettings = (state: WithReceipts): ReceiptSettingsState =>
  state.receipts?.settings ?? initialState.settings;
