// channel_mutes: until when each person muted each channel (core/mutes.ts). Whether a mute holds at a moment and
// who may set one is decided by the caller; this only reads and writes rows.
import type { ChannelMutes } from '../../core/mutes';
import type { Db } from '../db/database';

export class MutesRepo {
  private readonly upsert;
  private readonly remove;
  private readonly ofUser;

  constructor(db: Db) {
    this.upsert = db.prepare<[string, string, number]>(
      `INSERT INTO channel_mutes (uid, channel_id, muted_until) VALUES (?, ?, ?)
       ON CONFLICT (uid, channel_id) DO UPDATE SET muted_until = excluded.muted_until`,
    );
    this.remove = db.prepare<[string, string]>('DELETE FROM channel_mutes WHERE uid = ? AND channel_id = ?');
    this.ofUser = db.prepare<[string, number], { channel_id: string; muted_until: number }>(
      'SELECT channel_id, muted_until FROM channel_mutes WHERE uid = ? AND muted_until > ?',
    );
  }

  put(uid: string, channelId: string, mutedUntil: number): void {
    this.upsert.run(uid, channelId, mutedUntil);
  }

  delete(uid: string, channelId: string): void {
    this.remove.run(uid, channelId);
  }

  /** The person's mutes that end after `at`, by channel. */
  activeFor(uid: string, at: number): ChannelMutes {
    return Object.fromEntries(this.ofUser.all(uid, at).map((row) => [row.channel_id, row.muted_until]));
  }
}
