// Replies: a message may quote one earlier message of the same channel. The reply carries the quote (the original's
// id, sender and a short snippet of its text), made by the backend from the stored original on the embedded server
// and by the adapter on Firebase (firestore.rules check the original is in the channel and its sender is the one
// named). What the bubble shows of a quote is decided here: the original as the client holds it when it does (an
// edit's new text; "Deleted message" once deleted), the snippet otherwise.
import type { ChatMessage } from './model';
import type { ErrorStatus } from './errors';
import { messageSummary } from './messageText';

/** A snippet is at most this many characters (firestore.rules repeat the number, checked by test). */
export const REPLY_SNIPPET_MAX = 120;

export interface ReplyQuote {
  /** The quoted message, in the same channel. */
  id: string;
  senderId: string;
  senderName: string;
  /** The start of its text on one line (or its file's summary), at most REPLY_SNIPPET_MAX characters. */
  snippet: string;
}

export type ReplyProblem = 'notInChannel' | 'deleted';

export const REPLY_MESSAGES: Record<ReplyProblem, string> = {
  notInChannel: 'You can only reply to a message of this conversation.',
  deleted: 'That message was deleted, so it can no longer be replied to.',
};

export const REPLY_STATUS: Record<ReplyProblem, ErrorStatus> = {
  notInChannel: 'NOT_FOUND',
  deleted: 'FAILED_PRECONDITION',
};

/** What a bubble says for a quote whose original is deleted. */
export const DELETED_QUOTE = 'Deleted message';

/** The start of a message's text on one line, at most REPLY_SNIPPET_MAX characters (never half an emoji). */
export function snippetOf(message: Pick<ChatMessage, 'text' | 'attachments'>): string {
  // Without text, the first file's kind says what it was (as the channel list and the push do).
  const first = message.attachments?.[0];
  const line = messageSummary({ text: message.text, ...(first ? { attachment: first } : {}) })
    .replace(/\s+/g, ' ')
    .trim();
  const characters = Array.from(line);
  if (characters.length <= REPLY_SNIPPET_MAX && line.length <= REPLY_SNIPPET_MAX) return line;
  let cut = '';
  for (const character of characters) {
    if (cut.length + character.length > REPLY_SNIPPET_MAX - 1) break;
    cut += character;
  }
  return `${cut.trimEnd()}…`;
}

/**
 * The quote a reply to `original` carries, or why it may not: an original of another channel (or none) is
 * refused as not in it, a deleted one as deleted.
 */
export function quoteOf(
  channelId: string,
  original: ChatMessage | null,
): { ok: true; quote: ReplyQuote } | { ok: false; problem: ReplyProblem } {
  if (!original || original.channelId !== channelId) return { ok: false, problem: 'notInChannel' };
  if (original.deleted === true) return { ok: false, problem: 'deleted' };
  return {
    ok: true,
    quote: {
      id: original.id,
      senderId: original.senderId,
      senderName: original.senderName,
      snippet: snippetOf(original),
    },
  };
}

/** A quote as read from storage or the wire, or null when it is not one. */
export function toReplyQuote(value: unknown): ReplyQuote | null {
  if (typeof value !== 'object' || value === null) return null;
  const { id, senderId, senderName, snippet } = value as Record<string, unknown>;
  if (typeof id !== 'string' || typeof senderId !== 'string') return null;
  if (typeof senderName !== 'string' || typeof snippet !== 'string') return null;
  if (snippet.length > REPLY_SNIPPET_MAX) return null;
  return { id, senderId, senderName, snippet };
}

/**
 * What a bubble shows of a quote: the original as the client holds it (its current text, "Deleted message"
 * once deleted), else the snippet the reply carries.
 */
export function quoteShown(
  quote: ReplyQuote,
  original: ChatMessage | undefined,
): { senderName: string; text: string; deleted: boolean } {
  if (original?.deleted === true)
    return { senderName: original.senderName, text: DELETED_QUOTE, deleted: true };
  if (original) return { senderName: original.senderName, text: snippetOf(original), deleted: false };
  if (quote.snippet === '') return { senderName: quote.senderName, text: DELETED_QUOTE, deleted: true };
  return { senderName: quote.senderName, text: quote.snippet, deleted: false };
}
