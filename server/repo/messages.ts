// channels/{id}/messages: plain text, newest last.
import type { Db } from '../db/database';
import type { ChatMessage } from '../../core/model';

interface MessageRow {
  id: string;
  channel_id: string;
  sender_id: string;
  sender_name: string;
  text: string;
  created_at: number;
}

const toMessage = (row: MessageRow): ChatMessage => ({
  id: row.id,
  channelId: row.channel_id,
  senderId: row.sender_id,
  senderName: row.sender_name,
  text: row.text,
  createdAt: row.created_at,
});

export const DEFAULT_MESSAGES_PAGE = 50;

export class MessagesRepo {
  private readonly page;
  private readonly insertRow;
  private readonly last;
  private readonly unreadSince;
  private readonly unreadAll;
  private readonly countRows;

  constructor(db: Db) {
    // rowid breaks ties between messages of the same millisecond in the order they were written.
    this.page = db.prepare<[string, number, number], MessageRow>(
      `SELECT * FROM messages WHERE channel_id = ? AND created_at < ?
       ORDER BY created_at DESC, rowid DESC LIMIT ?`,
    );
    this.insertRow = db.prepare(
      `INSERT INTO messages (id, channel_id, sender_id, sender_name, text, created_at)
       VALUES (@id, @channelId, @senderId, @senderName, @text, @createdAt)`,
    );
    this.last = db.prepare<[string], MessageRow>(
      'SELECT * FROM messages WHERE channel_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
    );
    // core/channels.ts isUnread: by someone else, after the marker (all of them without one).
    this.unreadSince = db.prepare<[string, number, string], { n: number }>(
      'SELECT COUNT(*) AS n FROM messages WHERE channel_id = ? AND created_at > ? AND sender_id != ?',
    );
    this.unreadAll = db.prepare<[string, string], { n: number }>(
      'SELECT COUNT(*) AS n FROM messages WHERE channel_id = ? AND sender_id != ?',
    );
    this.countRows = db.prepare<[string], { n: number }>(
      'SELECT COUNT(*) AS n FROM messages WHERE channel_id = ?',
    );
  }

  /** The channel's newest message, or null when it has none. */
  latest(channelId: string): ChatMessage | null {
    const row = this.last.get(channelId);
    return row ? toMessage(row) : null;
  }

  /** Messages by others than `uid` after `lastReadAt` (all of theirs when null). */
  countUnread(channelId: string, uid: string, lastReadAt: number | null): number {
    const row =
      lastReadAt === null
        ? this.unreadAll.get(channelId, uid)
        : this.unreadSince.get(channelId, lastReadAt, uid);
    return row?.n ?? 0;
  }

  count(channelId: string): number {
    return this.countRows.get(channelId)?.n ?? 0;
  }

  /** The latest `limit` messages before `before` (all when absent), oldest first. */
  list(channelId: string, options: { before?: number; limit?: number } = {}): ChatMessage[] {
    const before = options.before ?? Number.MAX_SAFE_INTEGER;
    const rows = this.page.all(channelId, before, options.limit ?? DEFAULT_MESSAGES_PAGE);
    return rows.reverse().map(toMessage);
  }

  insert(message: ChatMessage): void {
    this.insertRow.run(message);
  }
}
