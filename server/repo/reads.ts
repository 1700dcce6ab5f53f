// channel_reads: how far each person has read each channel (core/channels.ts ReadMark), behind the overview's
// unread counts. Whether a mark may move is decided by the caller (core/channels.ts nextReadMark, in the
// transaction); this only reads and writes rows.
import type { ReadMark } from '../../core/channels';
import type { Db } from '../db/database';

export class ReadsRepo {
  private readonly byKey;
  private readonly upsert;

  constructor(db: Db) {
    this.byKey = db.prepare<[string, string], { last_read_at: number; last_read_id: string }>(
      'SELECT last_read_at, last_read_id FROM channel_reads WHERE uid = ? AND channel_id = ?',
    );
    this.upsert = db.prepare<[string, string, number, string]>(
      `INSERT INTO channel_reads (uid, channel_id, last_read_at, last_read_id) VALUES (?, ?, ?, ?)
       ON CONFLICT (uid, channel_id) DO UPDATE
       SET last_read_at = excluded.last_read_at, last_read_id = excluded.last_read_id`,
    );
  }

  /** The person's mark in the channel, or null when they never read it. */
  get(uid: string, channelId: string): ReadMark | null {
    const row = this.byKey.get(uid, channelId);
    return row ? { createdAt: row.last_read_at, id: row.last_read_id } : null;
  }

  put(uid: string, channelId: string, mark: ReadMark): void {
    this.upsert.run(uid, channelId, mark.createdAt, mark.id);
  }
}
