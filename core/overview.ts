// The person's channel list (docs/decisions/channels.md): newest activity first. Written once
// for both backends, which answer the overview in this order, and the client's channels slice, which keeps its live
// list in it. A module of its own, importing next to nothing, because the slice is in the app's shell.
import type { ChannelOverview } from './model';
import { compareIds } from './messages';

/** When a channel was last active: its last message, else its creation. */
export function lastActivity(overview: Pick<ChannelOverview, 'channel' | 'lastMessage'>): number {
  return overview.lastMessage?.createdAt ?? overview.channel.createdAt;
}

type OverviewOrdered = Pick<ChannelOverview, 'channel' | 'lastMessage'>;

/**
 * The order of the person's channel list: newest activity first; ties by channel id compared by code unit (as
 * ids are everywhere, core/messages.ts), for a stable order. The backends sort with it and the client keeps its
 * live list in it.
 */
export function compareOverview(a: OverviewOrdered, b: OverviewOrdered): number {
  return lastActivity(b) - lastActivity(a) || compareIds(a.channel.id, b.channel.id);
}

/** The person's channel list in its order (compareOverview). */
export function sortOverview<T extends OverviewOrdered>(list: readonly T[]): T[] {
  return [...list].sort(compareOverview);
}
