// A real SMTP server for tests (smtp-server), standing in for the mail server QUPM_SMTP_URL names: it accepts
// every mail on 127.0.0.1, parses it (mailparser) and keeps it with its envelope and the links of its text part.
// A test can take each new mail as it arrives, follow its links, make the server refuse (4xx: try later, 5xx:
// never), hold its answers (a slow server), or stop and start it again on the same port (a server down, then up).
//
//   const sink = await startSmtpSink();
//   const server = await startTestServer({ mail: { smtpUrl: sink.url, publicUrl: 'http://qupm.test' } });
//   … sign up …
//   const mail = await sink.next((m) => m.to.includes('new@example.com'));
//   const token = sink.link(mail, '/verify-email').searchParams.get('token');
//   await sink.close();
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import type { HeaderValue } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope: who the SMTP client said it sends for, and every recipient it named (RCPT TO). */
  envelopeFrom: string;
  envelopeTo: string[];
  /** The To header's addresses. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Every header, names in lower case. */
  headers: Map<string, HeaderValue>;
  /** The message as it came over the wire. */
  raw: string;
  /** Every http(s) link written in the text part, in order. */
  links: string[];
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`: what QUPM_SMTP_URL (or the server's mail.smtpUrl option) is set to. */
  url: string;
  port: number;
  /** Every mail accepted so far, oldest first. */
  mails: ReceivedMail[];
  /** Every attempt to send DATA (accepted, refused or held). */
  attempts: number;
  /** The next mail (matching `match`) not taken before by next(): waits for it (until the test's timeout). */
  next(match?: (mail: ReceivedMail) => boolean): Promise<ReceivedMail>;
  /** The first link of `mail` whose path is `pathname`; throws when it has none. */
  link(mail: ReceivedMail, pathname: string): URL;
  /** From now on, answer DATA with this SMTP code (421/451: try later; 550: never); null: accept again. */
  refuse(code: number | null): void;
  /** Holds every answer to DATA until release() (a slow server); the mails are kept only when released. */
  hold(): void;
  release(): void;
  /** Stops listening (a server that is down: connections are refused). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

const LINK = /https?:\/\/[^\s<>"')]+/g;

const addressesOf = (value: unknown): string[] => {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list.flatMap((entry: { value?: Array<{ address?: string }> }) =>
    (entry.value ?? []).map((a) => a.address ?? ''),
  );
};

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters = new Set<() => void>();
  let refusal: number | null = null;
  let holding = false;
  const held: Array<() => void> = [];
  let attempts = 0;

  const make = (): SMTPServer =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        attempts += 1;
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const answer = (): void => {
            if (refusal !== null) {
              const error = new Error(refusal >= 500 ? 'Mailbox unavailable' : 'Try again later') as Error & {
                responseCode: number;
              };
              error.responseCode = refusal;
              callback(error);
              return;
            }
            const raw = Buffer.concat(chunks).toString('utf8');
            simpleParser(raw)
              .then((parsed) => {
                const text = parsed.text ?? '';
                mails.push({
                  envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                  envelopeTo: session.envelope.rcptTo.map((r) => r.address),
                  to: addressesOf(parsed.to),
                  from: addressesOf(parsed.from)[0] ?? '',
                  subject: parsed.subject ?? '',
                  text,
                  html: typeof parsed.html === 'string' ? parsed.html : '',
                  headers: parsed.headers,
                  raw,
                  links: text.match(LINK) ?? [],
                });
                for (const wake of [...waiters]) wake();
                callback();
              })
              .catch((error: unknown) => callback(error as Error));
          };
          if (holding) held.push(answer);
          else answer();
        });
      },
    });

  let server = make();
  const listen = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  let listening = true;
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (!listening) {
        resolve();
        return;
      }
      listening = false;
      server.close(() => resolve());
    });

  const sink: SmtpSink = {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    get attempts() {
      return attempts;
    },
    next(match = () => true) {
      return new Promise((resolve) => {
        const look = (): boolean => {
          const found = mails.find((mail) => !taken.has(mail) && match(mail));
          if (!found) return false;
          taken.add(found);
          waiters.delete(check);
          resolve(found);
          return true;
        };
        const check = (): void => {
          look();
        };
        if (!look()) waiters.add(check);
      });
    },
    link(mail, pathname) {
      const found = mail.links.map((link) => new URL(link)).find((url) => url.pathname === pathname);
      if (!found)
        throw new Error(`no ${pathname} link in the mail "${mail.subject}": ${mail.links.join(', ')}`);
      return found;
    },
    refuse(code) {
      refusal = code;
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const answer of held.splice(0)) answer();
    },
    stop,
    async restart() {
      if (listening) return;
      server = make();
      await listen(port);
      listening = true;
    },
    async close() {
      sink.release();
      await stop();
    },
  };
  return sink;
}
