// The tab title's count (src/sagas/titleSaga.ts): what is unread in the channels the person has
// not muted, read from the channels, mutes, conversation and read-mark slices. Its own module, loaded with the
// title saga, so the shell does not carry it.
import { compareMessages } from '@core/messages';
import { isChannelMuted } from '@core/mutes';
import type { ChannelsState } from './channelsSlice';
import type { ConversationState } from './conversationSlice';
import type { MutesState } from './mutesSlice';
import type { ReadMarksState } from './readMarksSlice';

interface WithAttention {
  mutes: MutesState;
  channels: ChannelsState;
  conversation: ConversationState;
  readMarks: ReadMarksState;
}

/**
 * The tab title's count: messages from others not read yet in the channels not muted at `now` — the
 * list's unread counts, and in the open channel (whose list count stays 0 while it is open) the messages after
 * the newest one the person has seen, which grow while the window is not looked at.
 */
export function selectAttentionCount(state: WithAttention, ownUid: string | null, now: number): number {
  const mutes = state.mutes.byChannel;
  let total = 0;
  for (const id of state.channels.ids) {
    const unread = state.channels.entities[id]?.unread ?? 0;
    if (!isChannelMuted(mutes, id, now)) total += unread;
  }
  const openId = state.channels.openId;
  if (openId === null || isChannelMuted(mutes, openId, now)) return total;
  const seen = state.readMarks.pending[openId] ?? state.readMarks.acknowledged[openId];
  if (!seen) return total;
  const messages = state.conversation.byChannel[openId]?.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (!message || compareMessages(message, seen) <= 0) break;
    if (message.senderId !== ownUid) total += 1;
  }
  return total;
}
