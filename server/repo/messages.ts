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
