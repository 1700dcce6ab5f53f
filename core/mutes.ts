// Muting a channel, for both backends and the client: the durations a person may choose, the
// moment a mute ends, who may mute a channel (someone in it), and whether a channel is muted for a person at a
// given time. A timed mute needs no job to end: it is compared with the clock. A muted channel sends that person
// no push and adds nothing to their badge (core/delivery.ts, core/pending.ts), and draws no in-app notice.
import { QupmError } from './errors';
import type { ChannelAccess } from './permissions';
import { canMessage } from './permissions';

/** The choices a person has: 1 hour, 8 hours, or until they turn it back on. */
export const MUTE_DURATIONS = ['1h', '8h', 'forever'] as const;
export type MuteDuration = (typeof MUTE_DURATIONS)[number];

const HOUR_MS = 60 * 60 * 1000;
const DURATION_MS: Record<Exclude<MuteDuration, 'forever'>, number> = { '1h': HOUR_MS, '8h': 8 * HOUR_MS };

/**
 * "Until I turn it back on", as a time: the last moment a JavaScript Date can hold (8.64e15 ms, the year
 * 275760), so every mute is one number compared with the clock, and a stored value is still a valid date.
 */
export const MUTED_FOREVER = 8_640_000_000_000_000;

/** A person's mutes: channel id → the moment the mute ends (epoch ms). Ended mutes may linger; they mute nothing. */
export type ChannelMutes = Readonly<Record<string, number>>;

export const MUTE_MESSAGES = {
  notInChannel: 'You can mute only a channel you are in.',
  unknownDuration: 'Choose how long to mute: 1 hour, 8 hours, or until you turn it back on.',
} as const;

export function isMuteDuration(value: unknown): value is MuteDuration {
  return typeof value === 'string' && (MUTE_DURATIONS as readonly string[]).includes(value);
}

/** When a mute chosen at `now` ends. */
export function muteEndsAt(duration: MuteDuration, now: number): number {
  return duration === 'forever' ? MUTED_FOREVER : Math.min(MUTED_FOREVER, now + DURATION_MS[duration]);
}

/** Whether a value can be a mute's end: a positive whole number of ms, at most "forever". */
export function isMuteEnd(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= MUTED_FOREVER;
}

/** Muted at `at`: the mute ends later than that. Nothing stored (or anything unreadable) is not muted. */
export function isMuted(mutedUntil: number | null | undefined, at: number): boolean {
  return isMuteEnd(mutedUntil) && mutedUntil > at;
}

/** Whether a mute lasts until the person turns it back on. */
export function isMutedForever(mutedUntil: number | null | undefined): boolean {
  return mutedUntil === MUTED_FOREVER;
}

/** The channel `channelId` is muted for the person whose mutes these are, at `at`. */
export function isChannelMuted(mutes: ChannelMutes, channelId: string, at: number): boolean {
  return Object.hasOwn(mutes, channelId) && isMuted(mutes[channelId], at);
}

/** The mutes still in force at `at` (ended ones dropped). */
export function activeMutes(mutes: ChannelMutes, at: number): Record<string, number> {
  return Object.fromEntries(Object.entries(mutes).filter(([, until]) => isMuted(until, at)));
}

/** Only someone in the channel (its owner or a member) mutes or unmutes it; an admin who only reads it cannot. */
export function assertCanMute(channel: ChannelAccess, uid: string): void {
  if (!canMessage(channel, uid)) throw new QupmError('PERMISSION_DENIED', MUTE_MESSAGES.notInChannel);
}

/** A duration from a request: one of the three, else INVALID_ARGUMENT with words a person understands. */
export function assertMuteDuration(value: unknown): MuteDuration {
  if (!isMuteDuration(value)) throw new QupmError('INVALID_ARGUMENT', MUTE_MESSAGES.unknownDuration);
  return value;
}
