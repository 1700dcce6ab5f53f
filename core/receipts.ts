// Read receipts and typing, the same on both backends: what a person's read and delivered marks say about a
// message of someone else's (sent → delivered → read), who may see them (a person who turned receipts off shares
// none and sees none, as in WhatsApp), and the words for both. Typing is never stored (the client's timings are in
// src/timings.ts; the server's limit is below).
import type { MessageCursor } from './messages';
import { compareMessages } from './messages';

/** One other person's marks in a channel, as the channel's participants see them. */
export interface Receipt {
  uid: string;
  name: string;
  /** Read up to and including this message (core/channels.ts ReadMark), or null. */
  read: MessageCursor | null;
  /** When the read mark last moved (epoch ms, the backend's clock), or null. */
  readAt: number | null;
  /** A device of theirs got up to this message (a page or a live batch reached it), or null. */
  delivered: MessageCursor | null;
}

/** The person's choice: whether they share read receipts (and so see others'). On by default. */
export interface ReceiptSettings {
  enabled: boolean;
}

export type MessageState = 'sent' | 'delivered' | 'read';

type Ordered = { createdAt: number; id: string };

/** Whether a mark reaches `message` (a whole-millisecond mark, id '', reaches all of that millisecond). */
export function covers(mark: MessageCursor | null, message: Ordered): boolean {
  if (mark === null) return false;
  if (mark.id === '') return message.createdAt <= mark.createdAt;
  return compareMessages(message, mark) <= 0;
}

/** The others who have read `message` of `senderId`'s, earliest reader first. */
export function readersOf(receipts: readonly Receipt[], message: Ordered, senderId: string): Receipt[] {
  return receipts
    .filter((receipt) => receipt.uid !== senderId && covers(receipt.read, message))
    .sort((a, b) => (a.readAt ?? 0) - (b.readAt ?? 0));
}

/**
 * Sent → delivered → read: read once anyone else read it; delivered once a device of anyone else got it (or they
 * read it). In a group "anyone": a member who never signs in would otherwise hold every message at "sent".
 */
export function messageState(receipts: readonly Receipt[], message: Ordered, senderId: string): MessageState {
  const others = receipts.filter((receipt) => receipt.uid !== senderId);
  if (others.some((receipt) => covers(receipt.read, message))) return 'read';
  if (others.some((receipt) => covers(receipt.delivered, message) || covers(receipt.read, message))) {
    return 'delivered';
  }
  return 'sent';
}

/**
 * What a viewer may see of a channel's marks: none when the viewer turned receipts off; never the viewer's own,
 * nor those of anyone who turned them off (`sharing(uid)` false).
 */
export function visibleReceipts(
  receipts: readonly Receipt[],
  viewerUid: string,
  viewerSharing: boolean,
  sharing: (uid: string) => boolean,
): Receipt[] {
  if (!viewerSharing) return [];
  return receipts.filter((receipt) => receipt.uid !== viewerUid && sharing(receipt.uid));
}

/**
 * The embedded server's limit of typing signals per person a minute: a throttled client (one every 3 s,
 * src/timings.ts TYPING_SIGNAL_EVERY_MS) sends 20 a minute; two channels at once stay within it, a flood does not.
 */
export const TYPING_SIGNALS_PER_MINUTE = 40;

export const RECEIPT_WORDS = {
  sent: 'Sent',
  delivered: 'Delivered',
  seen: 'Seen',
  seenBy: (count: number) => `Seen by ${count}`,
  settingLabel: 'Send read receipts',
  settingHint: 'When this is off, nobody sees when you have read their messages, and you do not see theirs.',
} as const;

/** "Dana is typing…", "Dana and Sam are typing…", "3 people are typing…". */
export function typingWords(names: readonly string[]): string {
  if (names.length === 0) return '';
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are typing…`;
  return `${names.length} people are typing…`;
}
