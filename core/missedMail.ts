// Missed-message email, for both backends: when one email about a channel is due to a person,
// and what it says. A message by someone else that the person has still not read 10 minutes after it was posted
// makes the channel's email due, unless the person does not want email (core/delivery.ts 'email'), muted the
// channel, or got an email about that channel less than an hour ago. The email summarises every unread message
// since the last one it covered (senders, first lines of a few, how many more), so nothing is mailed twice.
// Pure: the scheduler of each backend reads the rows, asks here, and writes the answer with the mail.
import type { ReadMark } from './channels';
import { isUnread } from './channels';
import { wantsDelivery } from './delivery';
import { escapeHtml } from './html';
import type { MessageCursor } from './messages';
import { compareMessages, cursorOf, isAfter } from './messages';
import type { NotificationSettings } from './model';
import { isMuted } from './mutes';

const MINUTE_MS = 60_000;

export const MISSED_MAIL = {
  /** How long a message stays unread before it is "missed". */
  delayMs: 10 * MINUTE_MS,
  /** At most one email per channel and person in this time. */
  intervalMs: 60 * MINUTE_MS,
  /** Older messages are never mailed about (turning email on does not mail a person's whole backlog). */
  lookbackMs: 24 * 60 * MINUTE_MS,
  /** How many messages the email quotes (the rest are counted). */
  quoted: 3,
  /** A quoted first line is cut to this many characters. */
  lineChars: 140,
} as const;

/** What the decision needs of a message of the channel. */
export interface MissedCandidate {
  id: string;
  senderId: string;
  senderName: string;
  text: string;
  createdAt: number;
  deleted: boolean;
  /** Whether it carries a file (its text may then be empty). */
  hasAttachment: boolean;
}

/** What a backend keeps per person and channel: the newest message an email covered, and when one was sent. */
export interface MissedMailState {
  coveredUpTo: MessageCursor | null;
  lastSentAt: number | null;
}

export interface MissedMailInput {
  uid: string;
  settings: NotificationSettings | null | undefined;
  /** Whether the account's address may be mailed (verified, not deleted). */
  addressOk: boolean;
  /** The person's mute of this channel (core/mutes.ts), if any. */
  mutedUntil: number | null | undefined;
  mark: ReadMark | null;
  state: MissedMailState | null;
  /** The channel's messages posted after `since(now, state)`, in any order. */
  messages: readonly MissedCandidate[];
  now: number;
}

export type MissedMailDecision =
  /** Nothing to do now. */
  | { kind: 'none' }
  /** Send one email about `messages` (oldest first), then remember `coveredUpTo` and the time. */
  | { kind: 'send'; messages: MissedCandidate[]; coveredUpTo: MessageCursor }
  /** Muted: these messages are passed over without an email (unmuting later does not mail about them). */
  | { kind: 'pass'; coveredUpTo: MessageCursor };

/** Whether the person wants missed-message email: notifications on, with 'email' among the delivery channels. */
export function wantsEmail(settings: NotificationSettings | null | undefined): boolean {
  return wantsDelivery(settings, 'email');
}

/** The oldest time a message can have and still be mailed about at `now`. */
export function missedSince(now: number): number {
  return now - MISSED_MAIL.lookbackMs;
}

/** What to do about one person and one channel at `now`. */
export function decideMissedMail(input: MissedMailInput): MissedMailDecision {
  const { uid, mark, state, now } = input;
  if (!input.addressOk || !wantsEmail(input.settings)) return { kind: 'none' };
  const covered = state?.coveredUpTo ?? null;
  const pending = input.messages
    .filter(
      (m) =>
        !m.deleted &&
        m.createdAt > missedSince(now) &&
        m.createdAt <= now &&
        isUnread(m, uid, mark) &&
        (covered === null || isAfter(m, covered)),
    )
    .sort(compareMessages);
  const due = pending.filter((m) => m.createdAt + MISSED_MAIL.delayMs <= now);
  const newestDue = due.at(-1);
  if (newestDue === undefined) return { kind: 'none' };
  if (isMuted(input.mutedUntil, now)) return { kind: 'pass', coveredUpTo: cursorOf(newestDue) };
  if (state?.lastSentAt != null && now < state.lastSentAt + MISSED_MAIL.intervalMs) return { kind: 'none' };
  const newest = pending.at(-1) ?? newestDue;
  return { kind: 'send', messages: pending, coveredUpTo: cursorOf(newest) };
}

/** The first non-empty line of a message, cut to a length; what a file-only message is called. */
export function firstLine(message: Pick<MissedCandidate, 'text' | 'hasAttachment'>): string {
  const line = message.text
    .split(/\r\n|[\n\r\u2028\u2029]/)
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (line === undefined) return message.hasAttachment ? 'Sent a file.' : '…';
  return line.length > MISSED_MAIL.lineChars ? `${line.slice(0, MISSED_MAIL.lineChars - 1)}…` : line;
}

export interface MissedSummary {
  subject: string;
  /** One plain-text line per quoted message: "Name: first line". */
  quoted: string[];
  /** "…and 4 more messages." when there are more than `MISSED_MAIL.quoted`; null otherwise. */
  more: string | null;
  /** The senders, in order of their first message. */
  senders: string[];
  /** The email's paragraphs before its button: a lead, the quoted lines, the count of the rest. */
  paragraphs: string[];
}

/** Why the person gets the email, said under its button. */
export const MISSED_MAIL_WHY =
  'You get this email because you chose "Email me about messages I miss" in QuPM. At most one email per channel an hour; none for a channel you muted.';

/** What the email calls a channel: its title, or for a private consultation, that. */
export function missedChannelName(channel: { title: string; kind?: 'private' }): string {
  return channel.kind === 'private' ? 'your private consultation' : channel.title;
}

// Every control character (CR, LF, tab…) and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex
const BREAKS = /[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g;

/** A sender's name on one line ('Someone' when empty): a name never starts a line of its own in the email. */
export function senderLabel(name: string): string {
  return name.replace(BREAKS, ' ').replace(/\s+/g, ' ').trim() || 'Someone';
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** What the email says about `messages` (oldest first) of the channel called `channelName`. All plain text. */
export function summarizeMissed(messages: readonly MissedCandidate[], channelName: string): MissedSummary {
  const senders = [...new Set(messages.map((m) => senderLabel(m.senderName)))];
  const count = plural(messages.length, 'unread message', 'unread messages');
  const quoted = messages
    .slice(0, MISSED_MAIL.quoted)
    .map((m) => `${senderLabel(m.senderName)}: ${firstLine(m)}`);
  const rest = messages.length - quoted.length;
  const more = rest > 0 ? `…and ${plural(rest, 'more message', 'more messages')}.` : null;
  return {
    subject: `${count} in ${channelName}`,
    quoted,
    more,
    senders,
    paragraphs: [`You have ${count} in ${channelName} on QuPM:`, ...quoted, ...(more ? [more] : [])],
  };
}

/** The API route of one-click unsubscribe (RFC 8058): `POST` turns missed-message email off; `GET` asks first. */
export const UNSUBSCRIBE_ROUTE = '/api/mail/unsubscribe';

/** The unsubscribe link of a missed-message email, as a path on the server's public origin. */
export function unsubscribePath(token: string): string {
  return `${UNSUBSCRIBE_ROUTE}?token=${encodeURIComponent(token)}`;
}

/**
 * An unsubscribe token is `<uid>.<signature>`: the signature is an HMAC-SHA256 (base64url) of `unsubscribeSigned(uid)`
 * under a secret of the backend's own. The purpose is part of what is signed, so no other token can serve here.
 */
export function unsubscribeSigned(uid: string): string {
  return `qupm-unsubscribe-missed-email-v1\n${uid}`;
}

const TOKEN_UID = /^[A-Za-z0-9_-]{1,128}$/;
const TOKEN_SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/** A token's parts, or null when it cannot be one (its signature is then the backend's to check). */
export function parseUnsubscribeToken(token: unknown): { uid: string; signature: string } | null {
  if (typeof token !== 'string') return null;
  const [uid = '', signature = '', ...rest] = token.split('.');
  if (rest.length > 0 || !TOKEN_UID.test(uid) || !TOKEN_SIGNATURE.test(signature)) return null;
  return { uid, signature };
}

/** RFC 8058's POST body `List-Unsubscribe=One-Click`: form-encoded (as a string or parsed) or multipart. */
export function isOneClickBody(body: unknown): boolean {
  if (typeof body === 'object' && body !== null) {
    return (body as Record<string, unknown>)['List-Unsubscribe'] === 'One-Click';
  }
  if (typeof body !== 'string') return false;
  if (new URLSearchParams(body).get('List-Unsubscribe') === 'One-Click') return true;
  return /name="?List-Unsubscribe"?\r?\n(?:[^\r\n]+\r?\n)*\r?\nOne-Click\r?\n/.test(body);
}

export const UNSUBSCRIBE_MESSAGES = {
  invalid:
    'This unsubscribe link is not valid. Open QuPM and turn off “Email me about messages I miss” in Settings → Notifications.',
  notOneClick: 'This request did not ask to unsubscribe. Use the button of the unsubscribe page.',
  ask: 'QuPM emails you when a message waits unread for 10 minutes. You can turn this back on in Settings → Notifications.',
  done: 'You will no longer get emails about messages you miss. You can turn them back on in Settings → Notifications.',
} as const;

/**
 * The small pages of the unsubscribe link, the same on both backends: plain HTML, no script and no style (the
 * link must work without the app, signed out, under a strict CSP). 'ask' carries the button that POSTs.
 */
export function unsubscribePage(
  kind: 'ask' | 'done' | 'invalid' | 'notOneClick',
  token = '',
): { status: 200 | 400; html: string } {
  const pages = {
    ask: { status: 200, title: 'Stop emails about missed messages?' },
    done: { status: 200, title: 'You are unsubscribed' },
    invalid: { status: 400, title: 'This link is not valid' },
    notOneClick: { status: 400, title: 'Nothing was changed' },
  } as const;
  const { status, title } = pages[kind];
  const form =
    kind === 'ask'
      ? `<form method="post" action="${escapeHtml(unsubscribePath(token))}">` +
        '<input type="hidden" name="List-Unsubscribe" value="One-Click">' +
        '<button type="submit">Stop these emails</button></form>'
      : '';
  const html = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(title)} · QuPM</title></head>`,
    `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(UNSUBSCRIBE_MESSAGES[kind])}</p>${form}`,
    '<p><a href="/settings/notifications">Open QuPM settings</a></p></main></body></html>',
  ].join('\n');
  return { status, html };
}
