// mail_jobs: the mail queue (migration 008). Rows in, jobs out; server/services/mailQueue.ts decides.
import type { Db } from '../db/database';

export type MailJobState = 'queued' | 'sending' | 'sent' | 'failed' | 'abandoned';

/** A mail as it is queued: already checked (server/services/mail.ts enqueueMail), nothing left to render. */
export interface NewMailJob {
  /** What the mail is for ('verify-email', 'reset-password', …): for an operator and for tests. */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, already free of CR/LF (e.g. List-Unsubscribe). */
  headers: Record<string, string>;
  /** A calendar invitation sent with it (core/calendar.ts): its iTIP method and the .ics text. */
  calendar?: MailCalendar;
}

export interface MailCalendar {
  method: 'REQUEST' | 'CANCEL';
  content: string;
}

export interface MailJob extends NewMailJob {
  id: number;
  /** Attempts made so far, this one included once claimed. */
  attempts: number;
}

interface JobRow {
  id: number;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  headers: string;
  attempts: number;
  calendar: string | null;
}

function readHeaders(json: string): Record<string, string> {
  try {
    const parsed = JSON.parse(json) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return Object.fromEntries(
        Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
    }
  } catch {
    // A damaged row sends without its extra headers rather than not at all.
  }
  return {};
}

function readCalendar(json: string | null): MailCalendar | undefined {
  if (json === null) return undefined;
  try {
    const parsed = JSON.parse(json) as Partial<MailCalendar>;
    if ((parsed.method === 'REQUEST' || parsed.method === 'CANCEL') && typeof parsed.content === 'string') {
      return { method: parsed.method, content: parsed.content };
    }
  } catch {
    // A damaged calendar is left off; the mail's words still say what changed.
  }
  return undefined;
}

const toJob = (row: JobRow): MailJob => ({
  ...(readCalendar(row.calendar) ? { calendar: readCalendar(row.calendar) } : {}),
  id: row.id,
  kind: row.kind,
  to: row.to_address,
  subject: row.subject,
  text: row.text_body,
  html: row.html_body,
  headers: readHeaders(row.headers),
  attempts: row.attempts,
});

/** Finished mail is kept this long (for an operator to look at), then deleted by the periodic prune. */
export const FINISHED_MAIL_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export class MailJobsRepo {
  private readonly insertRow;
  private readonly due;
  private readonly claimRow;
  private readonly finishRow;
  private readonly retryRow;
  private readonly abandonAll;
  private readonly nextDue;
  private readonly dropQueued;
  private readonly stopSending;
  private readonly deleteFinished;

  constructor(db: Db) {
    this.insertRow = db.prepare(
      `INSERT INTO mail_jobs (kind, to_address, subject, text_body, html_body, headers, state, attempts,
         next_attempt_at, created_at, updated_at, calendar)
       VALUES (@kind, @to, @subject, @text, @html, @headers, 'queued', 0, @now, @now, @now, @calendar)`,
    );
    this.due = db.prepare<[number, number], JobRow>(
      `SELECT id, kind, to_address, subject, text_body, html_body, headers, attempts, calendar FROM mail_jobs
       WHERE state = 'queued' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
    );
    this.claimRow = db.prepare<[number, number]>(
      `UPDATE mail_jobs SET state = 'sending', attempts = attempts + 1, updated_at = ?
       WHERE id = ? AND state = 'queued'`,
    );
    this.finishRow = db.prepare<[MailJobState, string | null, number, number]>(
      `UPDATE mail_jobs SET state = ?, last_error = ?, updated_at = ? WHERE id = ? AND state = 'sending'`,
    );
    this.retryRow = db.prepare<[number, string, number, number]>(
      `UPDATE mail_jobs SET state = 'queued', next_attempt_at = ?, last_error = ?, updated_at = ?
       WHERE id = ? AND state = 'sending'`,
    );
    this.abandonAll = db.prepare<[number]>(
      `UPDATE mail_jobs SET state = 'abandoned', updated_at = ? WHERE state = 'sending'`,
    );
    this.nextDue = db.prepare<[], { at: number | null }>(
      `SELECT MIN(next_attempt_at) AS at FROM mail_jobs WHERE state = 'queued'`,
    );
    this.dropQueued = db.prepare<[string]>(
      `DELETE FROM mail_jobs WHERE state = 'queued' AND to_address = ? COLLATE NOCASE`,
    );
    this.stopSending = db.prepare<[number, string]>(
      `UPDATE mail_jobs SET state = 'failed', last_error = 'recipient-gone', updated_at = ?
       WHERE state = 'sending' AND to_address = ? COLLATE NOCASE`,
    );
    this.deleteFinished = db.prepare<[number]>(
      `DELETE FROM mail_jobs WHERE state IN ('sent', 'failed', 'abandoned') AND updated_at < ?`,
    );
  }

  /**
   * Forgets the mail still waiting for `address` (an account deleted: nothing more reaches it); one being sent
   * right now is marked failed, so a failed attempt is not retried. Answers how many were stopped.
   */
  dropQueuedTo(address: string, now: number): number {
    return this.dropQueued.run(address).changes + this.stopSending.run(now, address).changes;
  }

  /** Queues one mail; answers its id. */
  enqueue(job: NewMailJob, now: number): number {
    const result = this.insertRow.run({
      kind: job.kind,
      to: job.to,
      subject: job.subject,
      text: job.text,
      html: job.html,
      headers: JSON.stringify(job.headers),
      calendar: job.calendar ? JSON.stringify(job.calendar) : null,
      now,
    });
    return Number(result.lastInsertRowid);
  }

  /** Marks up to `limit` due jobs 'sending' (the caller commits this before any mail leaves) and answers them. */
  claim(now: number, limit: number): MailJob[] {
    return this.due
      .all(now, limit)
      .filter((row) => this.claimRow.run(now, row.id).changes === 1)
      .map((row) => toJob({ ...row, attempts: row.attempts + 1 }));
  }

  finish(id: number, state: 'sent' | 'failed', now: number, error: string | null = null): void {
    this.finishRow.run(state, error, now, id);
  }

  retryAt(id: number, at: number, error: string, now: number): void {
    this.retryRow.run(at, error, now, id);
  }

  /** At start: mail a crash left 'sending' may have reached the SMTP server; it is never sent again. */
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
