// What a new channel message sets off, planned once for both backends (server/services/channels.ts sendMessage,
// functions/src/handlers/messages.ts): each backend reads the facts, asks these plans, and performs what they
// decide. In three steps, because each step's facts come from the I/O the step before decided:
//   1. planRecipients: everyone in the channel but the sender gets a pending count, except who muted it now;
//      each one's badge leaves out the channels they muted (the backend adds the counts and reads the badges).
//   2. pushRecipients: of those, who gets a push: push wanted and the channel not muted (spec §5).
//   3. planPushes: one push per browser, even one held by two accounts (the first holder's, in recipient order),
//      each with its recipient's own badge count (spec §5) and core/push.ts's words.
import type { NotificationSettings } from './model';
import { wantsPushFrom } from './delivery';
import type { ChannelMutes } from './mutes';
import { activeMutes, isChannelMuted } from './mutes';
import { pendingRecipients } from './pending';
import type { ChannelAccess } from './permissions';
import { messagePush } from './push';
import type { MessagePush } from './push';

export interface RecipientsPlan {
  /** Who gets one more pending notification from the channel, in a stable order. */
  recipients: string[];
  /** For each recipient, the channels muted now: their badge count leaves them out. */
  mutedChannels: Record<string, ReadonlySet<string>>;
}

/** Step 1: who counts the message as pending, and what their badge leaves out. */
export function planRecipients(facts: {
  channel: ChannelAccess & { id: string };
  senderId: string;
  /** Each member's mutes (ended ones may be there; they mute nothing). */
  mutes: Readonly<Record<string, ChannelMutes>>;
  now: number;
}): RecipientsPlan {
  const { channel, senderId, mutes, now } = facts;
  const recipients = pendingRecipients(channel, senderId).filter(
    (uid) => !isChannelMuted(mutes[uid] ?? {}, channel.id, now),
  );
  const mutedChannels = Object.fromEntries(
    recipients.map((uid) => [uid, new Set(Object.keys(activeMutes(mutes[uid] ?? {}, now)))]),
  );
  return { recipients, mutedChannels };
}

/** Step 2: the recipients who get a push for a message of `channelId` (push wanted, the channel not muted). */
export function pushRecipients(facts: {
  recipients: readonly string[];
  settings: Readonly<Record<string, NotificationSettings | null | undefined>>;
  mutes: Readonly<Record<string, ChannelMutes>>;
  channelId: string;
  now: number;
}): string[] {
  const { recipients, settings, mutes, channelId, now } = facts;
  return recipients.filter((uid) => wantsPushFrom(settings[uid], mutes[uid]?.[channelId], now));
}

/** A token document a push can go to: whose it is, and the browser's token. */
export interface PushTarget {
  uid: string;
  token: string;
}

export interface PlannedPush<T extends PushTarget> {
  target: T;
  push: MessagePush;
}

/**
 * Step 3: the pushes to send. `targets` are the push recipients' token documents in recipient order; a token
 * held by two accounts (a shared browser) gets one push, the first holder's.
 */
export function planPushes<T extends PushTarget>(facts: {
  message: Omit<Parameters<typeof messagePush>[0], 'badgeCount'>;
  targets: readonly T[];
  /** Each recipient's badge count after this message. */
  badges: Readonly<Record<string, number>>;
}): PlannedPush<T>[] {
  const seen = new Set<string>();
  const planned: PlannedPush<T>[] = [];
  for (const target of facts.targets) {
    if (seen.has(target.token)) continue;
    seen.add(target.token);
    planned.push({
      target,
      push: messagePush({ ...facts.message, badgeCount: facts.badges[target.uid] ?? 0 }),
    });
  }
  return planned;
}
