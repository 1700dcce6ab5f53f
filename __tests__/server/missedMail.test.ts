// Missed-message email end to end: the real server on a temporary SQLite file, a real SMTP
// server (the sink) reading what it sends, and the clock moved by the test. Sent 10 minutes after a message stays
// unread, with its summary and link; not when read in time, not for a muted channel, not twice within the hour,
// not when the switch is off or the address unconfirmed; unsubscribed with one click; a restart neither loses nor
// doubles it; a sender's name cannot add a header.
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { ChatMessage } from '../../core/model';
import { startSmtpSink } from '../../drivers/smtpSink';
import type { ReceivedMail, SmtpSink } from '../../drivers/smtpSink';
import { demoIds, startTestServer, TestClock } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

jest.setTimeout(30_000);

const MINUTE = 60_000;
const PUBLIC_URL = 'http://qupm.test';
const MEMBER = 'member@qupm.demo';
const CONSULTANT = 'consultant@qupm.demo';

let sink: SmtpSink;
let clock: TestClock;
let server: TestServer;
let ids: DemoIds;

async function start(dir?: string): Promise<TestServer> {
  return startTestServer({
    now: clock.now,
    keepDir: true,
    ...(dir ? { dir } : {}),
    mail: { smtpUrl: sink.url, publicUrl: PUBLIC_URL },
    missedMail: { scanMs: false },
  });
}

/** Confirms the accounts' addresses, as the verification link would (h15-mail's part 2). */
function confirmAddresses(file: string, uids: string[]): void {
  const db = new Database(file);
  try {
    for (const uid of uids) db.prepare('UPDATE users SET email_verified_at = ? WHERE uid = ?').run(1, uid);
  } finally {
    db.close();
  }
}

async function setEmail(role: 'member' | 'consultant', on: boolean): Promise<void> {
  const channels = on ? ['push', 'in_app', 'email'] : ['push', 'in_app'];
  const res = await server.request('PATCH', `/api/users/${ids.uid[role]}`, {
    token: ids.token[role],
    body: { notificationSettings: { enabled: true, delivery: { channels } } },
  });
  expect(res.statusCode).toBe(200);
}

async function channelsOf(role: 'member' | 'consultant'): Promise<string[]> {
  const res = await server.request('GET', `/api/users/${ids.uid[role]}`, { token: ids.token[role] });
  return res.json<{ notificationSettings: { delivery: { channels: string[] } } }>().notificationSettings
    .delivery.channels;
}

async function post(role: 'member' | 'consultant', text: string): Promise<ChatMessage> {
  const res = await server.request('POST', `/api/channels/${ids.strategy}/messages`, {
    token: ids.token[role],
    body: { text },
  });
  expect(res.statusCode).toBe(200);
  return res.json<ChatMessage>();
}

async function read(role: 'member' | 'consultant', message: ChatMessage): Promise<void> {
  const res = await server.request('POST', `/api/channels/${ids.strategy}/read`, {
    token: ids.token[role],
    body: { messageId: message.id },
  });
  expect(res.statusCode).toBe(200);
}

/** The missed-message mails queued so far, by recipient. */
const queuedTo = (to: string): { subject: string; state: string }[] =>
  server.query(
    "SELECT subject, state FROM mail_jobs WHERE kind = 'missed-messages' AND to_address = ? ORDER BY id",
    to,
  );

const toMember = (m: ReceivedMail): boolean => m.to.includes(MEMBER);
const toConsultant = (m: ReceivedMail): boolean => m.to.includes(CONSULTANT);

/** Signs in again (access tokens last 15 minutes; the tests move the clock by hours). */
async function signInAgain(): Promise<void> {
  ids = await demoIds(server);
}

beforeEach(async () => {
  sink = await startSmtpSink();
  clock = new TestClock();
  server = await start();
  // The demo world's own messages are days old by then: never mailed about.
  clock.advance(3 * 24 * 60 * MINUTE);
  ids = await demoIds(server);
  confirmAddresses(server.dbFile, [ids.uid.member, ids.uid.consultant]);
  await setEmail('member', true);
});
afterEach(async () => {
  await server.close();
  await sink.close();
  rmSync(server.dir, { recursive: true, force: true });
});

describe('missed-message email', () => {
  it('is sent 10 minutes after a message stays unread, summarising the messages with a link to the channel', async () => {
    await setEmail('consultant', true);
    const texts = ['First question\nwith a second line', 'Second', 'Third', 'Fourth', 'Fifth'];
    for (const text of texts) {
      await post('consultant', text);
      clock.advance(1000); // one message a second: the email quotes them in the order they were posted
    }
    clock.advance(9 * MINUTE - 5000);
    expect(server.app.missedMail.scan()).toBe(0);
    clock.advance(MINUTE);
    expect(server.app.missedMail.scan()).toBe(1);

    const mail = await sink.next(toMember);
    expect(mail.subject).toBe('5 unread messages in Strategy Studio');
    const sender = (
      await server.request('GET', `/api/channels/${ids.strategy}/messages`, { token: ids.token.member })
    )
      .json<{ messages: ChatMessage[] }>()
      .messages.find((m) => m.text === 'Fifth')?.senderName;
    expect(sender).toBeTruthy();
    expect(mail.text).toContain(`${sender}: First question`);
    expect(mail.text).not.toContain('with a second line');
    expect(mail.text).toContain(`${sender}: Third`);
    expect(mail.text).not.toContain('Fourth');
    expect(mail.text).toContain('…and 2 more messages.');
    const link = sink.link(mail, '/');
    expect(link.origin).toBe(PUBLIC_URL);
    expect(link.searchParams.get('channel')).toBe(ids.strategy);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/?channel=${ids.strategy}"`);
    // The headers as they came over the wire (mailparser folds List-* into one object).
    const head = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
    expect(head).toMatch(/^List-Unsubscribe: <http:\/\/qupm\.test\/api\/mail\/unsubscribe\?token=[^>\s]+>$/m);
    expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    // Never about one's own messages: the consultant, who wants email too, gets none.
    expect(queuedTo(CONSULTANT)).toEqual([]);
  });

  it('is not sent when the message is read in time (the read mark passes it)', async () => {
    await setEmail('consultant', true);
    const question = await post('consultant', 'Are you there?');
    clock.advance(5 * MINUTE);
    await read('member', question);
    await post('member', 'Yes, here.'); // the consultant leaves this one unread: they get the email
    clock.advance(10 * MINUTE);
    expect(server.app.missedMail.scan()).toBe(1);
    const mail = await sink.next(toConsultant);
    expect(mail.subject).toBe('1 unread message in Strategy Studio');
    expect(queuedTo(MEMBER)).toEqual([]);
  });

  it('is not sent for a muted channel, not even once the mute has ended', async () => {
    await setEmail('consultant', true);
    const muted = await server.request('PUT', `/api/channels/${ids.strategy}/mute`, {
      token: ids.token.member,
      body: { duration: '1h' },
    });
    expect(muted.statusCode).toBe(200);
    await post('consultant', 'While you were muted');
    await post('member', 'Posted by the member');
    clock.advance(10 * MINUTE);
    expect(server.app.missedMail.scan()).toBe(1);
    await sink.next(toConsultant);
    clock.advance(60 * MINUTE);
    expect(server.app.missedMail.scan()).toBe(0);
    expect(queuedTo(MEMBER)).toEqual([]);
  });

  it('is sent at most once per channel an hour: a second burst 20 minutes later waits for the hour', async () => {
    await post('consultant', 'Burst one');
    clock.advance(10 * MINUTE);
    expect(server.app.missedMail.scan()).toBe(1);
    expect((await sink.next(toMember)).text).toContain('Burst one');

    clock.advance(10 * MINUTE);
    await signInAgain();
    await post('consultant', 'Burst two, a');
    await post('consultant', 'Burst two, b');
    clock.advance(10 * MINUTE);
    expect(server.app.missedMail.scan()).toBe(0);
    clock.advance(39 * MINUTE);
    expect(server.app.missedMail.scan()).toBe(0);
    clock.advance(MINUTE);
    expect(server.app.missedMail.scan()).toBe(1);
    const second = await sink.next(toMember);
    expect(second.subject).toBe('2 unread messages in Strategy Studio');
    expect(second.text).toContain('Burst two, a');
    expect(second.text).not.toContain('Burst one');
    expect(server.app.missedMail.scan()).toBe(0);
    expect(queuedTo(MEMBER)).toHaveLength(2);
  });

  it('is not sent when the switch is off, nor to an address that was never confirmed', async () => {
    await setEmail('member', false);
    await setEmail('consultant', true);
    await post('consultant', 'Anyone?');
    await post('member', 'Me');
    clock.advance(10 * MINUTE);
    expect(server.app.missedMail.scan()).toBe(1);
    await sink.next(toConsultant);
    expect(queuedTo(MEMBER)).toEqual([]);

    // The switch on, but the address unconfirmed: still nothing.
    const db = new Database(server.dbFile);
    db.prepare('UPDATE users SET email_verified_at = NULL WHERE uid = ?').run(ids.uid.member);
    db.close();
    await signInAgain();
    await setEmail('member', true);
    await post('consultant', 'Again?');
    clock.advance(10 * MINUTE);
    expect(server.app.missedMail.scan()).toBe(0);
    expect(queuedTo(MEMBER)).toEqual([]);
  });

  it('does not quote a deleted message', async () => {
    const gone = await post('consultant', 'Oops, wrong channel');
    await post('consultant', 'The real question');
    const deleted = await server.request('DELETE', `/api/channels/${ids.strategy}/messages/${gone.id}`, {
      token: ids.token.consultant,
    });
    expect(deleted.statusCode).toBe(200);
    clock.advance(10 * MINUTE);
    expect(server.app.missedMail.scan()).toBe(1);
    const mail = await sink.next(toMember);
    expect(mail.subject).toBe('1 unread message in Strategy Studio');
    expect(mail.text).not.toContain('Oops');
  });
});

describe('one-click unsubscribe (RFC 8058)', () => {
  async function unsubscribeLink(): Promise<URL> {
    await post('consultant', 'Hello');
    clock.advance(10 * MINUTE);
    server.app.missedMail.scan();
    const mail = await sink.next(toMember);
    return sink.link(mail, '/api/mail/unsubscribe');
  }
  const form = { payload: 'List-Unsubscribe=One-Click', contentType: 'application/x-www-form-urlencoded' };

  it('asks on GET (a link followed by a mail scanner changes nothing) and turns email off on POST', async () => {
    const link = await unsubscribeLink();
    const url = `${link.pathname}${link.search}`;
    const page = await server.request('GET', url);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<form method="post"');
    expect(page.body).toContain('name="List-Unsubscribe" value="One-Click"');
    expect(await channelsOf('member')).toContain('email');

    const done = await server.request('POST', url, form);
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('You are unsubscribed');
    expect(await channelsOf('member')).toEqual(['push', 'in_app']);
    // Once more (a mail client retrying): still fine, still off.
    expect((await server.request('POST', url, form)).statusCode).toBe(200);
    expect(await channelsOf('member')).toEqual(['push', 'in_app']);

    // And no more email.
    await signInAgain();
    await post('consultant', 'Still there?');
    clock.advance(2 * 60 * MINUTE);
    expect(server.app.missedMail.scan()).toBe(0);
  });

  it('also takes the multipart form some mail clients post', async () => {
    const link = await unsubscribeLink();
    const boundary = 'b0undary';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    const res = await server.request('POST', `${link.pathname}${link.search}`, {
      payload,
      contentType: `multipart/form-data; boundary=${boundary}`,
    });
    expect(res.statusCode).toBe(200);
    expect(await channelsOf('member')).toEqual(['push', 'in_app']);
  });

  it('is rate-limited per IP like the other public routes', async () => {
    await server.close();
    server = await startTestServer({
      now: clock.now,
      keepDir: true,
      dir: server.dir,
      rateLimits: { authPerIp: { max: 3, timeWindowMs: 60_000 } },
      missedMail: { scanMs: false },
    });
    const url = '/api/mail/unsubscribe?token=garbled';
    for (let i = 0; i < 3; i += 1) expect((await server.request('GET', url)).statusCode).toBe(400);
    const limited = await server.request('POST', url, form);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('refuses a forged, garbled or foreign token, and a POST without the one-click body, changing nothing', async () => {
    const link = await unsubscribeLink();
    const token = link.searchParams.get('token') ?? '';
    const [uid = '', mac = ''] = token.split('.');
    const forged = [
      `${ids.uid.consultant}.${mac}`, // someone else's account with the member's signature
      `${uid}.${mac.slice(0, -2)}AA`,
      `${uid}.`,
      'garbled',
      '',
      `${uid}.${mac}\r\nX-Injected: 1`,
    ];
    for (const bad of forged) {
      const url = `/api/mail/unsubscribe?token=${encodeURIComponent(bad)}`;
      const get = await server.request('GET', url);
      expect(get.statusCode).toBe(400);
      expect(get.body).toContain('This unsubscribe link is not valid.');
      const res = await server.request('POST', url, form);
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('This unsubscribe link is not valid.');
      expect(res.body).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
    }
    const noBody = await server.request('POST', `${link.pathname}${link.search}`);
    expect(noBody.statusCode).toBe(400);
    const otherBody = await server.request('POST', `${link.pathname}${link.search}`, {
      payload: 'List-Unsubscribe=No',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(otherBody.statusCode).toBe(400);
    expect(await channelsOf('member')).toContain('email');
    await setEmail('consultant', true);
    expect(await channelsOf('consultant')).toContain('email');
  });
});

describe('a restart', () => {
  it('between "due" and "sent" neither loses the mail nor sends it twice', async () => {
    await post('consultant', 'Before the restart');
    clock.advance(10 * MINUTE);
    // Due, not looked at yet: the server stops.
    await server.close();
    server = await start(server.dir);
    expect(server.app.missedMail.scan()).toBe(1);
    expect((await sink.next(toMember)).text).toContain('Before the restart');
    expect(server.app.missedMail.scan()).toBe(0);

    // Queued while the mail server is down, then the server stops: the queue sends it once after the restart,
    // and the scheduler, which recorded it with the mail, does not queue it again.
    clock.advance(60 * MINUTE);
    await signInAgain();
    await post('consultant', 'During the outage');
    clock.advance(10 * MINUTE);
    await sink.stop();
    expect(server.app.missedMail.scan()).toBe(1);
    await waitFor(
      () =>
        server.query<{ attempts: number }>(
          "SELECT attempts FROM mail_jobs WHERE state = 'queued' AND attempts > 0",
        ).length === 1,
    );
    await server.close();
    await sink.restart();
    clock.advance(MINUTE);
    server = await start(server.dir);
    expect(server.app.missedMail.scan()).toBe(0);
    const resent = await sink.next(toMember);
    expect(resent.text).toContain('During the outage');
    await waitFor(() => queuedTo(MEMBER).every((job) => job.state === 'sent'));
    expect(queuedTo(MEMBER)).toHaveLength(2);
    expect(sink.mails.filter(toMember)).toHaveLength(2);
  });
});

describe('the scheduler', () => {
  it('runs on its own while the server runs, and stops with it', async () => {
    await server.close();
    server = await startTestServer({
      now: clock.now,
      keepDir: true,
      dir: server.dir,
      mail: { smtpUrl: sink.url, publicUrl: PUBLIC_URL },
      missedMail: { scanMs: 10 },
    });
    await signInAgain();
    await post('consultant', 'Found by the timer');
    clock.advance(10 * MINUTE);
    expect((await sink.next(toMember)).text).toContain('Found by the timer');
  });
});

describe("a sender's name", () => {
  it('cannot add a header through CR/LF (it only ever reaches the body)', async () => {
    const db = new Database(server.dbFile);
    db.prepare('UPDATE users SET nickname = ? WHERE uid = ?').run(
      'Eve\r\nBcc: thief@evil.test\r\nX-Injected: yes',
      ids.uid.consultant,
    );
    db.close();
    await post('consultant', 'Hi\r\nSubject: spoofed');
    clock.advance(10 * MINUTE);
    expect(server.app.missedMail.scan()).toBe(1);
    const mail = await sink.next(toMember);
    expect(mail.envelopeTo).toEqual([MEMBER]);
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.headers.has('x-injected')).toBe(false);
    expect(mail.subject).toBe('1 unread message in Strategy Studio');
    const head = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n'));
    expect(head).not.toMatch(/^(bcc|x-injected|subject: spoofed)/im);
    // In the body, the name stays on its line.
    expect(mail.text).toContain('Eve Bcc: thief@evil.test X-Injected: yes: Hi');
    expect(mail.text).not.toMatch(/^(Bcc|X-Injected|Subject):/m);
  });
});

async function waitFor(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 20));
}
