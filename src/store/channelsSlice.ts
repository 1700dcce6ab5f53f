// The person's channels (issue #6): the overview list (each channel with its last message and unread count), kept
// live by the channels saga, and the permissions of each channel as check_channel_permissions answers them (spec
// §7; the service banner of spec §2 shows when both are false). Shared by the main screen and services.
import { createSelector, createSlice } from '@reduxjs/toolkit';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { Channel, ChannelOverview, ChannelPermissions, ChatMessage } from '@core/model';
import { compareOverview } from '@core/overview';
import { compareMessages, isOlderVersion } from '@core/messages';

import type { LoadStatus } from './status';
import { signedOut } from './userSlice';

export interface PermissionsEntry {
  status: 'loading' | 'loaded' | 'failed';
  canMessage: boolean;
  isOwner: boolean;
  error: string | null;
}

export interface ChannelsState {
  status: LoadStatus;
  items: ChannelOverview[];
  error: string | null;
  /** The channel open on the main screen (from the URL), whose new messages are read as they arrive. */
  openId: string | null;
  /**
   * How many messages were unread in the open channel when it was opened (its count goes to 0 as it is read): where
   * the conversation's "New messages" divider goes. Null until the overview has said.
   */
  openedUnread: number | null;
  permissions: Record<string, PermissionsEntry>;
}

export const initialState: ChannelsState = {
  status: 'idle',
  items: [],
  error: null,
  openId: null,
  openedUnread: null,
  permissions: {},
};

const channelsSlice = createSlice({
  name: 'channels',
  initialState,
  reducers: {
    overviewRequested(state) {
      if (state.status !== 'loaded') state.status = 'loading';
      state.error = null;
    },
    overviewLoaded(state, action: PayloadAction<{ items: ChannelOverview[] }>) {
      state.status = 'loaded';
      state.items = [...action.payload.items].sort(compareOverview);
      // What the person has open is being read: its count stays at 0 while it is open.
      const open = state.items.find((o) => o.channel.id === state.openId);
      if (open) {
        state.openedUnread ??= open.unread;
        open.unread = 0;
      }
    },
    overviewFailed(state, action: PayloadAction<{ message: string }>) {
      state.status = state.items.length > 0 ? 'loaded' : 'failed';
      state.error = action.payload.message;
    },
    /** A channel was created, edited or joined (live, or by this person's own request). */
    channelChanged(state, action: PayloadAction<{ channel: Channel }>) {
      const { channel } = action.payload;
      const existing = state.items.find((o) => o.channel.id === channel.id);
      if (existing) existing.channel = channel;
      else state.items.push({ channel, lastMessage: null, unread: 0 });
      state.items.sort(compareOverview);
    },
    /**
     * Messages arrived together (live, caught up after a reconnect, or acknowledged after a send here): one action
     * for the whole batch, so a burst is one render. The newest becomes its channel's last message; messages by
     * others newer than the last one known count as unread unless the channel is open.
     */
    messagesArrived(state, action: PayloadAction<{ messages: ChatMessage[]; ownUid: string }>) {
      const { messages, ownUid } = action.payload;
      const byChannel = new Map(state.items.map((o) => [o.channel.id, o]));
      let changed = false;
      for (const message of [...messages].sort(compareMessages)) {
        const overview = byChannel.get(message.channelId);
        if (!overview) continue;
        if (overview.lastMessage !== null && compareMessages(message, overview.lastMessage) <= 0) {
          // Known already, or older than what is known: a repeat never counts twice. A newer version of the last
          // message (edited, deleted: issue #13) replaces it; nothing counts as unread for a change.
          if (overview.lastMessage.id === message.id && !isOlderVersion(message, overview.lastMessage)) {
            overview.lastMessage = message;
          }
          continue;
        }
        overview.lastMessage = message;
        if (message.senderId !== ownUid && state.openId !== message.channelId) overview.unread += 1;
        changed = true;
      }
      if (changed) state.items.sort(compareOverview);
    },
    channelOpened(state, action: PayloadAction<{ id: string | null }>) {
      if (state.openId !== action.payload.id) state.openedUnread = null;
      state.openId = action.payload.id;
      const overview = state.items.find((o) => o.channel.id === action.payload.id);
      if (overview) {
        state.openedUnread ??= overview.unread;
        overview.unread = 0;
      }
    },
    permissionsRequested(state, action: PayloadAction<{ channelId: string }>) {
      const known = state.permissions[action.payload.channelId];
      state.permissions[action.payload.channelId] = {
        status: 'loading',
        canMessage: known?.canMessage ?? false,
        isOwner: known?.isOwner ?? false,
        error: null,
      };
    },
    permissionsLoaded(state, action: PayloadAction<{ channelId: string; result: ChannelPermissions }>) {
      const { canMessage, isOwner } = action.payload.result.permissions;
      state.permissions[action.payload.channelId] = { status: 'loaded', canMessage, isOwner, error: null };
    },
    permissionsFailed(state, action: PayloadAction<{ channelId: string; message: string }>) {
      state.permissions[action.payload.channelId] = {
        status: 'failed',
        canMessage: false,
        isOwner: false,
        error: action.payload.message,
      };
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
  },
});

export const {
  overviewRequested,
  overviewLoaded,
  overviewFailed,
  channelChanged,
  messagesArrived,
  channelOpened,
  permissionsRequested,
  permissionsLoaded,
  permissionsFailed,
} = channelsSlice.actions;
export default channelsSlice.reducer;

interface WithChannels {
  channels: ChannelsState;
}
export const selectChannels = (state: WithChannels): ChannelsState => state.channels;
export const selectOverview = (state: WithChannels): ChannelOverview[] => state.channels.items;
export const selectOpenChannelId = (state: WithChannels): string | null => state.channels.openId;
/** How many messages were unread in `channelId` when it was opened; null when it is not open or not known yet. */
export const selectOpenedUnread = (state: WithChannels, channelId: string): number | null =>
  state.channels.openId === channelId ? state.channels.openedUnread : null;
export const selectChannelPermissions = (
  state: WithChannels,
  channelId: string,
): PermissionsEntry | undefined => state.channels.permissions[channelId];
/** Channel titles by document id, for screens that show a channelId (offers, invitations). */
export const selectChannelTitles = createSelector([selectOverview], (items) =>
  Object.fromEntries(items.map((o) => [o.channel.id, o.channel.title])),
);
/**
 * spec §2: the service banner shows when the person can neither message nor owns the channel; only once the
 * backend has said so, so it never flashes while the permissions load or when they could not be read.
 */
export const selectShowServiceBanner = (state: WithChannels, channelId: string): boolean => {
  const entry = state.channels.permissions[channelId];
  return entry !== undefined && entry.status === 'loaded' && !entry.canMessage && !entry.isOwner;
};
