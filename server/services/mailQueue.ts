// The mail queue's worker, on the runner it shares with the push queue (jobQueue.ts). Jobs
// are written by enqueueMail (mail.ts) in the transaction of what caused them; this worker, in the server's
// process, hands them to the transport (SMTP, or the console):
//
//   queued ──claim (committed before SMTP)──▶ sending ──▶ sent
//     ▲                                          │
//     └──── refused for now, attempts left: ◀────┴──▶ failed (refused for good: a 5xx, or no attempts left)
//           after a backoff
//
// At most once: a job still 'sending' when the server starts again was cut off by a crash; it may have reached
// the SMTP server, so it becomes 'abandoned' and is never sent again. Queued jobs resume.
import { write } from '../db/database';
import { JobQueue } from './jobQueue';
import type { Db } from '../db/database';
import type { Repos } from '../repo';
import type { MailJob } from '../repo/mailJobs';
import { FINISHED_MAIL_RETENTION_MS } from '../repo/mailJobs';
import type { MailSettings } from './mail';
import { MailSendError, oneLine } from './mail';
import { backoffMs } from './pushQueue';
import type { RetryPolicy } from './pushQueue';

/** 8 attempts over about 40 minutes: an SMTP server restarted or briefly refusing still gets the mail. */
export const DEFAULT_MAIL_RETRY: RetryPolicy = { attempts: 8, baseMs: 10_000, maxMs: 15 * 60_000 };
/** Mails in flight at once: one connection each; a mail server limits connections per client. */
export const DEFAULT_MAIL_CONCURRENCY = 2;

export interface MailQueueOptions {
  retry: RetryPolicy;
  concurrency: number;
}

export interface MailQueueContext {
  db: Db;
  repos: Pick<Repos, 'mailJobs'>;
  now: () => number;
  mail: MailSettings;
}

export class MailQueue extends JobQueue<MailJob> {
  constructor(
    private readonly ctx: MailQueueContext,
    private readonly options: MailQueueOptions,
  ) {
    super({
      db: ctx.db,
      now: ctx.now,
      jobs: ctx.repos.mailJobs,
      concurrency: options.concurrency,
      words: { jobs: 'mail(s)', queue: 'mail queue' },
    });
  }

  /** Stops claiming jobs, waits for the mails in flight (each bounded by the SMTP timeouts), closes SMTP. */
  override async close(): Promise<void> {
    await super.close();
    this.ctx.mail.transport.close();
  }

  /** Deletes finished jobs older than a week (the server's periodic housekeeping). */
  pruneFinished(): number {
    return write(this.ctx.db, () =>
      this.ctx.repos.mailJobs.pruneFinished(this.ctx.now() - FINISHED_MAIL_RETENTION_MS),
    );
  }

  protected async deliver(job: MailJob): Promise<void> {
    const { repos, db, mail } = this.ctx;
    try {
      await mail.transport.send({
        from: mail.from,
        to: job.to,
        subject: job.subject,
        text: job.text,
        html: job.html,
        headers: job.headers,
        ...(job.calendar ? { calendar: job.calendar } : {}),
      });
      write(db, () => repos.mailJobs.finish(job.id, 'sent', this.ctx.now()));
    } catch (error) {
      const reason = oneLine(error instanceof Error ? error.message : String(error)).slice(0, 500);
      const permanent = error instanceof MailSendError && error.permanent;
      const now = this.ctx.now();
      try {
        write(db, () => {
          if (permanent || job.attempts >= this.options.retry.attempts) {
            repos.mailJobs.finish(job.id, 'failed', now, reason);
            console.warn(`QuPM: a ${job.kind} mail to ${job.to} was not sent: ${reason}`);
          } else {
            repos.mailJobs.retryAt(job.id, now + backoffMs(this.options.retry, job.attempts), reason, now);
          }
        });
      } catch {
        // The database is gone too; the job stays 'sending' and is abandoned at the next start.
      }
    }
  }
}
