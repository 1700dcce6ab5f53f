// A message's text: what is stored is the text trimmed, 1 to LIMITS.messageMax characters, or 0 when
// the message carries an attachment (text, a file, or both). Written
// once for the embedded server's schema, the Firebase adapter (which writes to Firestore itself) and the
// composer; firestore.rules can import nothing and repeat the number, which __tests__/rules/limits.test.ts checks.
import { LIMITS } from './limits';

export type MessageTextProblem = 'empty' | 'tooLong';

export type MessageTextCheck =
  { ok: true; text: string } | { ok: false; problem: MessageTextProblem; length: number };

/**
 * What a client may hold or send before trimming: twice the limit. Drafts and the outbox on the device, and a
 * request body before it is trimmed, are bounded by it.
 */
export const MESSAGE_RAW_MAX = LIMITS.messageMax * 2;

/** The backends' words for a refused text (the composer says it its own way, with the length). */
export const MESSAGE_TEXT_MESSAGES: Record<MessageTextProblem, string> = {
  empty: 'A message needs some text or a file.',
  tooLong: `A message can have at most ${LIMITS.messageMax.toLocaleString('en')} characters.`,
};

/**
 * The text as it is stored (trimmed), or why it cannot be: nothing but spaces (unless the message carries an
 * attachment), or longer than the limit.
 */
export function checkMessageText(raw: string, options: { withAttachment?: boolean } = {}): MessageTextCheck {
  const text = raw.trim();
  if (text.length === 0 && !options.withAttachment) return { ok: false, problem: 'empty', length: 0 };
  if (text.length > LIMITS.messageMax) return { ok: false, problem: 'tooLong', length: text.length };
  return { ok: true, text };
}

/** What a notification or the channel list says of a message that has a file and no text. */
export function attachmentSummary(kind: 'image' | 'document'): string {
  return kind === 'image' ? 'Sent a photo' : 'Sent a document';
}

/**
 * A message in one line, for a push or the channel list: its text, or the attachment's summary when it has none.
 * Here rather than in core/attachments.ts, so that the channel list (in the app's shell) carries only this.
 */
export function messageSummary(message: {
  text: string;
  attachment?: { kind: 'image' | 'document' };
}): string {
  if (message.text.trim() !== '' || !message.attachment) return message.text;
  return attachmentSummary(message.attachment.kind);
}
