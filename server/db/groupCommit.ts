// Group commit: the writes asked for within one turn of the event loop share one SQLite transaction. Each runs in
// a savepoint of its own, so one that throws undoes only itself; each caller is answered after the commit, with
// its own result or error, so nothing is acknowledged that a kill could still take back. A commit of its own per
// message (BEGIN IMMEDIATE, the WAL append, COMMIT) was most of a message write's cost under load.
import type { Db } from './database';

interface Waiting {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export class GroupCommit {
  private waiting: Waiting[] = [];
  private scheduled = false;
  private commitsMade = 0;

  constructor(private readonly db: Db) {}

  /** Transactions committed so far (the benchmark reports writes per commit). */
  get commits(): number {
    return this.commitsMade;
  }

  /**
   * Runs `fn` inside the next group's write transaction (as write() would alone: it reads and decides there) and
   * answers its result once that transaction has committed; its error, with its own changes undone, otherwise.
   */
  run<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the I/O phase: the requests read in it are all waiting by then.
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits what is waiting now (the server closing: before its database does). */
  flushNow(): void {
    if (this.waiting.length > 0) this.flush();
  }

  private flush(): void {
    if (this.waiting.length === 0) return;
    const group = this.waiting;
    this.waiting = [];
    this.scheduled = false;
    const outcomes: Outcome[] = [];
    try {
      this.db
        .transaction(() => {
          for (const { fn } of group) {
            try {
              // Nested in the group's transaction, better-sqlite3 runs it in a savepoint.
              outcomes.push({ ok: true, value: this.db.transaction(fn)() });
            } catch (error) {
              outcomes.push({ ok: false, error });
            }
          }
        })
        .immediate();
      this.commitsMade += 1;
    } catch (error) {
      // The commit itself failed (the disk, a busy database past its timeout): nothing of the group was kept.
      for (const { reject } of group) reject(error);
      return;
    }
    group.forEach(({ resolve, reject }, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok) resolve(outcome.value);
      else reject(outcome?.error);
    });
  }
}
