// A mail queue of its own over a real SQLite file (the migrations applied), for the tests of the queue and the
// transports: mail is enqueued the way services do (enqueueMail inside write()) and sent by the real worker.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, write } from '../../../server/db/database';
import type { Db } from '../../../server/db/database';
import { createRepos } from '../../../server/repo';
import type { Repos } from '../../../server/repo';
import { enqueueMail, parseMailFrom } from '../../../server/services/mail';
import type { MailContext, MailMessage, MailSettings, MailTransport } from '../../../server/services/mail';
import { MailQueue } from '../../../server/services/mailQueue';
import type { RetryPolicy } from '../../../server/services/pushQueue';

export interface MailJobRow {
  id: number;
  kind: string;
  to_address: string;
  subject: string;
  state: string;
  attempts: number;
  last_error: string | null;
}

export interface MailWorld {
  db: Db;
  repos: Repos;
  queue: MailQueue;
  ctx: MailContext;
  /** Enqueues in a write transaction, as a service does; answers the job id. */
  send(mail: Partial<MailMessage> & { to: string }): number;
  jobs(): MailJobRow[];
  /** Waits until no job is queued or in flight. */
  drained(): Promise<void>;
  /** Waits until `test` holds of the jobs. */
  until(test: (jobs: MailJobRow[]) => boolean): Promise<void>;
  close(): Promise<void>;
}

/** Quick retries on the real clock: a test waits milliseconds, not minutes. */
export const QUICK_RETRY: RetryPolicy = { attempts: 5, baseMs: 20, maxMs: 100 };

export function mailWorld(
  transport: MailTransport,
  retry: RetryPolicy = QUICK_RETRY,
  dir?: string,
): MailWorld {
  const folder = dir ?? mkdtempSync(path.join(tmpdir(), 'qupm-mail-'));
  const db = openDatabase(path.join(folder, 'mail.sqlite'));
  const repos = createRepos(db);
  const mail: MailSettings = {
    from: parseMailFrom('QuPM <no-reply@qupm.test>'),
    transport,
    publicUrl: () => 'http://qupm.test',
  };
  const queue = new MailQueue({ db, repos, now: Date.now, mail }, { retry, concurrency: 2 });
  const ctx: MailContext = { repos, now: Date.now, mail, mailQueue: queue };
  const jobs = (): MailJobRow[] =>
    db
      .prepare('SELECT id, kind, to_address, subject, state, attempts, last_error FROM mail_jobs ORDER BY id')
      .all() as MailJobRow[];
  const until = async (test: (rows: MailJobRow[]) => boolean): Promise<void> => {
    while (!test(jobs())) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  return {
    db,
    repos,
    queue,
    ctx,
    send: (input) =>
      write(db, () =>
        enqueueMail(ctx, {
          kind: 'test',
          subject: 'Hello',
          text: 'Plain words.',
          html: '<p>Plain words.</p>',
          ...input,
        }),
      ),
    jobs,
    drained: () => until((rows) => rows.every((row) => row.state !== 'queued' && row.state !== 'sending')),
    until,
    async close() {
      await queue.close();
      db.close();
      if (!dir) rmSync(folder, { recursive: true, force: true });
    },
  };
}
