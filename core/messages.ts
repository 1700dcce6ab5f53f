// A channel's messages are ordered by (createdAt, id) everywhere: lists, page cursors, merges, read marks
// (ARCHITECTURE.md "Live data"). Ids compare by code unit, as SQLite's BINARY collation and Firestore's document
// ids do, never by locale. Written once here for the client, the embedded server and functions/.
import type { ChatMessage } from './model';
import { DOCUMENT_ID_PATTERN } from './ids';

/**
 * A position in a channel's history. `id: ''` stands before every message of that millisecond, so
 * `{createdAt: t, id: ''}` as an `after` cursor means "from t on, inclusive" and as a `before` cursor "before t".
 */
export interface MessageCursor {
  createdAt: number;
  id: string;
}

/**
 * What a live subscriber already holds: everything before `createdAt`, and of that very millisecond the messages
 * in `ids`. A subscription delivers every other message of the channel, each once — also those posted while it
 * was disconnected.
 */
export interface MessagesSince {
  createdAt: number;
  ids: string[];
  /**
   * The changes (edits, deletions) the subscriber holds: every version stamped before `at`, and of that
   * very millisecond those of the messages in `ids`. A subscription also delivers every later version of a
   * message, each once — also those made while it was disconnected. Absent: `createdAt` with no ids.
   */
  changes?: ChangesSince;
}

/** A position in a channel's changes: a version stamp (core/messages.ts versionOf) and the ids held at it. */
export interface ChangesSince {
  at: number;
  ids: string[];
}

type Ordered = Pick<ChatMessage, 'createdAt' | 'id'>;
type Versioned = Ordered & Pick<ChatMessage, 'updatedAt'>;

/**
 * A message's version: when it last changed (created, edited, deleted). Backends stamp a change after every
 * version of the channel before it (server/services/messageEdits.ts, Firestore's request.time), so of two copies
 * of one message the one with the later version is the newer word.
 */
export function versionOf(message: Versioned): number {
  return message.updatedAt ?? message.createdAt;
}

/** Whether `message` was changed (edited or deleted) after it was created. */
export function isChanged(message: Versioned): boolean {
  return message.updatedAt !== undefined;
}

/** The changes cursor a subscription starts from: `since.changes`, or `since.createdAt` with no ids. */
export function changesOf(since: MessagesSince): ChangesSince {
  return since.changes ?? { at: since.createdAt, ids: [] };
}

/** Whether a subscriber holding the changes up to `changes` has yet to see this version of `message`. */
export function isNewChange(message: Versioned, changes: ChangesSince): boolean {
  const version = versionOf(message);
  return version > changes.at || (version === changes.at && !changes.ids.includes(message.id));
}

/** `changes` moved past `message`'s version (never back). */
export function advanceChanges(changes: ChangesSince, message: Versioned): ChangesSince {
  const version = versionOf(message);
  if (version > changes.at) return { at: version, ids: [message.id] };
  if (version === changes.at && !changes.ids.includes(message.id))
    return { at: version, ids: [...changes.ids, message.id] };
  return changes;
}

export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The order of a channel's messages: oldest first, ties of one millisecond by id. */
export function compareMessages(a: Ordered, b: Ordered): number {
  return a.createdAt - b.createdAt || compareIds(a.id, b.id);
}

export function cursorOf(message: Ordered): MessageCursor {
  return { createdAt: message.createdAt, id: message.id };
}

export function isAfter(message: Ordered, cursor: MessageCursor): boolean {
  return compareMessages(message, cursor) > 0;
}

/**
 * What a subscriber holding `messages` (in order, oldest first) already has; `fallback` when it holds none (the
 * channel's creation: everything in it is new).
 */
export function sinceOf(messages: readonly Versioned[], fallback: number): MessagesSince {
  const newest = messages.at(-1);
  if (!newest) return { createdAt: fallback, ids: [] };
  const ids: string[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]?.createdAt === newest.createdAt; i -= 1) {
    ids.push(messages[i]?.id ?? '');
  }
  // The newest version held: a change made after the messages were read is stamped at or after it.
  let changes: ChangesSince = { at: versionOf(newest), ids: [] };
  for (const message of messages) changes = advanceChanges(changes, message);
  return { createdAt: newest.createdAt, ids, changes };
}

/** Whether a subscriber that holds `since` has yet to see `message`. */
export function isNewSince(message: Ordered, since: MessagesSince): boolean {
  return (
    message.createdAt > since.createdAt ||
    (message.createdAt === since.createdAt && !since.ids.includes(message.id))
  );
}

/**
 * `incoming` merged into `existing` (both oldest first): each id once, in (createdAt, id) order. A message already
 * held is replaced by the incoming copy (the backend's newer word on it) unless the held one is a later version
 * (an edit or deletion that arrived before an older copy, versionOf); of two incoming copies the later wins. Answers `existing` itself when nothing
 * changed, so a selector or React.memo sees no change. The usual case — new messages after the newest — appends
 * without sorting.
 */
export function mergeMessages<T extends Versioned>(existing: readonly T[], incoming: readonly T[]): T[] {
  if (incoming.length === 0) return existing as T[];
  const byId = new Map<string, T>();
  for (const message of incoming) {
    const other = byId.get(message.id);
    if (other === undefined || !isOlderVersion(message, other)) byId.set(message.id, message);
  }
  const fresh = [...byId.values()].sort(compareMessages);
  if (existing.length === 0) return fresh;
  // Each incoming id is looked up among those held, even when all of it sorts after the newest: a copy of a held
  // message whose stored time is later than its estimate (a send acknowledged, then its stored copy) does.
  const held = new Map(existing.map((message, index) => [message.id, index]));
  let changed = false;
  // A copy whose time differs from the one held (an estimate the backend has since fixed) moves: sort again.
  let moved = false;
  const replaced = existing.slice();
  const added: T[] = [];
  for (const message of fresh) {
    const index = held.get(message.id);
    if (index === undefined) {
      added.push(message);
      changed = true;
    } else if (replaced[index] !== message) {
      const current = replaced[index];
      if (current !== undefined && isOlderVersion(message, current)) continue;
      if (current?.createdAt !== message.createdAt) moved = true;
      replaced[index] = message;
      changed = true;
    }
  }
  if (!changed) return existing as T[];
  if (moved) return [...replaced, ...added].sort(compareMessages);
  if (added.length === 0) return replaced;
  // What is new usually all comes after the newest held (live messages): appended, in order, with no sort.
  const last = replaced.at(-1);
  const firstAdded = added[0];
  return last && firstAdded && compareMessages(firstAdded, last) > 0
    ? [...replaced, ...added]
    : [...replaced, ...added].sort(compareMessages);
}

/**
 * Whether `message` is an older version than `other` (a copy of the same message): `other` was changed (edited,
 * deleted) and `message` is a copy from before that change. Between two copies of the unchanged message the
 * later word wins whatever its time (a time the backend corrected, an estimate replaced by the stored one).
 */
export function isOlderVersion(message: Versioned, other: Versioned): boolean {
  if (other.updatedAt === undefined) return false;
  return message.updatedAt === undefined || message.updatedAt < other.updatedAt;
}

/**
 * A cursor on the wire (`GET …/messages?before=…&after=…`): `<createdAt>` or `<createdAt>_<id>`; the bare time is
 * the cursor with `id: ''`.
 */
export function encodeCursor(cursor: MessageCursor): string {
  return cursor.id === '' ? String(cursor.createdAt) : `${cursor.createdAt}_${cursor.id}`;
}

const CURSOR_PATTERN = /^(\d{1,16})(?:_([A-Za-z0-9]{20}))?$/;

/** The cursor a wire string stands for, or null when it is not one. */
export function parseCursor(value: string): MessageCursor | null {
  const match = CURSOR_PATTERN.exec(value);
  if (!match?.[1]) return null;
  const createdAt = Number(match[1]);
  if (!Number.isSafeInteger(createdAt)) return null;
  const id = match[2] ?? '';
  if (id !== '' && !DOCUMENT_ID_PATTERN.test(id)) return null;
  return { createdAt, id };
}
