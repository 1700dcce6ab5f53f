// users/{uid}/pending: pending notification counts by source.
import type { Db } from '../db/database';
import type { PendingCounts } from '../../core/pending';

export class PendingRepo {
  private readonly bump;
  private readonly clearAll;
  private readonly all;
  private readonly clearSourceRow;
  private readonly clearOneRow;

  constructor(db: Db) {
    this.bump = db.prepare<[string, string, number]>(
      `INSERT INTO pending_notifications (uid, source, count, updated_at) VALUES (?, ?, 1, ?)
       ON CONFLICT (uid, source) DO UPDATE SET count = count + 1, updated_at = excluded.updated_at`,
    );
    this.clearAll = db.prepare<[string]>('DELETE FROM pending_notifications WHERE uid = ?');
    this.clearSourceRow = db.prepare<[string]>('DELETE FROM pending_notifications WHERE source = ?');
    this.clearOneRow = db.prepare<[string, string]>(
      'DELETE FROM pending_notifications WHERE uid = ? AND source = ?',
    );
    this.all = db.prepare<[string], { source: string; count: number }>(
      'SELECT source, count FROM pending_notifications WHERE uid = ?',
    );
  }

  increment(uids: readonly string[], source: string, now: number): void {
    for (const uid of uids) this.bump.run(uid, source, now);
  }

  clear(uid: string): void {
    this.clearAll.run(uid);
  }

  /** Everyone's pending count from `source` (a channel that is gone). */
  clearSource(source: string): void {
    this.clearSourceRow.run(source);
  }

  /** One person's pending count from `source` (a channel they left). */
  clearFor(uid: string, source: string): void {
    this.clearOneRow.run(uid, source);
  }

  counts(uid: string): PendingCounts {
    const counts: Record<string, number> = {};
    for (const row of this.all.all(uid)) counts[row.source] = row.count;
    return counts;
  }
}
