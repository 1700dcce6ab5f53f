// Read receipts' rows (core/receipts.ts): the channel's read marks with the time each last moved, the delivered
// marks, and who shares receipts. Whether a mark may move, and who may see what, is decided by the caller.
import type { ReadMark } from '../../core/channels';
import type { Db } from '../db/database';

export interface MarksRow {
  uid: string;
  read: ReadMark | null;
  readAt: number | null;
  delivered: ReadMark | null;
}

interface JoinedRow {
  uid: string;
  last_read_at: number | null;
  last_read_id: string | null;
  marked_at: number | null;
  delivered_at: number | null;
  delivered_id: string | null;
}

export class ReceiptsRepo {
  private readonly marks;
  private readonly deliveredOf;
  private readonly putDelivered;
  private readonly stampRead;
  private readonly sharingOf;
  private readonly turnOff;
  private readonly turnOn;

  constructor(db: Db) {
    // Every person with a read or a delivered mark in the channel (a full outer join, as a union of two lefts).
    this.marks = db.prepare<[string, string], JoinedRow>(
      `SELECT r.uid, r.last_read_at, r.last_read_id, r.marked_at, d.delivered_at, d.delivered_id
         FROM channel_reads r LEFT JOIN channel_deliveries d ON d.uid = r.uid AND d.channel_id = r.channel_id
        WHERE r.channel_id = ?
       UNION ALL
       SELECT d.uid, NULL, NULL, NULL, d.delivered_at, d.delivered_id FROM channel_deliveries d
        WHERE d.channel_id = ?
          AND NOT EXISTS (SELECT 1 FROM channel_reads r WHERE r.uid = d.uid AND r.channel_id = d.channel_id)`,
    );
    this.deliveredOf = db.prepare<[string, string], { delivered_at: number; delivered_id: string }>(
      'SELECT delivered_at, delivered_id FROM channel_deliveries WHERE uid = ? AND channel_id = ?',
    );
    this.putDelivered = db.prepare<[string, string, number, string]>(
      `INSERT INTO channel_deliveries (uid, channel_id, delivered_at, delivered_id) VALUES (?, ?, ?, ?)
       ON CONFLICT (uid, channel_id) DO UPDATE
       SET delivered_at = excluded.delivered_at, delivered_id = excluded.delivered_id`,
    );
    this.stampRead = db.prepare<[number, string, string]>(
      'UPDATE channel_reads SET marked_at = ? WHERE uid = ? AND channel_id = ?',
    );
    this.sharingOf = db.prepare<[string], { uid: string }>('SELECT uid FROM receipts_off WHERE uid = ?');
    this.turnOff = db.prepare<[string, number]>(
      'INSERT INTO receipts_off (uid, since) VALUES (?, ?) ON CONFLICT (uid) DO NOTHING',
    );
    this.turnOn = db.prepare<[string]>('DELETE FROM receipts_off WHERE uid = ?');
  }

  /** Everyone's marks in the channel. */
  list(channelId: string): MarksRow[] {
    return this.marks.all(channelId, channelId).map((row) => ({
      uid: row.uid,
      read: row.last_read_at === null ? null : { createdAt: row.last_read_at, id: row.last_read_id ?? '' },
      readAt: row.marked_at,
      delivered:
        row.delivered_at === null ? null : { createdAt: row.delivered_at, id: row.delivered_id ?? '' },
    }));
  }

  delivered(uid: string, channelId: string): ReadMark | null {
    const row = this.deliveredOf.get(uid, channelId);
    return row ? { createdAt: row.delivered_at, id: row.delivered_id } : null;
  }

  putDeliveredMark(uid: string, channelId: string, mark: ReadMark): void {
    this.putDelivered.run(uid, channelId, mark.createdAt, mark.id);
  }

  /** The read mark moved now. */
  stamp(uid: string, channelId: string, at: number): void {
    this.stampRead.run(at, uid, channelId);
  }

  /** Whether the person shares read receipts: unless they turned them off. */
  sharing(uid: string): boolean {
    return this.sharingOf.get(uid) === undefined;
  }

  setSharingOf(uid: string, enabled: boolean, at: number): void {
    if (enabled) this.turnOn.run(uid);
    else this.turnOff.run(uid, at);
  }
}
