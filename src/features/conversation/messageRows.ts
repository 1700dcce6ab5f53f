// How a conversation's messages are laid out as rows: the day each starts, whether it continues
// its sender's group (the name shown once) and where the "New messages" divider goes. Pure functions of the
// messages and the clock, each looking at a row's neighbours or the held window (at most MESSAGES_WINDOW rows), so
// the list only renders what they say. (The count behind "Jump to latest" and the rows' places are kept by
// conversationSlice.)
import type { ChatMessage } from '@core/model';

/** Messages of one sender this close together (and on one day) read as one group: the name is shown once. */
export const GROUP_WINDOW_MS = 5 * 60_000;

const DAY_MS = 24 * 60 * 60_000;
// Made once (a long list labels many rows).
const WEEKDAY = new Intl.DateTimeFormat([], { weekday: 'long' });
const DATE = new Intl.DateTimeFormat([], { weekday: 'short', day: 'numeric', month: 'long' });
const DATE_WITH_YEAR = new Intl.DateTimeFormat([], {
  weekday: 'short',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** The local calendar day of a moment, as `YYYY-MM-DD` (two moments of one day have one key). */
export function dayKey(at: number): string {
  const date = new Date(at);
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

/** Midnight (local) of the day `at` falls on. */
function startOfDay(at: number): number {
  const date = new Date(at);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/**
 * A day separator's words: "Today", "Yesterday", the weekday within the last week, else the date (with the year
 * when it is not this year's).
 */
export function dayLabel(at: number, now: number): string {
  // Whole days between the two midnights; rounded, so a daylight-saving change (a 23- or 25-hour day) still counts one.
  const days = Math.round((startOfDay(now) - startOfDay(at)) / DAY_MS);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  const date = new Date(at);
  if (days > 1 && days < 7) return WEEKDAY.format(date);
  return (date.getFullYear() === new Date(now).getFullYear() ? DATE : DATE_WITH_YEAR).format(date);
}

/** Whether `message` begins a new day after `previous` (the first message shown always does). */
export function startsDay(previous: ChatMessage | undefined, message: ChatMessage): boolean {
  return previous === undefined || dayKey(previous.createdAt) !== dayKey(message.createdAt);
}

/** Whether `message` continues `previous`'s group: the same sender, the same day, within the group window. */
export function continuesGroup(previous: ChatMessage | undefined, message: ChatMessage): boolean {
  if (previous === undefined || previous.senderId !== message.senderId) return false;
  const gap = message.createdAt - previous.createdAt;
  return gap >= 0 && gap <= GROUP_WINDOW_MS && !startsDay(previous, message);
}

/** Where `id` is in `messages`, looked for from the end (what these helpers look for is among the newest). */
function lastIndexOf(messages: readonly ChatMessage[], id: string): number {
  for (let i = messages.length - 1; i >= 0; i -= 1) if (messages[i]?.id === id) return i;
  return -1;
}

/**
 * The first unread message when the channel opened: `unread` messages by others were unread, the newest of them
 * no newer than `until` (the newest message when the channel opened; what came later was read as it came). Null
 * when nothing was unread, or when that message is not loaded yet (it is, once paging back reaches it).
 */
export function firstUnreadId(
  messages: readonly ChatMessage[],
  unread: number,
  ownUid: string | null,
  until: string,
): string | null {
  if (unread <= 0) return null;
  let left = unread;
  for (let i = lastIndexOf(messages, until); i >= 0; i -= 1) {
    const message = messages[i];
    if (message && message.senderId !== ownUid) {
      left -= 1;
      if (left === 0) return message.id;
    }
  }
  return null;
}
