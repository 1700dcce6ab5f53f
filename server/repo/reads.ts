// channel_reads: when each person last read each channel (the overview's unread counts, core/channels.ts).
import type { Db } from '../db/database';

export class ReadsRepo {
  private readonly byKey;
  private readonly upsert;

  constructor(db: Db) {
    this.byKey = db.prepare<[string, string], { last_read_at: number }>(
      'SELECT last_read_at FROM channel_reads WHERE uid = ? AND channel_id = ?',
    );
    // A marker only moves forward: a late request with an older time never marks messages unread again.
    this.upsert = db.prepare<[string, string, number]>(
      `INSERT INTO channel_reads (uid, channel_id, last_read_at) VALUES (?, ?, ?)
       ON CONFLICT (uid, channel_id) DO UPDATE SET last_read_at = MAX(last_read_at, excluded.last_read_at)`,
    );
  }

  /** The marker, or null when the person never read the channel. */
  lastReadAt(uid: string, channelId: string): number | null {
    return this.byKey.get(uid, channelId)?.last_read_at ?? null;
  }

  mark(uid: string, channelId: string, at: number): void {
    this.upsert.run(uid, channelId, at);
  }
}
