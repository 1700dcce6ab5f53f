// Pending-notification counts (users/{uid}/pending): one count per source (a channel), summed into the app
// badge's badge_count (spec §5: a count above 0 sets the badge, otherwise it is cleared).
import type { ChannelAccess } from './permissions';

const NONE: ReadonlySet<string> = new Set();

/** Pending counts of one user by source. */
export type PendingCounts = Readonly<Record<string, number>>;

/**
 * The badge count: the sum of the pending counts, ignoring anything that is not a positive whole number, and the
 * sources in `muted` (a muted channel adds nothing to the badge, also what it counted before the mute).
 */
export function badgeCount(counts: PendingCounts, muted: ReadonlySet<string> = NONE): number {
  let sum = 0;
  for (const [source, value] of Object.entries(counts)) {
    if (muted.has(source)) continue;
    if (Number.isSafeInteger(value) && value > 0) sum += value;
  }
  return sum;
}

/** Who gets a pending notification for a new message: everyone in the channel but its sender. */
export function pendingRecipients(channel: ChannelAccess, senderId: string): string[] {
  const everyone = new Set([channel.ownerId, ...channel.members]);
  everyone.delete(senderId);
  everyone.delete('');
  return [...everyone];
}
