// push_jobs: the push queue (migration 002). Rows in, jobs out; server/services/pushQueue.ts decides.
import type { Db } from '../db/database';

export type PushJobState = 'queued' | 'sending' | 'sent' | 'gone' | 'failed' | 'abandoned';

export interface NewPushJob {
  messageId: string;
  uid: string;
  tokenId: string;
  /** The JSON pushed (ARCHITECTURE.md "Push payload"). */
  payload: string;
}

export interface PushJob extends NewPushJob {
  id: number;
  /** Attempts made so far, this one included once claimed. */
  attempts: number;
}

interface JobRow {
  id: number;
  message_id: string;
  uid: string;
  token_id: string;
  payload: string;
  attempts: number;
}

const toJob = (row: JobRow): PushJob => ({
  id: row.id,
  messageId: row.message_id,
  uid: row.uid,
  tokenId: row.token_id,
  payload: row.payload,
  attempts: row.attempts,
});

/** Finished jobs are kept this long (for an operator to look at), then deleted by the periodic prune. */
export const FINISHED_JOB_RETENTION_MS = 24 * 60 * 60 * 1000;

export class PushJobsRepo {
  private readonly insertRow;
  private readonly due;
  private readonly claimRow;
  private readonly finishRow;
  private readonly retryRow;
  private readonly abandonAll;
  private readonly nextDue;
  private readonly deleteFinished;

  constructor(db: Db) {
    // A message is enqueued once per token document: a repeated insert (never expected) is ignored.
    this.insertRow = db.prepare(
      `INSERT OR IGNORE INTO push_jobs (message_id, uid, token_id, payload, state, attempts, next_attempt_at,
         created_at, updated_at)
       VALUES (@messageId, @uid, @tokenId, @payload, 'queued', 0, @now, @now, @now)`,
    );
    this.due = db.prepare<[number, number], JobRow>(
      `SELECT id, message_id, uid, token_id, payload, attempts FROM push_jobs
       WHERE state = 'queued' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
    );
    this.claimRow = db.prepare<[number, number]>(
      `UPDATE push_jobs SET state = 'sending', attempts = attempts + 1, updated_at = ?
       WHERE id = ? AND state = 'queued'`,
    );
    this.finishRow = db.prepare<[PushJobState, number, number]>(
      `UPDATE push_jobs SET state = ?, updated_at = ? WHERE id = ? AND state = 'sending'`,
    );
    this.retryRow = db.prepare<[number, number, number]>(
      `UPDATE push_jobs SET state = 'queued', next_attempt_at = ?, updated_at = ? WHERE id = ? AND state = 'sending'`,
    );
    this.abandonAll = db.prepare<[number]>(
      `UPDATE push_jobs SET state = 'abandoned', updated_at = ? WHERE state = 'sending'`,
    );
    this.nextDue = db.prepare<[], { at: number | null }>(
      `SELECT MIN(next_attempt_at) AS at FROM push_jobs WHERE state = 'queued'`,
    );
    this.deleteFinished = db.prepare<[number]>(
      `DELETE FROM push_jobs WHERE state IN ('sent', 'gone', 'failed', 'abandoned') AND updated_at < ?`,
    );
  }

  enqueue(jobs: readonly NewPushJob[], now: number): void {
    for (const job of jobs) this.insertRow.run({ ...job, now });
  }

  /** Marks up to `limit` due jobs 'sending' (the caller commits this before any push leaves) and answers them. */
  claim(now: number, limit: number): PushJob[] {
    const rows = this.due.all(now, limit);
    return rows
      .filter((row) => this.claimRow.run(now, row.id).changes === 1)
      .map((row) => toJob({ ...row, attempts: row.attempts + 1 }));
  }

  finish(id: number, state: Exclude<PushJobState, 'queued' | 'sending'>, now: number): void {
    this.finishRow.run(state, now, id);
  }

  retryAt(id: number, at: number, now: number): void {
    this.retryRow.run(at, now, id);
  }

  /** At start: jobs a crash left 'sending' may have reached the push service; they are never sent again. */
  abandonInFlight(now: number): number {
    return this.abandonAll.run(now).changes;
  }

  /** When the next queued job is due, or null when none is queued. */
  nextDueAt(): number | null {
    return this.nextDue.get()?.at ?? null;
  }

  pruneFinished(before: number): number {
    return this.deleteFinished.run(before).changes;
  }
}
