// The outbox: every message the person sends waits here, in the order it was written, from the
// moment they press Send until the backend acknowledges it. It shows at once in its conversation as pending;
// the outbox saga keeps it in IndexedDB and retries it with backoff; its client-made id is the send's
// idempotency key, so a retry never makes a second message. A message the backend refuses stays as 'refused'
// ("Not sent") until the person retries or deletes it. Drafts, per channel, live beside it.
import { createSelector, createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import { newDocumentId } from '@core/ids';
import type { ChatMessage } from '@core/model';
import type { Attachment } from '@core/attachments';
import type { ReplyQuote } from '@core/replies';
import type { StoredDraft, StoredOutboxEntry, StoredReadMark } from '@/platform/conversationStore';
import { signedOut } from './userSlice';

export interface OutboxEntry {
  id: string;
  channelId: string;
  /** Empty when it carries only a file. */
  text: string;
  /** The file it carries, uploaded already: sent with it under its id. */
  attachments?: Attachment[];
  /** The message it answers (core/replies.ts). */
  replyTo?: ReplyQuote;
  /** When the person sent it, on this device's clock. */
  createdAt: number;
  /** 'queued': waiting its turn or for the network; 'sending': on its way; 'refused': the backend said no. */
  status: 'queued' | 'sending' | 'refused';
  /** Why the last attempt did not go through, in words for the person. */
  error: string | null;
  /** Failed attempts so far (the next waits longer). */
  attempts: number;
}

export interface OutboxState {
  entries: OutboxEntry[];
  /** Drafts by channel id. */
  drafts: Record<string, string>;
  /** Entries found unreadable on this device and dropped (the person is told once). */
  dropped: number;
  /** What this device kept has been read back (until then, unsent messages of an earlier page are not known). */
  restored: boolean;
}

export const initialState: OutboxState = { entries: [], drafts: {}, dropped: 0, restored: false };

const find = (state: OutboxState, id: string): OutboxEntry | undefined =>
  state.entries.find((entry) => entry.id === id);

const outboxSlice = createSlice({
  name: 'outbox',
  initialState,
  reducers: {
    /** The person pressed Send. The id and time are made here, once, so a replayed action makes the same entry. */
    messageSendRequested: {
      reducer(
        state,
        action: PayloadAction<{
          channelId: string;
          text: string;
          attachments?: Attachment[];
          replyTo?: ReplyQuote;
          id: string;
          createdAt: number;
        }>,
      ) {
        const { id, channelId, text, attachments, replyTo, createdAt } = action.payload;
        state.entries.push({
          id,
          channelId,
          text,
          ...(attachments ? { attachments } : {}),
          ...(replyTo ? { replyTo } : {}),
          createdAt,
          status: 'queued',
          error: null,
          attempts: 0,
        });
        delete state.drafts[channelId];
      },
      prepare: (payload: {
        channelId: string;
        text: string;
        attachments?: Attachment[];
        replyTo?: ReplyQuote;
      }) => ({
        payload: { ...payload, id: newDocumentId(), createdAt: Date.now() },
      }),
    },
    outboxSendStarted(state, action: PayloadAction<{ id: string }>) {
      const entry = find(state, action.payload.id);
      if (entry) entry.status = 'sending';
    },
    /** The attempt failed in a way that passes (offline, server busy): it is retried. */
    outboxSendPostponed(state, action: PayloadAction<{ id: string; error: string }>) {
      const entry = find(state, action.payload.id);
      if (!entry) return;
      entry.status = 'queued';
      entry.error = action.payload.error;
      entry.attempts += 1;
    },
    /** The backend refused it (not a member, too long…): it waits for Retry or Delete. */
    outboxSendRefused(state, action: PayloadAction<{ id: string; error: string }>) {
      const entry = find(state, action.payload.id);
      if (!entry) return;
      entry.status = 'refused';
      entry.error = action.payload.error;
    },
    /** The backend has it (the message itself joins its conversation with messagesArrived first). */
    messageAcknowledged(state, action: PayloadAction<{ message: ChatMessage }>) {
      state.entries = state.entries.filter((entry) => entry.id !== action.payload.message.id);
    },
    outboxRetryRequested(state, action: PayloadAction<{ id: string }>) {
      const entry = find(state, action.payload.id);
      if (!entry || entry.status === 'sending') return;
      entry.status = 'queued';
      entry.error = null;
      entry.attempts = 0;
    },
    outboxDeleteRequested(state, action: PayloadAction<{ id: string }>) {
      state.entries = state.entries.filter(
        (entry) => entry.id !== action.payload.id || entry.status === 'sending',
      );
    },
    draftChanged(state, action: PayloadAction<{ channelId: string; text: string }>) {
      if (action.payload.text === '') delete state.drafts[action.payload.channelId];
      else state.drafts[action.payload.channelId] = action.payload.text;
    },
    /** What this device kept for the account: unsent messages (after any sent this session), drafts. */
    conversationsRestored(
      state,
      action: PayloadAction<{
        outbox: StoredOutboxEntry[];
        drafts: StoredDraft[];
        readMarks: StoredReadMark[];
        dropped: number;
      }>,
    ) {
      const { outbox, drafts, dropped } = action.payload;
      const known = new Set(state.entries.map((entry) => entry.id));
      const restored = outbox
        .filter((stored) => !known.has(stored.id))
        .map((stored): OutboxEntry => ({
          id: stored.id,
          channelId: stored.channelId,
          text: stored.text,
          ...(stored.attachments ? { attachments: stored.attachments } : {}),
          ...(stored.replyTo ? { replyTo: stored.replyTo } : {}),
          createdAt: stored.createdAt,
          status: stored.status === 'refused' ? 'refused' : 'queued',
          error: stored.error,
          attempts: 0,
        }));
      state.entries = [...restored, ...state.entries];
      // A draft typed since the page opened wins over the one kept from before.
      for (const draft of drafts) state.drafts[draft.channelId] ??= draft.text;
      state.dropped += dropped;
      state.restored = true;
    },
    droppedNoticeDismissed(state) {
      state.dropped = 0;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
  },
});

export const {
  messageSendRequested,
  outboxSendStarted,
  outboxSendPostponed,
  outboxSendRefused,
  messageAcknowledged,
  outboxRetryRequested,
  outboxDeleteRequested,
  draftChanged,
  conversationsRestored,
  droppedNoticeDismissed,
} = outboxSlice.actions;
export default outboxSlice.reducer;

interface WithOutbox {
  outbox: OutboxState;
}
export const selectOutboxEntries = (state: WithOutbox): OutboxEntry[] => state.outbox.entries;
/** The next message to send: the oldest that is queued (refused ones wait for the person). */
export const selectNextToSend = (state: WithOutbox): OutboxEntry | undefined =>
  state.outbox.entries.find((entry) => entry.status === 'queued');
export const selectOutboxEntry = (state: WithOutbox, id: string): OutboxEntry | undefined =>
  state.outbox.entries.find((entry) => entry.id === id);
export const selectDraft = (state: WithOutbox, channelId: string): string =>
  state.outbox.drafts[channelId] ?? '';
export const selectDroppedCount = (state: WithOutbox): number => state.outbox.dropped;
export const selectOutboxRestored = (state: WithOutbox): boolean => state.outbox.restored;
/** A channel's messages on their way out, in the order they were written. */
export const selectPendingFor = createSelector(
  [selectOutboxEntries, (_state: WithOutbox, channelId: string) => channelId],
  (entries, channelId) => entries.filter((entry) => entry.channelId === channelId),
);
