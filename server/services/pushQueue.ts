// The push queue's worker (sending is off the request path). Jobs are written by sendMessage in the
// transaction that stores the message (server/repo/pushJobs.ts); this worker, in the server's process, sends
// them with sendToToken:
//
//   queued ──claim (committed before the HTTP call)──▶ sending ──▶ sent | gone (404/410, token pruned)
//     ▲                                                   │
//     └──── failed, attempts left: after a backoff ◀──────┴──▶ failed (no attempts left)
//
// At most once: a job still 'sending' when the server starts again was cut off by a crash; it may have reached
// the push service, so it becomes 'abandoned' and is never sent again. Queued jobs resume. Each push carries the
// message id as its Topic (RFC 8030 §5.4), so a push service also replaces, rather than adds, a duplicate.
import type { PushJob } from '../repo/pushJobs';
import { FINISHED_JOB_RETENTION_MS } from '../repo/pushJobs';
import { write } from '../db/database';
import { JobQueue } from './jobQueue';
import { sendToToken } from './push';
import type { PushContext } from './push';

export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  attempts: number;
  /** The wait after the first failure; it doubles after each further one… */
  baseMs: number;
  /** …up to this. */
  maxMs: number;
}

/** 5 attempts: after 1, 2, 4 and 8 s (retried with backoff). */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseMs: 1000, maxMs: 60_000 };
/** Pushes in flight at once: enough to keep a push service busy, few enough for 2 cores to encrypt. */
export const DEFAULT_PUSH_CONCURRENCY = 32;

/** The wait before the next attempt after `attempts` failed ones. */
export function backoffMs(policy: RetryPolicy, attempts: number): number {
  return Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempts - 1));
}

export interface PushQueueOptions {
  retry: RetryPolicy;
  concurrency: number;
}

export class PushQueue extends JobQueue<PushJob> {
  constructor(
    private readonly ctx: PushContext,
    private readonly options: PushQueueOptions,
  ) {
    super({
      db: ctx.db,
      now: ctx.now,
      jobs: ctx.repos.pushJobs,
      concurrency: options.concurrency,
      words: { jobs: 'push(es)', queue: 'push queue' },
    });
  }

  /** Deletes finished jobs older than a day (the server's periodic housekeeping). */
  pruneFinished(): number {
    return write(this.ctx.db, () =>
      this.ctx.repos.pushJobs.pruneFinished(this.ctx.now() - FINISHED_JOB_RETENTION_MS),
    );
  }

  protected async deliver(job: PushJob): Promise<void> {
    try {
      await this.attempt(job);
    } catch (error) {
      // Not a push service's answer (those are outcomes): a bug or a broken row. Logged, and not retried.
      console.error(`QuPM: push job ${job.id} failed unexpectedly`, error);
      try {
        write(this.ctx.db, () => this.ctx.repos.pushJobs.finish(job.id, 'failed', this.ctx.now()));
      } catch {
        // The database is gone too; the job stays 'sending' and is abandoned at the next start.
      }
    }
  }

  private async attempt(job: PushJob): Promise<void> {
    const { repos, db } = this.ctx;
    const doc = repos.tokens.get(job.uid, job.tokenId);
    // Signed out or replaced since the message was sent: that device gets nothing.
    if (!doc) {
      write(db, () => repos.pushJobs.finish(job.id, 'gone', this.ctx.now()));
      return;
    }
    const outcome = await sendToToken(this.ctx, job.uid, doc, JSON.parse(job.payload) as unknown, {
      topic: job.messageId,
      // A person is waiting for a reply (functions/ sends FCM's 'Urgency: high' too).
      urgency: 'high',
    });
    const now = this.ctx.now();
    write(db, () => {
      if (outcome === 'sent' || outcome === 'gone') repos.pushJobs.finish(job.id, outcome, now);
      else if (job.attempts >= this.options.retry.attempts) repos.pushJobs.finish(job.id, 'failed', now);
      else repos.pushJobs.retryAt(job.id, now + backoffMs(this.options.retry, job.attempts), now);
    });
  }
}
