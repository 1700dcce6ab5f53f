// Messages that arrived: the one event both the channel list (src/store/channelsSlice.ts: each channel's last
// message and unread count) and the conversations (src/store/conversationSlice.ts: the messages held) react to,
// so neither slice owns the other's event.
import { createAction } from '@reduxjs/toolkit';
import type { ChatMessage } from '@core/model';

/**
 * Messages arrived together — live, caught up after a reconnect, acknowledged after a send here, or a newer version
 * of one (edited, deleted) — as one action for the whole batch, so a burst is one render. `ownUid`: whose
 * messages do not count as unread.
 */
export const messagesArrived = createAction<{ messages: ChatMessage[]; ownUid: string }>('messages/arrived');
