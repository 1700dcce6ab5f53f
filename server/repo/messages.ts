// channels/{id}/messages: plain text, ordered by (created_at, id) everywhere (core/messages.ts), which the index
// messages_channel_order (migration 003) serves with SQLite row values.
import type { Db } from '../db/database';
import { RowCache } from '../db/rowCache';
import type { MessageCursor } from '../../core/messages';
import { toAttachmentList } from '../../core/attachments';
import { toMessageCard } from '../../core/cards';
import type { ChatMessage } from '../../core/model';
import { toReactions } from '../../core/reactions';
import type { Reaction } from '../../core/reactions';
import { toReplyQuote } from '../../core/replies';

export interface MessageRow {
  id: string;
  channel_id: string;
  sender_id: string;
  sender_name: string;
  text: string;
  created_at: number;
  edited_at: number | null;
  deleted_at: number | null;
  updated_at: number | null;
  /**
   * The message's files as a JSON array of core/attachments.ts Attachment (migration 020), or one Attachment
   * object (a message from before several files, migration 007), or NULL.
   */
  attachment: string | null;
  /** core/cards.ts MessageCard as JSON (migration 011), or NULL. */
  card: string | null;
  /** core/replies.ts ReplyQuote as JSON (migration 017), or NULL. */
  reply_to: string | null;
  /** The reactions as a JSON object uid → emoji (message_reactions, migration 017), or NULL when none. */
  reactions: string | null;
}

/**
 * A message row with its reactions, gathered from message_reactions by its primary key (the rows of one message
 * are adjacent): every read of a message reads them so. Its columns are named, in MessageRow's order, and read as
 * arrays (`raw`): better-sqlite3 sets each column of a row object one by one from C++, which was about half the
 * cost of a page of 50 messages; an array becomes a MessageRow of one shape in JS.
 */
const SELECT_MESSAGES = `SELECT messages.id, messages.channel_id, messages.sender_id, messages.sender_name,
  messages.text, messages.created_at, messages.edited_at, messages.deleted_at, messages.updated_at,
  messages.attachment, messages.card, messages.reply_to,
  (SELECT json_group_object(uid, emoji) FROM message_reactions r WHERE r.message_id = messages.id) AS reactions
  FROM messages`;

/** A row of SELECT_MESSAGES as `raw` reads it. */
type RawMessage = [
  id: string,
  channelId: string,
  senderId: string,
  senderName: string,
  text: string,
  createdAt: number,
  editedAt: number | null,
  deletedAt: number | null,
  updatedAt: number | null,
  attachment: string | null,
  card: string | null,
  replyTo: string | null,
  reactions: string | null,
];

const rowOf = (raw: RawMessage): MessageRow => ({
  id: raw[0],
  channel_id: raw[1],
  sender_id: raw[2],
  sender_name: raw[3],
  text: raw[4],
  created_at: raw[5],
  edited_at: raw[6],
  deleted_at: raw[7],
  updated_at: raw[8],
  attachment: raw[9],
  card: raw[10],
  reply_to: raw[11],
  reactions: raw[12],
});

const messageOf = (raw: RawMessage): ChatMessage => toMessage(rowOf(raw));

function parseAttachments(json: string | null): ChatMessage['attachments'] | null {
  if (json === null) return null;
  try {
    return toAttachmentList(JSON.parse(json));
  } catch {
    return null;
  }
}

function parseCard(json: string | null): ChatMessage['card'] | null {
  if (json === null) return null;
  try {
    return toMessageCard(JSON.parse(json));
  } catch {
    return null;
  }
}

function parseJson<T>(json: string | null, read: (value: unknown) => T | null): T | null {
  if (json === null) return null;
  try {
    return read(JSON.parse(json));
  } catch {
    return null;
  }
}

export const toMessage = (row: MessageRow): ChatMessage => {
  const attachments = parseAttachments(row.attachment);
  const card = parseCard(row.card);
  const replyTo = parseJson(row.reply_to, toReplyQuote);
  const reactions = parseJson(row.reactions, toReactions);
  return {
    id: row.id,
    channelId: row.channel_id,
    senderId: row.sender_id,
    senderName: row.sender_name,
    text: row.text,
    createdAt: row.created_at,
    // Only what a message has (an unchanged one carries none of these).
    ...(row.edited_at !== null ? { editedAt: row.edited_at } : {}),
    ...(row.deleted_at !== null ? { deleted: true as const } : {}),
    ...(row.updated_at !== null ? { updatedAt: row.updated_at } : {}),
    ...(attachments ? { attachments } : {}),
    ...(card ? { card } : {}),
    ...(replyTo ? { replyTo } : {}),
    ...(reactions ? { reactions } : {}),
  };
};

export const DEFAULT_MESSAGES_PAGE = 50;

/** At most one cursor (core/schemas.ts messagesQuery refuses both). */
export interface PageOptions {
  before?: MessageCursor;
  after?: MessageCursor;
  /** The messages changed after this (version, id), in that order. */
  changedAfter?: MessageCursor;
  limit?: number;
}

/** The newest page kept for a channel: as many of its newest messages as the largest page asked, oldest first. */
interface KeptPage {
  limit: number;
  messages: readonly ChatMessage[];
}

/** Channels whose newest page is kept (about 25 KB each at the largest page). */
const KEPT_PAGES = 2_000;

export class MessagesRepo {
  /**
   * The newest page of each channel read lately, what opening a conversation asks: kept until a write to the
   * channel's messages or their reactions (server/db/rowCache.ts), and any smaller page is its tail. The page's
   * statement and its rows' reading were most of that request's work.
   */
  private readonly newestKept;
  private readonly newestPage;
  private readonly beforePage;
  private readonly afterPage;
  private readonly byId;
  private readonly insertRow;
  private readonly last;
  private readonly unreadKept;
  private readonly countRows;
  private readonly changedPage;
  private readonly newestVersions;
  private readonly editRow;
  private readonly deleteRow;
  private readonly clearAttachment;
  private readonly setReactionRow;
  private readonly clearReactionRow;
  private readonly clearReactionsRows;
  private readonly stampRow;
  private readonly quotingRows;
  private readonly scrubQuoteRow;

  constructor(db: Db) {
    this.newestKept = new RowCache<KeptPage>(
      db,
      'message_pages',
      [
        { table: 'messages', keyColumn: 'channel_id' },
        {
          table: 'message_reactions',
          keySql: (row) => `(SELECT channel_id FROM main.messages WHERE id = ${row}.message_id)`,
        },
      ],
      KEPT_PAGES,
    );
    this.newestPage = db
      .prepare<[string, number], RawMessage>(
        `${SELECT_MESSAGES} WHERE channel_id = ?
       ORDER BY created_at DESC, id DESC LIMIT ?`,
      )
      .raw(true);
    this.beforePage = db
      .prepare<[string, number, string, number], RawMessage>(
        `${SELECT_MESSAGES} WHERE channel_id = ? AND (created_at, id) < (?, ?)
       ORDER BY created_at DESC, id DESC LIMIT ?`,
      )
      .raw(true);
    this.afterPage = db
      .prepare<[string, number, string, number], RawMessage>(
        `${SELECT_MESSAGES} WHERE channel_id = ? AND (created_at, id) > (?, ?)
       ORDER BY created_at, id LIMIT ?`,
      )
      .raw(true);
    this.byId = db.prepare<[string], RawMessage>(`${SELECT_MESSAGES} WHERE id = ?`).raw(true);
    this.insertRow = db.prepare(
      `INSERT INTO messages (id, channel_id, sender_id, sender_name, text, created_at, attachment, card, reply_to,
         reply_to_id)
       VALUES (@id, @channelId, @senderId, @senderName, @text, @createdAt, @attachment, @card, @replyTo, @replyToId)`,
    );
    this.last = db
      .prepare<[string], RawMessage>(
        `${SELECT_MESSAGES} WHERE channel_id = ? ORDER BY created_at DESC, id DESC LIMIT 1`,
      )
      .raw(true);
    // core/channels.ts isUnread, kept by migration 015's triggers: with a mark, the count kept beside it; without
    // one, every message of the channel but the person's own.
    this.unreadKept = db.prepare<[string, string, string, string], { n: number }>(
      `SELECT COALESCE(
         (SELECT unread FROM channel_reads WHERE uid = ? AND channel_id = ?),
         (SELECT COALESCE(SUM(CASE sender_id WHEN '' THEN n ELSE -n END), 0) FROM message_counts
           WHERE channel_id = ? AND sender_id IN ('', ?))) AS n`,
    );
    this.countRows = db.prepare<[string], { n: number }>(
      'SELECT COUNT(*) AS n FROM messages WHERE channel_id = ?',
    );
    this.clearAttachment = db.prepare<[string]>('UPDATE messages SET attachment = NULL WHERE id = ?');
    // A channel's changes (messages_channel_changes, migration 004) and its newest version.
    this.changedPage = db
      .prepare<[string, number, string, number], RawMessage>(
        `${SELECT_MESSAGES} WHERE channel_id = ? AND updated_at IS NOT NULL AND (updated_at, id) > (?, ?)
       ORDER BY updated_at, id LIMIT ?`,
      )
      .raw(true);
    this.newestVersions = db.prepare<[string, string], { created: number | null; updated: number | null }>(
      `SELECT (SELECT MAX(created_at) FROM messages WHERE channel_id = ?) AS created,
              (SELECT MAX(updated_at) FROM messages WHERE channel_id = ? AND updated_at IS NOT NULL) AS updated`,
    );
    this.editRow = db.prepare<[string, number, number, string]>(
      'UPDATE messages SET text = ?, edited_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL',
    );
    // The text goes: a deleted message keeps nothing of what it said.
    this.deleteRow = db.prepare<[number, number, string]>(
      "UPDATE messages SET text = '', deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL",
    );
    this.setReactionRow = db.prepare<[string, string, string]>(
      `INSERT INTO message_reactions (message_id, uid, emoji) VALUES (?, ?, ?)
       ON CONFLICT (message_id, uid) DO UPDATE SET emoji = excluded.emoji`,
    );
    this.clearReactionRow = db.prepare<[string, string]>(
      'DELETE FROM message_reactions WHERE message_id = ? AND uid = ?',
    );
    this.clearReactionsRows = db.prepare<[string]>('DELETE FROM message_reactions WHERE message_id = ?');
    this.stampRow = db.prepare<[number, string]>('UPDATE messages SET updated_at = ? WHERE id = ?');
    this.quotingRows = db.prepare<[string], { id: string }>(
      `SELECT id FROM messages WHERE reply_to_id = ? AND json_extract(reply_to, '$.snippet') != ''`,
    );
    this.scrubQuoteRow = db.prepare<[number, string]>(
      `UPDATE messages SET reply_to = json_set(reply_to, '$.snippet', ''), updated_at = ? WHERE id = ?`,
    );
  }

  /** Sets (or, with null, takes back) `uid`'s reaction to a message. */
  setReaction(messageId: string, uid: string, emoji: Reaction | null): void {
    if (emoji === null) this.clearReactionRow.run(messageId, uid);
    else this.setReactionRow.run(messageId, uid, emoji);
  }

  /** A message's reactions go (it was deleted: a tombstone keeps nothing). */
  clearReactions(messageId: string): void {
    this.clearReactionsRows.run(messageId);
  }

  /** A change other than an edit (a reaction, a quote emptied) gives the message a new version `at`. */
  stamp(id: string, at: number): void {
    this.stampRow.run(at, id);
  }

  /** The ids of the replies that quote `messageId` and still carry its snippet. */
  quoting(messageId: string): string[] {
    return this.quotingRows.all(messageId).map((row) => row.id);
  }

  /** The reply's quote keeps the original's id and sender but no longer its words (the original was deleted). */
  scrubQuote(id: string, at: number): void {
    this.scrubQuoteRow.run(at, id);
  }

  /** The newest version stamp of the channel's messages (creations and changes), or null when it has none. */
  newestVersion(channelId: string): number | null {
    const row = this.newestVersions.get(channelId, channelId);
    if (!row || row.created === null) return null;
    return Math.max(row.created, row.updated ?? row.created);
  }

  /** Stores an edit's text, stamped `at` (edited and updated). */
  edit(id: string, text: string, at: number): void {
    this.editRow.run(text, at, at, id);
  }

  /** Deletes a message's text for good, leaving its tombstone stamped `at`. */
  markDeleted(id: string, at: number): void {
    this.deleteRow.run(at, at, id);
  }

  /** The message with this id, in whichever channel it is, or null. */
  get(id: string): ChatMessage | null {
    const raw = this.byId.get(id);
    return raw ? messageOf(raw) : null;
  }

  /** The channel's newest message, or null when it has none. */
  latest(channelId: string): ChatMessage | null {
    const raw = this.last.get(channelId);
    return raw ? messageOf(raw) : null;
  }

  /**
   * Messages by others than `uid` after their read mark (all of theirs when there is none), read from the counts
   * migration 015 keeps: the same whether the channel holds ten messages or 100,000.
   */
  countUnread(channelId: string, uid: string): number {
    return this.unreadKept.get(uid, channelId, channelId, uid)?.n ?? 0;
  }

  count(channelId: string): number {
    return this.countRows.get(channelId)?.n ?? 0;
  }

  /**
   * A page, oldest first. Without a cursor the newest `limit`; `before` the newest `limit` that sort before it;
   * `after` the oldest `limit` that sort after it.
   */
  list(channelId: string, options: PageOptions = {}): ChatMessage[] {
    const limit = options.limit ?? DEFAULT_MESSAGES_PAGE;
    const { before, after, changedAfter } = options;
    if (changedAfter) {
      return this.changedPage.all(channelId, changedAfter.createdAt, changedAfter.id, limit).map(messageOf);
    }
    if (after) return this.afterPage.all(channelId, after.createdAt, after.id, limit).map(messageOf);
    if (before)
      return this.beforePage.all(channelId, before.createdAt, before.id, limit).reverse().map(messageOf);
    const kept = this.newestKept.get(
      channelId,
      () => ({ limit, messages: this.newestPage.all(channelId, limit).reverse().map(messageOf) }),
      (page) => page.limit >= limit,
    );
    // Never null (the read answers a page, empty or not); a smaller page is the kept one's newest end. The kept
    // page itself is answered when it is the whole page, frozen (a change would throw), so that its answer's JSON
    // can be kept with it (server/typeProvider.ts).
    const messages = kept?.messages ?? [];
    return messages.length <= limit ? (messages as ChatMessage[]) : messages.slice(messages.length - limit);
  }

  insert(message: ChatMessage): void {
    const {
      attachments,
      card,
      replyTo,
      editedAt: _e,
      deleted: _d,
      updatedAt: _u,
      reactions: _r,
      ...fields
    } = message;
    this.insertRow.run({
      ...fields,
      attachment: attachments ? JSON.stringify(attachments) : null,
      card: card ? JSON.stringify(card) : null,
      replyTo: replyTo ? JSON.stringify(replyTo) : null,
      replyToId: replyTo ? replyTo.id : null,
    });
  }

  /** The message no longer carries files (they were deleted with it). */
  dropAttachment(id: string): void {
    this.clearAttachment.run(id);
  }
}
