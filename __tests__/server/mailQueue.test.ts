// The mail queue against a real SMTP server: an SMTP server that is down, then up, gets each
// mail once; one that says "later" (4xx) gets it on a retry; one that refuses for good (5xx) is not asked again;
// one that never answers costs an attempt (bounded timeouts), never a hung worker; and a mail a crash left in
// flight is never sent again. (The kill of a real server process is mailCrash.test.ts.)
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { write } from '../../server/db/database';
import { smtpTransport } from '../../server/services/mail';
import { startSmtpSink } from '../../drivers/smtpSink';
import type { SmtpSink } from '../../drivers/smtpSink';
import { mailWorld } from './support/mailWorld';
import type { MailWorld } from './support/mailWorld';

jest.setTimeout(20_000);

let sink: SmtpSink;
const worlds: MailWorld[] = [];
const world = (...args: Parameters<typeof mailWorld>): MailWorld => {
  const w = mailWorld(...args);
  worlds.push(w);
  return w;
};
beforeEach(async () => {
  sink = await startSmtpSink();
});
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.close();
  await sink.close();
});

describe('the mail queue', () => {
  it('retries while the SMTP server is down and delivers each mail once when it is up again', async () => {
    const w = world(smtpTransport(sink.url));
    await sink.stop();
    w.send({ to: 'one@example.com', subject: 'First' });
    w.send({ to: 'two@example.com', subject: 'Second' });
    await w.until((jobs) => jobs.every((job) => job.state === 'queued' && job.attempts >= 2));
    expect(w.jobs()[0]?.last_error).toMatch(/ECONNREFUSED/);
    expect(sink.mails).toEqual([]);
    await sink.restart();
    await w.drained();
    expect(w.jobs().map((job) => job.state)).toEqual(['sent', 'sent']);
    expect(sink.mails.map((mail) => mail.subject).sort()).toEqual(['First', 'Second']);
  });

  it('tries again after a 4xx ("later") and gives up at once after a 5xx (refused for good)', async () => {
    const w = world(smtpTransport(sink.url));
    sink.refuse(451);
    w.send({ to: 'later@example.com', subject: 'Later' });
    await w.until((jobs) => (jobs[0]?.attempts ?? 0) >= 2);
    sink.refuse(null);
    await w.drained();
    expect(w.jobs().map((job) => [job.state, job.attempts >= 2])).toEqual([['sent', true]]);
    expect(sink.mails).toHaveLength(1);

    sink.refuse(550);
    w.send({ to: 'never@example.com', subject: 'Never' });
    await w.until((jobs) => jobs[1]?.state === 'failed');
    expect(w.jobs()[1]).toMatchObject({ state: 'failed', attempts: 1 });
    expect(w.jobs()[1]?.last_error).toMatch(/550/);
    expect(sink.mails).toHaveLength(1);
  });

  it('stops after its last attempt', async () => {
    const w = world(smtpTransport(sink.url), { attempts: 3, baseMs: 5, maxMs: 10 });
    sink.refuse(421);
    w.send({ to: 'busy@example.com' });
    await w.until((jobs) => jobs[0]?.state === 'failed');
    expect(w.jobs()[0]?.attempts).toBe(3);
    expect(sink.attempts).toBe(3);
  });

  it('bounds a server that accepts the connection and never speaks: the attempt fails and is retried', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const w = world(
        smtpTransport(`smtp://127.0.0.1:${port}`, {
          connectionTimeout: 300,
          greetingTimeout: 300,
          socketTimeout: 300,
        }),
      );
      w.send({ to: 'slow@example.com' });
      await w.until((jobs) => (jobs[0]?.attempts ?? 0) >= 2);
      expect(w.jobs()[0]?.last_error).toMatch(/ETIMEDOUT/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('never sends again a mail a crash left in flight, and resumes the queued ones', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'qupm-mail-restart-'));
    try {
      // The first life: the SMTP server holds its answer, so the mail is in flight when the process "dies".
      sink.hold();
      const first = mailWorld(smtpTransport(sink.url), undefined, dir);
      first.send({ to: 'inflight@example.com', subject: 'In flight' });
      await first.until((jobs) => jobs[0]?.state === 'sending');
      // A second mail is written but never claimed: committed by a transaction that did not wake the worker.
      write(first.db, () =>
        first.repos.mailJobs.enqueue(
          {
            kind: 'test',
            to: 'queued@example.com',
            subject: 'Queued',
            text: 't',
            html: '<p>t</p>',
            headers: {},
          },
          Date.now(),
        ),
      );
      // The process dies: its worker claims nothing more, its database is gone.
      void first.queue.close();
      first.db.close();
      // The second life on the same database: the claimed mail is abandoned, the queued one is sent. (The SMTP
      // server then answers the first life's mail too: it may well have arrived, which is why it is not resent.)
      const second = world(smtpTransport(sink.url), undefined, dir);
      expect(second.queue.start()).toBe(1);
      sink.release();
      await second.drained();
      expect(second.jobs().map((job) => [job.subject, job.state])).toEqual([
        ['In flight', 'abandoned'],
        ['Queued', 'sent'],
      ]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(sink.mails.map((mail) => mail.subject).sort()).toEqual(['In flight', 'Queued']);
    } finally {
      sink.release();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
