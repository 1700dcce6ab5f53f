// How a channel's mute reads to a person, in the channel list and the conversation's header:
// "Muted" until they turn it back on, "Muted until 14:00" today, "Muted until Tue 02:00" on another day.
import { isMuted, isMutedForever } from '@core/mutes';

/** The words for a mute at `now`, or null when the channel is not muted then. */
export function mutedWords(mutedUntil: number | null, now: number): string | null {
  if (!isMuted(mutedUntil, now) || mutedUntil === null) return null;
  if (isMutedForever(mutedUntil)) return 'Muted';
  const end = new Date(mutedUntil);
  const time = end.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  if (end.toDateString() === new Date(now).toDateString()) return `Muted until ${time}`;
  return `Muted until ${end.toLocaleDateString([], { weekday: 'short' })} ${time}`;
}
