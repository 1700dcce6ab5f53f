// Message search over migration 018's FTS5 index: the person's own channels only (owner or member, joined in the
// query itself, so no caller of this can get a hit from another channel), deleted messages never, newest first,
// paged by a (createdAt, id) cursor as every message list is (core/messages.ts).
import type { Db } from '../db/database';
import type { MessageCursor } from '../../core/messages';
import type { ChatMessage } from '../../core/model';
import { toMessage } from './messages';
import type { MessageRow } from './messages';

export interface SearchOptions {
  /** The FTS5 MATCH expression (core/search.ts ftsQuery: quoted terms only). */
  match: string;
  uid: string;
  /** One channel of the person's, or all of them. */
  channelId: string | null;
  /** The page after this hit. */
  after: MessageCursor | null;
  limit: number;
}

export class MessageSearchRepo {
  private readonly query;

  constructor(db: Db) {
    this.query = db.prepare<
      {
        match: string;
        uid: string;
        channelId: string | null;
        afterAt: number | null;
        afterId: string | null;
        limit: number;
      },
      MessageRow
    >(
      `SELECT m.*,
         (SELECT json_group_object(uid, emoji) FROM message_reactions r WHERE r.message_id = m.id) AS reactions
       FROM message_search s
         JOIN messages m ON m.rowid = s.rowid AND m.id = s.message_id
       WHERE message_search MATCH @match
         AND m.deleted_at IS NULL
         AND m.channel_id IN (
           SELECT id FROM channels WHERE owner_id = @uid
           UNION SELECT channel_id FROM channel_members WHERE uid = @uid)
         AND (@channelId IS NULL OR m.channel_id = @channelId)
         AND (@afterAt IS NULL OR (m.created_at, m.id) < (@afterAt, @afterId))
       ORDER BY m.created_at DESC, m.id DESC
       LIMIT @limit`,
    );
  }

  search(options: SearchOptions): ChatMessage[] {
    return this.query
      .all({
        match: options.match,
        uid: options.uid,
        channelId: options.channelId,
        afterAt: options.after?.createdAt ?? null,
        afterId: options.after?.id ?? null,
        limit: options.limit,
      })
      .map(toMessage);
  }
}
