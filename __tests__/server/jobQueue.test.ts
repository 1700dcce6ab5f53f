// The runner the push and mail queues share (server/services/jobQueue.ts), on a real SQLite file with a table of
// its own, so what is checked is the runner and not either queue: it never has more than `concurrency` deliveries
// in flight, a burst committed while deliveries are in flight is all sent, a retry wakes it when due, a job a crash
// left in flight is abandoned (never sent again), a delivery that throws is logged and does not stop the next
// wake, and close() waits for what is in flight and claims nothing after.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, write } from '../../server/db/database';
import type { Db } from '../../server/db/database';
import { JobQueue } from '../../server/services/jobQueue';
import type { JobStore } from '../../server/services/jobQueue';
import { eventually } from '../support/eventually';

interface Job {
  id: number;
  payload: string;
  attempts: number;
}

type State = 'queued' | 'sending' | 'done' | 'abandoned';

/** The queue's table, as a repo of server/repo/ would hold it. */
class TestJobs implements JobStore<Job> {
  constructor(private readonly db: Db) {
    db.exec(`CREATE TABLE IF NOT EXISTS test_jobs (
      id INTEGER PRIMARY KEY, payload TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
      due_at INTEGER NOT NULL)`);
  }
  add(payload: string, dueAt = 0, state: State = 'queued'): void {
    this.db
      .prepare('INSERT INTO test_jobs (payload, state, due_at) VALUES (?, ?, ?)')
      .run(payload, state, dueAt);
  }
  claim(now: number, limit: number): Job[] {
    const rows = this.db
      .prepare<[number, number], Job>(
        `SELECT id, payload, attempts FROM test_jobs WHERE state = 'queued' AND due_at <= ? ORDER BY id LIMIT ?`,
      )
      .all(now, limit);
    for (const row of rows) {
      this.db
        .prepare(`UPDATE test_jobs SET state = 'sending', attempts = attempts + 1 WHERE id = ?`)
        .run(row.id);
    }
    return rows.map((row) => ({ ...row, attempts: row.attempts + 1 }));
  }
  abandonInFlight(): number {
    return this.db.prepare(`UPDATE test_jobs SET state = 'abandoned' WHERE state = 'sending'`).run().changes;
  }
  nextDueAt(): number | null {
    const row = this.db
      .prepare<[], { at: number | null }>(`SELECT MIN(due_at) AS at FROM test_jobs WHERE state = 'queued'`)
      .get();
    return row?.at ?? null;
  }
  set(id: number, state: State, dueAt?: number): void {
    this.db
      .prepare('UPDATE test_jobs SET state = ?, due_at = COALESCE(?, due_at) WHERE id = ?')
      .run(state, dueAt ?? null, id);
  }
  states(): Array<[string, State]> {
    return this.db
      .prepare<[], { payload: string; state: State }>('SELECT payload, state FROM test_jobs ORDER BY id')
      .all()
      .map((row) => [row.payload, row.state]);
  }
}

/** A delivery the test finishes by hand, so it sees what is in flight at every moment. */
interface Pending {
  job: Job;
  finish: (outcome?: 'done' | { retryInMs: number } | 'throw') => void;
}

class TestQueue extends JobQueue<Job> {
  readonly pending: Pending[] = [];
  readonly delivered: string[] = [];
  inFlight = 0;
  maxInFlight = 0;

  constructor(
    private readonly db: Db,
    private readonly jobs: TestJobs,
    private readonly now: () => number,
    concurrency: number,
  ) {
    super({ db, now, jobs, concurrency, words: { jobs: 'test job(s)', queue: 'test queue' } });
  }

  protected deliver(job: Job): Promise<void> {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    return new Promise<void>((resolve, reject) => {
      this.pending.push({
        job,
        finish: (outcome = 'done') => {
          this.inFlight -= 1;
          this.pending.splice(
            this.pending.findIndex((p) => p.job.id === job.id),
            1,
          );
          if (outcome === 'throw') {
            reject(new Error('delivery bug'));
            return;
          }
          this.delivered.push(job.payload);
          write(this.db, () =>
            outcome === 'done'
              ? this.jobs.set(job.id, 'done')
              : this.jobs.set(job.id, 'queued', this.now() + outcome.retryInMs),
          );
          resolve();
        },
      });
    });
  }

  finishAll(): void {
    for (const p of [...this.pending]) p.finish();
  }
}

let dir: string;
let db: Db;
let jobs: TestJobs;
const queues: TestQueue[] = [];
const queue = (concurrency: number, now: () => number = Date.now): TestQueue => {
  const q = new TestQueue(db, jobs, now, concurrency);
  queues.push(q);
  return q;
};

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'qupm-jobqueue-'));
  db = openDatabase(path.join(dir, 'qupm.sqlite'));
  jobs = new TestJobs(db);
});
afterEach(async () => {
  for (const q of queues.splice(0)) {
    q.finishAll();
    await q.close();
  }
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the shared queue runner', () => {
  it('keeps at most `concurrency` deliveries in flight through a burst, and sends every job once', async () => {
    const q = queue(3);
    for (let i = 0; i < 20; i += 1) jobs.add(`job ${i}`);
    q.start();
    await eventually(() => expect(q.pending).toHaveLength(3));
    // A burst committed while deliveries are in flight, then the slots free one by one.
    for (let i = 20; i < 30; i += 1) jobs.add(`job ${i}`);
    q.wake();
    while (q.delivered.length < 30) {
      await eventually(() => expect(q.pending.length).toBeGreaterThan(0));
      q.pending[0]!.finish();
    }
    expect(q.maxInFlight).toBe(3);
    expect([...q.delivered].sort()).toEqual(Array.from({ length: 30 }, (_, i) => `job ${i}`).sort());
    expect(new Set(q.delivered).size).toBe(30);
    expect(jobs.states().every(([, state]) => state === 'done')).toBe(true);
  });

  it('fills a freed slot with a job committed while every slot was busy', async () => {
    const q = queue(1);
    jobs.add('first');
    q.start();
    await eventually(() => expect(q.pending.map((p) => p.job.payload)).toEqual(['first']));
    jobs.add('second');
    q.wake(); // woken while the only slot is busy: nothing more is claimed yet
    expect(q.pending).toHaveLength(1);
    q.pending[0]!.finish();
    await eventually(() => expect(q.pending.map((p) => p.job.payload)).toEqual(['second']));
    q.pending[0]!.finish();
    await eventually(() =>
      expect(jobs.states()).toEqual([
        ['first', 'done'],
        ['second', 'done'],
      ]),
    );
  });

  it('is woken by its own timer when a retry becomes due', async () => {
    const q = queue(2);
    jobs.add('flaky');
    q.start();
    await eventually(() => expect(q.pending).toHaveLength(1));
    q.pending[0]!.finish({ retryInMs: 50 });
    // Nobody calls wake(): the timer set from nextDueAt() does.
    await eventually(() =>
      expect(q.pending.map((p) => [p.job.payload, p.job.attempts])).toEqual([['flaky', 2]]),
    );
    q.pending[0]!.finish();
    await eventually(() => expect(jobs.states()).toEqual([['flaky', 'done']]));
  });

  it("waits for a job due beyond setTimeout's longest delay without waking in a loop", async () => {
    const claim = jest.spyOn(jobs, 'claim');
    jobs.add('in forty days', Date.now() + 40 * 24 * 60 * 60 * 1000);
    const q = queue(1);
    q.start();
    await new Promise((resolve) => setTimeout(resolve, 200));
    // An unclamped delay overflows to 1 ms: the worker would claim about 200 times here.
    expect(claim.mock.calls.length).toBeLessThanOrEqual(2);
    expect(q.pending).toHaveLength(0);
  });

  it('abandons what a crash left in flight at start, and sends what was queued', async () => {
    jobs.add('cut off', 0, 'sending');
    jobs.add('waiting');
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const q = queue(2);
      expect(q.start()).toBe(1);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/1 test job\(s\) cut off by a crash/));
      await eventually(() => expect(q.pending.map((p) => p.job.payload)).toEqual(['waiting']));
      q.finishAll();
      await eventually(() =>
        expect(jobs.states()).toEqual([
          ['cut off', 'abandoned'],
          ['waiting', 'done'],
        ]),
      );
      expect(q.delivered).toEqual(['waiting']);
    } finally {
      warn.mockRestore();
    }
  });

  it('logs a delivery that throws and keeps working on the next wake', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const q = queue(1);
      jobs.add('buggy');
      q.start();
      await eventually(() => expect(q.pending).toHaveLength(1));
      q.pending[0]!.finish('throw');
      await eventually(() =>
        expect(error).toHaveBeenCalledWith('QuPM: the test queue stopped on an error', expect.any(Error)),
      );
      jobs.add('next');
      q.wake();
      await eventually(() => expect(q.pending.map((p) => p.job.payload)).toEqual(['next']));
      q.pending[0]!.finish();
      await eventually(() => expect(q.delivered).toEqual(['next']));
    } finally {
      error.mockRestore();
    }
  });

  it('close() waits for the deliveries in flight and claims nothing after', async () => {
    const q = queue(2);
    jobs.add('a');
    jobs.add('b');
    jobs.add('c');
    q.start();
    await eventually(() => expect(q.pending).toHaveLength(2));
    let closed = false;
    const closing = q.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    q.finishAll();
    await closing;
    expect(q.delivered.sort()).toEqual(['a', 'b']);
    q.wake();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(q.pending).toHaveLength(0);
    expect(jobs.states().find(([payload]) => payload === 'c')).toEqual(['c', 'queued']);
  });
});
