// The mail queue's crash test: the server, in its own process with QUPM_SMTP_URL pointing at
// a real SMTP server, is killed with SIGKILL while sign-ups queue confirmation mails and some are in flight (the
// SMTP server holds its answers). After a restart on the same data, every mail queued at the kill is delivered,
// the ones cut off in flight are never sent again, and no address receives its confirmation twice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from '../../server/db/database';
import { startSmtpSink } from '../../drivers/smtpSink';
import type { SmtpSink } from '../../drivers/smtpSink';
import { startChild } from '../../drivers/startChild';
import type { ChildServer } from '../../drivers/startChild';

jest.setTimeout(60_000);

const SIGN_UPS = 12;

let dir: string;
let sink: SmtpSink;
let children: ChildServer[] = [];
beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'qupm-mail-kill-'));
  sink = await startSmtpSink();
  children = [];
});
afterEach(async () => {
  for (const child of children) await child.kill();
  await sink.close();
  rmSync(dir, { recursive: true, force: true });
});

interface JobRow {
  id: number;
  to_address: string;
  state: string;
}

function readJobs(): JobRow[] {
  const db = new Database(path.join(dir, DATABASE_FILE));
  try {
    return db.prepare('SELECT id, to_address, state FROM mail_jobs ORDER BY id').all() as JobRow[];
  } finally {
    db.close();
  }
}

describe('a server killed with mail in flight', () => {
  it('delivers what was queued after the restart and never sends a mail twice', async () => {
    const env = { QUPM_SMTP_URL: sink.url, QUPM_PUBLIC_URL: 'http://qupm.test' };
    const first = await startChild(dir, env);
    children.push(first);
    sink.hold();
    for (let i = 0; i < SIGN_UPS; i += 1) {
      const res = await fetch(`${first.origin}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `person${i}@example.com`, password: 'a-good-password' }),
      });
      // Each sign-up answers while its mail waits: no request waits for SMTP.
      expect(res.status).toBe(200);
    }
    // Wait until the worker has mail in flight (held by the SMTP server) and more behind it.
    for (;;) {
      const jobs = readJobs();
      if (jobs.length === SIGN_UPS && jobs.some((job) => job.state === 'sending')) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await first.kill();
    const atKill = new Map(readJobs().map((job) => [job.id, job.state]));
    expect([...atKill.values()].filter((state) => state === 'sending').length).toBeGreaterThan(0);
    expect([...atKill.values()].filter((state) => state === 'queued').length).toBeGreaterThan(0);
    // The SMTP server answers what it held: those mails may well have arrived (the process died before it knew).
    sink.release();

    const second = await startChild(dir, env);
    children.push(second);
    for (;;) {
      if (readJobs().every((job) => job.state !== 'queued' && job.state !== 'sending')) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const after = readJobs();
    expect(after.filter((job) => atKill.get(job.id) === 'queued').every((job) => job.state === 'sent')).toBe(
      true,
    );
    expect(
      after.filter((job) => atKill.get(job.id) === 'sending').every((job) => job.state === 'abandoned'),
    ).toBe(true);
    // Every queued address got its mail, and no address got two.
    const received = sink.mails.map((mail) => mail.envelopeTo.join());
    expect(received.length).toBe(new Set(received).size);
    for (const job of after.filter((row) => row.state === 'sent')) expect(received).toContain(job.to_address);
  });
});
