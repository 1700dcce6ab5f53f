// Reactions: a small fixed set of emoji; each person has at most one reaction on a message (choosing it again
// takes it back, choosing another replaces it), so a message's reactions are a map uid → emoji. Decided once for
// the embedded server (a table, one row a reactor), the Firebase adapter and firestore.rules (the map on the
// message document, each person writing only their own key; the rules repeat the set, checked by test) and the
// bubble. Only the channel's people react, never to a deleted message.
import type { ChannelAccess } from './permissions';
import type { ChatMessage } from './model';
import type { ErrorStatus } from './errors';
import { canMessage } from './permissions';

/** The set, in the order the picker and the counts show them. */
export const REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

export type Reaction = (typeof REACTIONS)[number];

/** What a screen reader says for each (the picker's buttons and the counts). */
export const REACTION_NAMES: Record<Reaction, string> = {
  '👍': 'Thumbs up',
  '❤️': 'Heart',
  '😂': 'Laugh',
  '😮': 'Surprised',
  '😢': 'Sad',
  '🙏': 'Thanks',
};

export function isReaction(value: unknown): value is Reaction {
  return typeof value === 'string' && (REACTIONS as readonly string[]).includes(value);
}

export type ReactionProblem = 'notInSet' | 'notInChannel' | 'deleted';

export const REACTION_MESSAGES: Record<ReactionProblem, string> = {
  notInSet: `A reaction is one of ${REACTIONS.join(' ')}.`,
  notInChannel: 'Only the channel owner and its members can react to messages here.',
  deleted: 'This message was deleted, so it can no longer get reactions.',
};

export const REACTION_STATUS: Record<ReactionProblem, ErrorStatus> = {
  notInSet: 'INVALID_ARGUMENT',
  notInChannel: 'PERMISSION_DENIED',
  deleted: 'FAILED_PRECONDITION',
};

export type ReactionCheck = { ok: true } | { ok: false; problem: ReactionProblem };

/**
 * Whether `uid` may set their reaction on `message` to `reaction` (null: take theirs back): one of the set, a
 * person of the channel, a message not deleted.
 */
export function checkReaction(
  channel: ChannelAccess,
  message: Pick<ChatMessage, 'deleted'>,
  uid: string,
  reaction: unknown,
): ReactionCheck {
  if (reaction !== null && !isReaction(reaction)) return { ok: false, problem: 'notInSet' };
  if (!canMessage(channel, uid)) return { ok: false, problem: 'notInChannel' };
  if (message.deleted === true) return { ok: false, problem: 'deleted' };
  return { ok: true };
}

/** A message's reactions as read from storage: only the set's emoji survive (a stray value is dropped). */
export function toReactions(value: unknown): Record<string, Reaction> | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const reactions: Record<string, Reaction> = {};
  let any = false;
  for (const [uid, emoji] of Object.entries(value as Record<string, unknown>)) {
    if (uid !== '' && isReaction(emoji)) {
      reactions[uid] = emoji;
      any = true;
    }
  }
  return any ? reactions : null;
}

export interface ReactionCount {
  emoji: Reaction;
  /** Who chose it, in uid order (the screen names them on demand). */
  uids: string[];
}

/** The counts a bubble shows: each emoji someone chose, in the set's order. */
export function countReactions(reactions: ChatMessage['reactions']): ReactionCount[] {
  if (!reactions) return [];
  const byEmoji = new Map<Reaction, string[]>();
  for (const uid of Object.keys(reactions).sort()) {
    const emoji = reactions[uid];
    if (emoji === undefined) continue;
    byEmoji.set(emoji, [...(byEmoji.get(emoji) ?? []), uid]);
  }
  return REACTIONS.flatMap((emoji) => {
    const uids = byEmoji.get(emoji);
    return uids ? [{ emoji, uids }] : [];
  });
}

/** What choosing `emoji` sets the person's reaction to: null (taken back) when it is theirs already. */
export function toggledReaction(current: Reaction | undefined, emoji: Reaction): Reaction | null {
  return current === emoji ? null : emoji;
}

/** `reactions` with `uid`'s reaction set to `reaction` (null: taken back); null when none is left. */
export function withReaction(
  reactions: ChatMessage['reactions'],
  uid: string,
  reaction: Reaction | null,
): Record<string, Reaction> | null {
  const next: Record<string, Reaction> = { ...reactions };
  if (reaction === null) delete next[uid];
  else next[uid] = reaction;
  return Object.keys(next).length > 0 ? next : null;
}
