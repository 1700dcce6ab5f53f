// Messages that reach an open window (spec §5): the in-app notices on screen and the ids already
// handled (a repeated id is skipped). The app badge is the browser's (set from each push's badge_count, and
// cleared with the backend's pending count when the app opens: src/sagas/inboxSaga.ts); unread counts are the
// channel overview's. Plain data only.
import { createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import { channelPath } from '@core/paths';
import type { PushPayload } from '@/protocol/messages';
import { signedOut } from './userSlice';

export interface Notice {
  id: string;
  title: string;
  body: string;
  /** Where the notice leads: the message's channel, or home. */
  path: string;
}

export interface InboxState {
  notices: Notice[];
  /** The newest message ids this page handled, oldest first. */
  seenIds: string[];
  /**
   * The chat messages this page has shown a notice for (from a push or from live data), oldest first:
   * the same message never gets a second notice when it comes both ways.
   */
  noticedIds: string[];
  /** The path of the screen on show (the layout says), for the notices of live messages off the home screen. */
  screenPath: string | null;
}

/** Ids remembered: pushes repeat within minutes, never hundreds of messages later. */
export const SEEN_IDS_KEPT = 200;
/** Notices on screen at once; an older one gives way to a newer. */
export const MAX_NOTICES = 3;

export const initialState: InboxState = {
  notices: [],
  seenIds: [],
  noticedIds: [],
  screenPath: null,
};

/** The chat message a push is about: its data's messageId (both backends send it), else the push's own id. */
export function chatMessageIdOf(messageId: string, payload: PushPayload): string {
  const id = payload.data.messageId;
  return typeof id === 'string' && id !== '' ? id : messageId;
}

function addNotice(state: InboxState, notice: Notice): void {
  if (state.noticedIds.includes(notice.id)) return;
  state.noticedIds = [...state.noticedIds, notice.id].slice(-SEEN_IDS_KEPT);
  state.notices = [...state.notices, notice].slice(-MAX_NOTICES);
}

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
      if (presented) {
        addNotice(state, {
          id: chatMessageIdOf(messageId, payload),
          title: payload.notification.title,
          body: payload.notification.body,
          path: noticePath(payload),
        });
      }
    },
    /**
     * A new message from live data, shown in-app to a person off the home screen (even without push);
     * a message shown already (its push came first) is not shown again.
     */
    liveMessageNoticed(state, action: PayloadAction<{ notice: Notice }>) {
      addNotice(state, action.payload.notice);
    },
    /** The layout shows the screen at `path`. */
    screenShown(state, action: PayloadAction<{ path: string }>) {
      state.screenPath = action.payload.path;
    },
    /** spec §5: a foreground message whose id was already seen is skipped. */
    duplicateMessageSkipped(_state, _action: PayloadAction<{ messageId: string }>) {},
    noticeDismissed(state, action: PayloadAction<{ id: string }>) {
      state.notices = state.notices.filter((n) => n.id !== action.payload.id);
    },
    noticeExpired(state, action: PayloadAction<{ id: string }>) {
      state.notices = state.notices.filter((n) => n.id !== action.payload.id);
    },
  },
  extraReducers: (builder) => {
    // A shared device shows the next person nothing of the last one's messages.
    builder.addCase(signedOut, (state) => ({
      ...initialState,
      seenIds: state.seenIds,
      noticedIds: state.noticedIds,
      screenPath: state.screenPath,
    }));
  },
});

export const {
  pushMessageReceived,
  liveMessageNoticed,
  screenShown,
  duplicateMessageSkipped,
  noticeDismissed,
  noticeExpired,
} = inboxSlice.actions;
export default inboxSlice.reducer;

interface WithInbox {
  inbox: InboxState;
}
export const selectNotices = (state: WithInbox): Notice[] => state.inbox.notices;
export const selectSeenMessageIds = (state: WithInbox): string[] => state.inbox.seenIds;
export const selectNoticedIds = (state: WithInbox): string[] => state.inbox.noticedIds;
export const selectScreenPath = (state: WithInbox): string | null => state.inbox.screenPath;
