// The person's channels: the overview list (each channel with its last message and unread count), kept
// live by the channels saga, and the permissions of each channel as check_channel_permissions answers them (spec
// §7; the service banner of spec §2 shows when both are false). Shared by the main screen and services. The overview
// is an entity adapter's (one entry per channel, kept in core/overview.ts's order by the adapter).
import { createEntityAdapter, createSelector, createSlice } from '@reduxjs/toolkit';
import type { EntityState, PayloadAction } from '@reduxjs/toolkit';
import type { Channel, ChannelOverview, ChannelPermissions } from '@core/model';
import { compareOverview } from '@core/overview';
import { compareMessages, isOlderVersion } from '@core/messages';

import { messagesArrived } from './messages';
import type { LoadStatus } from './status';
import { signedOut } from './userSlice';

const overviewAdapter = createEntityAdapter({
  selectId: (overview: ChannelOverview) => overview.channel.id,
  sortComparer: compareOverview,
});

export interface PermissionsEntry {
  status: 'loading' | 'loaded' | 'failed';
  canMessage: boolean;
  isOwner: boolean;
  error: string | null;
}

/** The overview (`ids` newest activity first, `entities` by channel id) and what goes with it. */
export interface ChannelsState extends EntityState<ChannelOverview, string> {
  status: LoadStatus;
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

export const initialState: ChannelsState = overviewAdapter.getInitialState({
  status: 'idle' as LoadStatus,
  error: null,
  openId: null,
  openedUnread: null,
  permissions: {},
});

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
      overviewAdapter.setAll(state, action.payload.items);
      // What the person has open is being read: its count stays at 0 while it is open.
      const open = state.openId === null ? undefined : state.entities[state.openId];
      if (open) {
        state.openedUnread ??= open.unread;
        open.unread = 0;
      }
    },
    overviewFailed(state, action: PayloadAction<{ message: string }>) {
      state.status = state.ids.length > 0 ? 'loaded' : 'failed';
      state.error = action.payload.message;
    },
    /** A channel was created, edited or joined (live, or by this person's own request). */
    channelChanged(state, action: PayloadAction<{ channel: Channel }>) {
      const { channel } = action.payload;
      if (state.entities[channel.id])
        overviewAdapter.updateOne(state, { id: channel.id, changes: { channel } });
      else overviewAdapter.addOne(state, { channel, lastMessage: null, unread: 0 });
    },
    channelOpened(state, action: PayloadAction<{ id: string | null }>) {
      if (state.openId !== action.payload.id) state.openedUnread = null;
      state.openId = action.payload.id;
      const overview = action.payload.id === null ? undefined : state.entities[action.payload.id];
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
    // The newest message of a batch becomes its channel's last message; messages by others newer than the last one
    // known count as unread unless the channel is open. Changed entries go back through the adapter, which keeps
    // the list's order.
    builder.addCase(messagesArrived, (state, action) => {
      const { messages, ownUid } = action.payload;
      const changed = new Map<string, ChannelOverview>();
      for (const message of [...messages].sort(compareMessages)) {
        const overview = changed.get(message.channelId) ?? state.entities[message.channelId];
        if (!overview) continue;
        const last = overview.lastMessage;
        if (last !== null && compareMessages(message, last) <= 0) {
          // Known already, or older than what is known: a repeat never counts twice. A newer version of the last
          // message (edited, deleted) replaces it; nothing counts as unread for a change.
          if (last.id === message.id && !isOlderVersion(message, last)) {
            changed.set(message.channelId, { ...overview, lastMessage: message });
          }
          continue;
        }
        const unread = message.senderId !== ownUid && state.openId !== message.channelId;
        changed.set(message.channelId, {
          ...overview,
          lastMessage: message,
          unread: overview.unread + (unread ? 1 : 0),
        });
      }
      if (changed.size > 0) overviewAdapter.setMany(state, [...changed.values()]);
    });
  },
});

export const {
  overviewRequested,
  overviewLoaded,
  overviewFailed,
  channelChanged,
  channelOpened,
  permissionsRequested,
  permissionsLoaded,
  permissionsFailed,
} = channelsSlice.actions;
export default channelsSlice.reducer;

interface WithChannels {
  channels: ChannelsState;
}
const overviewSelectors = overviewAdapter.getSelectors((state: WithChannels) => state.channels);
export const selectChannels = (state: WithChannels): ChannelsState => state.channels;
/** The overview, newest activity first. */
export const selectOverview: (state: WithChannels) => ChannelOverview[] = overviewSelectors.selectAll;
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
