// The worker both SQLite queues share (pushQueue.ts, mailQueue.ts): it claims due jobs in a committed
// transaction before sending them, keeps at most `concurrency` in flight, is woken when new jobs are committed
// and by a timer when the next retry is due, and at start abandons what a crash left 'sending' (at most once).
// What a delivery is, and what its outcome writes, is each queue's own.
import { write } from '../db/database';
import type { Db } from '../db/database';

/** The queue's table, as the worker needs it (server/repo/pushJobs.ts, mailJobs.ts). */
/** setTimeout's longest delay (about 24.8 days); a later job is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface JobStore<Job> {
  claim(now: number, limit: number): Job[];
  abandonInFlight(now: number): number;
  nextDueAt(): number | null;
}

export interface JobQueueSettings<Job> {
  db: Db;
  now: () => number;
  jobs: JobStore<Job>;
  concurrency: number;
  /** How the logs name it: 'push(es)' and 'push queue', 'mail(s)' and 'mail queue'. */
  words: { jobs: string; queue: string };
}

export abstract class JobQueue<Job> {
  private running: Promise<void> | null = null;
  private wanted = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  /** Resolves the worker's wait when new jobs arrive while deliveries are in flight. */
  private nudge: (() => void) | null = null;

  constructor(private readonly settings: JobQueueSettings<Job>) {}

  /** Sends one claimed job and writes its outcome; never rejects for a refused delivery. */
  protected abstract deliver(job: Job): Promise<void>;

  /** Abandons what a crash left in flight, then sends whatever is due. */
  start(): number {
    const { db, now, jobs, words } = this.settings;
    const abandoned = write(db, () => jobs.abandonInFlight(now()));
    if (abandoned > 0) {
      console.warn(`QuPM: ${abandoned} ${words.jobs} cut off by a crash were not sent again (at most once).`);
    }
    this.wake();
    return abandoned;
  }

  /** New jobs were committed (or one became due): send them. Cheap to call often. */
  wake(): void {
    if (this.stopped) return;
    this.wanted = true;
    this.nudge?.();
    if (this.running) return;
    this.running = this.drain()
      .catch((error: unknown) =>
        console.error(`QuPM: the ${this.settings.words.queue} stopped on an error`, error),
      )
      .finally(() => {
        this.running = null;
        if (this.wanted) this.wake();
      });
  }

  /** Stops claiming jobs and waits for the deliveries in flight (each bounded by its own timeout). */
  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.nudge?.();
    await this.running;
  }

  private async drain(): Promise<void> {
    const { db, now, jobs, concurrency } = this.settings;
    const inFlight = new Set<Promise<void>>();
    while (!this.stopped) {
      this.wanted = false;
      const room = concurrency - inFlight.size;
      const claimed = room > 0 ? write(db, () => jobs.claim(now(), room)) : [];
      for (const job of claimed) {
        const delivery: Promise<void> = this.deliver(job).finally(() => inFlight.delete(delivery));
        inFlight.add(delivery);
      }
      if (inFlight.size === 0) break;
      // Until a delivery finishes (a slot frees) or new jobs are committed (there may be room for them).
      const nudged = new Promise<void>((resolve) => {
        this.nudge = resolve;
      });
      await Promise.race([...inFlight, ...(this.wanted ? [] : [nudged])]);
      this.nudge = null;
    }
    await Promise.all(inFlight);
    this.scheduleNext();
  }

  /** Wakes the worker when the next queued job (a retry) is due. */
  private scheduleNext(): void {
    if (this.stopped) return;
    const at = this.settings.jobs.nextDueAt();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (at === null) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.wake();
      },
      Math.min(Math.max(0, at - this.settings.now()), MAX_TIMER_MS),
    );
    this.timer.unref();
  }
}
