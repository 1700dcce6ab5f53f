// Mail: how a service sends one, how it is written, and how it leaves the server.
//
// A service calls enqueueMail(ctx, mail) INSIDE the write transaction of whatever caused the mail: the mail is a
// row of mail_jobs committed with it (or rolled back with it), and the queue's worker (mailQueue.ts) is woken
// once the transaction has returned. No request ever waits for SMTP.
//
// The transport is SMTP (nodemailer) when QUPM_SMTP_URL is set (smtp://user:pass@host:port, smtps://…), with
// bounded timeouts; without it, each mail is printed to the server's console (recipient, subject, the text part
// with every link in full), so `npm start` needs nothing and a person trying QuPM can follow every link.
//
// Headers never carry a line break from data: the recipient must be an address QuPM accepts (core/email.ts),
// subjects and header values are folded onto one line, header names are checked, and QUPM_MAIL_FROM is parsed
// once at start. Every link is built on this server's public origin (QUPM_PUBLIC_URL, default the listening
// address) from a path of core/paths.ts.
import { createTransport } from 'nodemailer';
import { isEmail, normalizeEmail } from '../../core/email';
import { escapeHtml } from '../../core/html';
import type { Repos } from '../repo';
import type { MailCalendar } from '../repo/mailJobs';

/** What a service asks to send. `text` and `html` come from renderMail (or hold the same content). */
export interface MailMessage {
  /** What the mail is for ('verify-email', 'reset-password', 'missed-messages', …). */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (e.g. List-Unsubscribe): names of letters, digits and '-', values on one line. */
  headers?: Record<string, string>;
  /**
   * A calendar invitation (core/calendar.ts): sent as the text/calendar alternative calendars act on (iTIP, with
   * its method) and as an invite.ics attachment for readers that only show attachments.
   */
  calendar?: MailCalendar;
}

/** A mail as the transport sends it. */
export interface OutgoingMail {
  from: MailAddress;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  calendar?: MailCalendar;
}

export interface MailAddress {
  name: string;
  address: string;
}

/** Where mail goes: an SMTP server, or the console. */
export interface MailTransport {
  readonly kind: 'smtp' | 'console';
  /** Resolves once the mail is accepted; rejects with a MailSendError or another error (retried). */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** The mail settings a server runs with (ServerContext.mail). */
export interface MailSettings {
  from: MailAddress;
  transport: MailTransport;
  /** This server's public origin (and path prefix, if any), without a trailing slash. */
  publicUrl(): string;
}

/** What enqueueMail needs of the server's context. */
export interface MailContext {
  repos: Pick<Repos, 'mailJobs'>;
  now: () => number;
  mail: MailSettings;
  mailQueue: { wake(): void };
}

export const DEFAULT_MAIL_FROM = 'QuPM <no-reply@qupm.invalid>';
/** Subjects are cut to this many characters (RFC 5322 recommends lines of at most 78; a subject folds). */
export const SUBJECT_MAX = 200;
/** Bounded SMTP timeouts: a server that is down or slow costs an attempt, never a hung worker. */
export const SMTP_TIMEOUTS: Record<
  'connectionTimeout' | 'greetingTimeout' | 'socketTimeout' | 'dnsTimeout',
  number
> = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
  dnsTimeout: 10_000,
};

/** Headers a service may not set: the ones QuPM writes itself or that change where and how a mail goes. */
const RESERVED_HEADERS = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'subject',
  'sender',
  'reply-to',
  'return-path',
  'date',
  'message-id',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
]);
const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,62}$/;
// Every control character (CR, LF, NUL, tab…) and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex
const LINE_BREAKING = /[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g;

/** `text` on one line: every run of control characters becomes one space (no CR/LF can reach a header). */
export function oneLine(text: string): string {
  return text.replace(LINE_BREAKING, ' ').replace(/\s+/g, ' ').trim();
}

/** A mail that would be wrong to send: a bug of the caller, thrown before anything is written. */
export class MailInputError extends Error {}

/** The mail as it is queued: checked, one-line subject and headers, normalized recipient. */
function checked(mail: MailMessage): MailMessage & { headers: Record<string, string> } {
  if (mail.calendar && !/^BEGIN:VCALENDAR\r?\n/.test(mail.calendar.content)) {
    throw new MailInputError('A calendar invitation must be an iCalendar text.');
  }
  // isEmail refuses CR, LF and every other character outside an address, so `to` cannot carry a header.
  if (!isEmail(mail.to)) throw new MailInputError('A mail needs a valid recipient address.');
  const subject = oneLine(mail.subject).slice(0, SUBJECT_MAX);
  if (subject === '') throw new MailInputError('A mail needs a subject.');
  if (mail.text.trim() === '' || mail.html.trim() === '') {
    throw new MailInputError('A mail needs a plain-text part and an HTML part.');
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(mail.headers ?? {})) {
    if (!HEADER_NAME.test(name) || RESERVED_HEADERS.has(name.toLowerCase())) {
      throw new MailInputError(`A mail cannot set the header "${oneLine(name)}".`);
    }
    headers[name] = oneLine(value);
  }
  return {
    kind: oneLine(mail.kind) || 'mail',
    to: normalizeEmail(mail.to),
    subject,
    text: mail.text,
    html: mail.html,
    headers,
    ...(mail.calendar ? { calendar: mail.calendar } : {}),
  };
}

/**
 * Queues `mail`. Call it inside the write transaction of what caused it (write(ctx.db, () => …)): the row is
 * committed or rolled back with it. The worker is woken after the transaction has returned (a microtask: a write
 * transaction is synchronous). Answers the job's id.
 */
export function enqueueMail(ctx: MailContext, mail: MailMessage): number {
  const id = ctx.repos.mailJobs.enqueue(checked(mail), ctx.now());
  queueMicrotask(() => ctx.mailQueue.wake());
  return id;
}

/** A full link on this server's public origin to `path` (a path of core/paths.ts). */
export function mailLink(ctx: Pick<MailContext, 'mail'>, path: string): string {
  if (!path.startsWith('/') || path.startsWith('//')) throw new MailInputError('A mail link needs a path.');
  return `${ctx.mail.publicUrl()}${path}`;
}

// ---- templates -------------------------------------------------------------------------------------------

/**
 * A mail's content, written once for both parts: a greeting, paragraphs, at most one button (its link also
 * written out in full, for mail readers that show no HTML), and paragraphs after it. Plain text only: renderMail
 * escapes it for HTML.
 */
export interface MailTemplate {
  greeting?: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  after?: string[];
}

const SIGNATURE = 'QuPM';

/** The plain-text and HTML parts of a template. */
export function renderMail(template: MailTemplate): { text: string; html: string } {
  const { greeting, paragraphs, action, after = [] } = template;
  const text = [
    ...(greeting ? [greeting] : []),
    ...paragraphs,
    ...(action ? [`${action.label}:\n${action.url}`] : []),
    ...after,
    `-- \n${SIGNATURE}`,
  ].join('\n\n');
  const p = (line: string): string =>
    `<p style="margin:0 0 16px;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2328">${escapeHtml(line)}</p>`;
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 20px;border-radius:8px;background:#1d4ed8;color:#ffffff;font:600 16px system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;text-decoration:none">${escapeHtml(action.label)}</a></p>` +
      p(`If the button does not work, copy this link into your browser: ${action.url}`)
    : '';
  const html = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(SIGNATURE)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#ffffff">',
    '<div style="max-width:560px;margin:0 auto">',
    ...(greeting ? [p(greeting)] : []),
    ...paragraphs.map(p),
    button,
    ...after.map(p),
    `<p style="margin:32px 0 0;font:14px system-ui,sans-serif;color:#57606a">${escapeHtml(SIGNATURE)}</p>`,
    '</div></body></html>',
  ].join('\n');
  return { text, html };
}

// ---- settings and transports ---------------------------------------------------------------------------

/** A mail server's refusal (an SMTP reply code): 5xx is permanent (not retried), anything else may pass later. */
export class MailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** Parses QUPM_MAIL_FROM ("Name <address>" or "address"); throws a message for a person when it is not one. */
export function parseMailFrom(raw: string): MailAddress {
  const text = raw.trim();
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(text);
  const address = normalizeEmail(named ? (named[2] ?? '') : text);
  const name = named ? oneLine((named[1] ?? '').replace(/^"(.*)"$/, '$1')) : '';
  if (!isEmail(address) || /[\r\n]/.test(raw)) {
    throw new Error(
      `QUPM_MAIL_FROM must be an address such as "QuPM <no-reply@example.com>", not "${oneLine(raw)}"`,
    );
  }
  return { name, address };
}

/** Parses QUPM_PUBLIC_URL: an http(s) origin with an optional path prefix; the answer has no trailing slash. */
export function parsePublicUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(
      `QUPM_PUBLIC_URL must be a full address such as https://qupm.example.com, not "${oneLine(raw)}"`,
    );
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username) {
    throw new Error(
      `QUPM_PUBLIC_URL must be an http:// or https:// address without query, not "${oneLine(raw)}"`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Checks QUPM_SMTP_URL: smtp:// or smtps:// with a host. */
export function parseSmtpUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error('QUPM_SMTP_URL must be an address such as smtp://user:password@mail.example.com:587');
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw new Error('QUPM_SMTP_URL must start with smtp:// or smtps:// and name a host');
  }
  return url.href;
}

interface SmtpError {
  responseCode?: number;
  code?: string;
  message?: string;
}

/** Sends over SMTP (nodemailer), one connection per mail, every wait bounded. */
export function smtpTransport(url: string, timeouts: Partial<typeof SMTP_TIMEOUTS> = {}): MailTransport {
  const transporter = createTransport({ url: parseSmtpUrl(url), ...SMTP_TIMEOUTS, ...timeouts });
  return {
    kind: 'smtp',
    async send(mail) {
      try {
        await transporter.sendMail({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          headers: mail.headers,
          ...(mail.calendar
            ? {
                icalEvent: {
                  method: mail.calendar.method,
                  filename: 'invite.ics',
                  content: mail.calendar.content,
                },
                attachments: [
                  {
                    filename: 'invite.ics',
                    content: mail.calendar.content,
                    contentType: `application/ics; method=${mail.calendar.method}`,
                  },
                ],
              }
            : {}),
          // Nodemailer must not read files or URLs named in a mail (nothing QuPM sends does).
          disableFileAccess: true,
          disableUrlAccess: true,
        });
      } catch (error) {
        const { responseCode, code, message } = error as SmtpError;
        const permanent = typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
        throw new MailSendError(
          oneLine(`${code ?? 'SMTP'} ${responseCode ?? ''} ${message ?? ''}`),
          permanent,
        );
      }
    },
    close: () => transporter.close(),
  };
}

/** Prints each mail instead of sending it: recipient, subject, and the text part (every link in full). */
export function consoleTransport(print: (text: string) => void = console.log): MailTransport {
  return {
    kind: 'console',
    async send(mail) {
      print(
        [
          '─── QuPM mail (QUPM_SMTP_URL is not set, so it is printed here instead of sent) ───',
          `To: ${mail.to}`,
          `Subject: ${mail.subject}`,
          '',
          mail.text,
          ...(mail.calendar ? ['', `(with a calendar invitation, ${mail.calendar.method})`] : []),
          '─'.repeat(40),
        ].join('\n'),
      );
    },
    close: () => undefined,
  };
}
