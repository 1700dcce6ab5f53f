// Messages that reach an open window (issue #5 part 3, spec §5): the in-app notices on screen, the ids already
// handled (a repeated id is skipped), unread counts per channel, the app badge's count, and the clearing of the
// backend's pending count when the app is opened (a channel's own opening is issue #6's channelsSaga). Plain
// data only.
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import { channelPath } from '@core/paths';
import type { PushPayload } from '@/protocol/messages';
import { channelOpened } from './channelsSlice';
import { signedOut } from './userSlice';

export interface Notice {
  id: string;
  title: string;
  body: string;
  /** Where the notice leads: the message's channel, or home. */
  path: string;
}

export type PendingClearStatus = 'idle' | 'clearing' | 'cleared' | 'failed';

export interface InboxState {
  notices: Notice[];
  /** The newest message ids this page handled, oldest first. */
  seenIds: string[];
  unreadByChannel: Record<string, number>;
  badgeCount: number;
  pendingClear: PendingClearStatus;
}

/** Ids remembered: pushes repeat within minutes, never hundreds of messages later. */
export const SEEN_IDS_KEPT = 200;
/** Notices on screen at once; an older one gives way to a newer. */
export const MAX_NOTICES = 3;

export const initialState: InboxState = {
  notices: [],
  seenIds: [],
  unreadByChannel: {},
  badgeCount: 0,
  pendingClear: 'idle',
};

export function noticePath(payload: PushPayload): string {
  const channelId = payload.data.channelId;
  return channelId ? channelPath(channelId) : '/';
}

const inboxSlice = createSlice({
  name: 'inbox',
  initialState,
  reducers: {
    /** A PUSH_MSG not seen before; `presented` when this page shows it in-app (it then told the worker). */
    pushMessageReceived(
      state,
      action: PayloadAction<{ messageId: string; payload: PushPayload; presented: boolean }>,
    ) {
      const { messageId, payload, presented } = action.payload;
      state.seenIds = [...state.seenIds, messageId].slice(-SEEN_IDS_KEPT);
      state.badgeCount = payload.data.badge_count;
      const channelId = payload.data.channelId;
      if (channelId) state.unreadByChannel[channelId] = (state.unreadByChannel[channelId] ?? 0) + 1;
      if (presented) {
        const notice: Notice = {
          id: messageId,
          title: payload.notification.title,
          body: payload.notification.body,
          path: noticePath(payload),
        };
        state.notices = [...state.notices, notice].slice(-MAX_NOTICES);
      }
    },
    /** spec §5: a foreground message whose id was already seen is skipped. */
    duplicateMessageSkipped(_state, _action: PayloadAction<{ messageId: string }>) {},
    noticeDismissed(state, action: PayloadAction<{ id: string }>) {
      state.notices = state.notices.filter((n) => n.id !== action.payload.id);
    },
    noticeExpired(state, action: PayloadAction<{ id: string }>) {
      state.notices = state.notices.filter((n) => n.id !== action.payload.id);
    },
    pendingClearStarted(state) {
      state.pendingClear = 'clearing';
      state.badgeCount = 0;
    },
    pendingCleared(state) {
      state.pendingClear = 'cleared';
    },
    pendingClearFailed(state, _action: PayloadAction<{ error: string }>) {
      state.pendingClear = 'failed';
    },
  },
  extraReducers: (builder) => {
    // Opening a channel's conversation (issue #6; its saga clears the backend's pending count) reads it.
    builder.addCase(channelOpened, (state, action) => {
      if (action.payload.id === null) return;
      delete state.unreadByChannel[action.payload.id];
      state.badgeCount = 0;
    });
    // A shared device shows the next person nothing of the last one's messages.
    builder.addCase(signedOut, (state) => ({ ...initialState, seenIds: state.seenIds }));
  },
});

export const {
  pushMessageReceived,
  duplicateMessageSkipped,
  noticeDismissed,
  noticeExpired,
  pendingClearStarted,
  pendingCleared,
  pendingClearFailed,
} = inboxSlice.actions;
export default inboxSlice.reducer;

interface WithInbox {
  inbox: InboxState;
}
export const selectNotices = (state: WithInbox): Notice[] => state.inbox.notices;
export const selectSeenMessageIds = (state: WithInbox): string[] => state.inbox.seenIds;
export const selectUnreadByChannel = (state: WithInbox): Record<string, number> =>
  state.inbox.unreadByChannel;
export const selectBadgeCount = (state: WithInbox): number => state.inbox.badgeCount;
