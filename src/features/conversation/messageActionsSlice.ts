// Editing and deleting one's messages on the main screen: which message is open for editing
// (one at a time), and each change on its way to the backend or refused, with the refusal in words. What a change
// makes of the message itself arrives like any message (messagesArrived, src/store/messages.ts: the newer version wins).
import { createSlice } from '@reduxjs/toolkit';
import type { WithSlice } from '@reduxjs/toolkit';
import { sharedReducer } from '@/store/reducer';
import type { PayloadAction } from '@reduxjs/toolkit';
import { signedOut } from '@/store/userSlice';

export type MessageChangeKind = 'edit' | 'delete';

export interface MessageChangeRequest {
  kind: MessageChangeKind;
  status: 'saving' | 'failed';
  error: string | null;
}

export interface MessageActionsState {
  /** The message whose text is being edited in its bubble, or null. */
  editing: { channelId: string; messageId: string } | null;
  /** Changes under way or refused, by message id. */
  requests: Record<string, MessageChangeRequest>;
}

export const initialState: MessageActionsState = { editing: null, requests: {} };

const messageActionsSlice = createSlice({
  name: 'messageActions',
  initialState,
  reducers: {
    /** The person chose Edit on one of their messages. */
    messageEditOpened(state, action: PayloadAction<{ channelId: string; messageId: string }>) {
      state.editing = action.payload;
      delete state.requests[action.payload.messageId];
    },
    /** The person left the editor without saving (Escape, Cancel). */
    messageEditClosed(state) {
      if (state.editing) delete state.requests[state.editing.messageId];
      state.editing = null;
    },
    messageEditRequested(
      state,
      action: PayloadAction<{ channelId: string; messageId: string; text: string }>,
    ) {
      state.requests[action.payload.messageId] = { kind: 'edit', status: 'saving', error: null };
    },
    messageDeleteRequested(state, action: PayloadAction<{ channelId: string; messageId: string }>) {
      state.requests[action.payload.messageId] = { kind: 'delete', status: 'saving', error: null };
    },
    /** The backend stored the change (the message itself arrives through messagesArrived). */
    messageChangeSaved(state, action: PayloadAction<{ messageId: string }>) {
      delete state.requests[action.payload.messageId];
      if (state.editing?.messageId === action.payload.messageId) state.editing = null;
    },
    messageChangeFailed(
      state,
      action: PayloadAction<{ messageId: string; kind: MessageChangeKind; message: string }>,
    ) {
      const { messageId, kind, message } = action.payload;
      state.requests[messageId] = { kind, status: 'failed', error: message };
    },
    /** The person put a refusal's words away. */
    messageChangeErrorDismissed(state, action: PayloadAction<{ messageId: string }>) {
      delete state.requests[action.payload.messageId];
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
  },
});

export const {
  messageEditOpened,
  messageEditClosed,
  messageEditRequested,
  messageDeleteRequested,
  messageChangeSaved,
  messageChangeFailed,
  messageChangeErrorDismissed,
} = messageActionsSlice.actions;
export default messageActionsSlice.reducer;

// Injected when this module loads (with the part of the app that uses it): the shell carries none of it.
declare module '@/store/reducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof messageActionsSlice> {}
}
messageActionsSlice.injectInto(sharedReducer);

interface WithMessageActions {
  messageActions?: MessageActionsState;
}
/** Whether `messageId` is open for editing. */
export const selectIsEditing = (state: WithMessageActions, messageId: string): boolean =>
  state.messageActions?.editing?.messageId === messageId;
export const selectMessageChange = (
  state: WithMessageActions,
  messageId: string,
): MessageChangeRequest | undefined => state.messageActions?.requests[messageId];
