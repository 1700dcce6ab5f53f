// Mail: what a mail looks like on the wire of a real SMTP server (both parts, links on the
// public origin, no header injection through CR/LF), the console fallback, and the settings read at start.
import {
  mailLink,
  renderMail,
  MailInputError,
  consoleTransport,
  oneLine,
  parseMailFrom,
  parsePublicUrl,
  parseSmtpUrl,
  smtpTransport,
} from '../../server/services/mail';
import { verifyEmailPath } from '../../core/paths';
import { startSmtpSink } from '../../drivers/smtpSink';
import type { SmtpSink } from '../../drivers/smtpSink';
import { mailWorld } from './support/mailWorld';
import type { MailWorld } from './support/mailWorld';

jest.setTimeout(20_000);

let sink: SmtpSink;
let world: MailWorld;
beforeEach(async () => {
  sink = await startSmtpSink();
  world = mailWorld(smtpTransport(sink.url));
});
afterEach(async () => {
  await world.close();
  await sink.close();
});

describe('a mail sent over SMTP', () => {
  it('arrives with its plain-text and HTML parts, the sender, and its link in full on the public origin', async () => {
    const link = mailLink(world.ctx, verifyEmailPath('tok_123'));
    const { text, html } = renderMail({
      greeting: 'Hello Sam & <friends>,',
      paragraphs: ['Confirm your address.'],
      action: { label: 'Confirm my email', url: link },
    });
    world.send({ to: 'Sam@Example.com', subject: 'Confirm your email', text, html });
    const mail = await sink.next();
    expect(mail.envelopeTo).toEqual(['sam@example.com']);
    expect(mail.to).toEqual(['sam@example.com']);
    expect(mail.from).toBe('no-reply@qupm.test');
    expect(mail.subject).toBe('Confirm your email');
    expect(mail.text).toContain('Hello Sam & <friends>,');
    expect(mail.links).toEqual(['http://qupm.test/verify-email?token=tok_123']);
    // The HTML part escapes the name and links the same URL.
    expect(mail.html).toContain('Hello Sam &amp; &lt;friends&gt;,');
    expect(mail.html).not.toContain('<friends>');
    expect(mail.html).toContain('href="http://qupm.test/verify-email?token=tok_123"');
    await world.drained();
    expect(world.jobs().map((job) => job.state)).toEqual(['sent']);
  });

  it('cannot be given extra headers or recipients through CR/LF in a subject or header value', async () => {
    world.send({
      to: 'victim@example.com',
      subject: 'Hi\r\nBcc: thief@evil.test\r\nX-Injected: yes',
      headers: { 'X-Note': 'one\r\nBcc: thief2@evil.test\n\nbody' },
    });
    const mail = await sink.next();
    expect(mail.envelopeTo).toEqual(['victim@example.com']);
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.headers.has('x-injected')).toBe(false);
    expect(mail.subject).toBe('Hi Bcc: thief@evil.test X-Injected: yes');
    expect(mail.headers.get('x-note')).toBe('one Bcc: thief2@evil.test body');
    expect(mail.raw).not.toMatch(/^bcc:/im);
  });

  it('refuses, before anything is queued, a recipient or header name that could carry a header', () => {
    expect(() => world.send({ to: 'a@example.com\r\nBcc: thief@evil.test' })).toThrow(MailInputError);
    expect(() => world.send({ to: 'not an address' })).toThrow(MailInputError);
    expect(() => world.send({ to: 'a@example.com', headers: { 'X-A\r\nBcc': 'x' } })).toThrow(MailInputError);
    expect(() => world.send({ to: 'a@example.com', headers: { Bcc: 'thief@evil.test' } })).toThrow(
      MailInputError,
    );
    expect(() => world.send({ to: 'a@example.com', subject: '\r\n' })).toThrow(MailInputError);
    expect(world.jobs()).toEqual([]);
  });
});

describe('the console fallback (no QUPM_SMTP_URL)', () => {
  it('prints the recipient, the subject and every link in full', async () => {
    const printed: string[] = [];
    const local = mailWorld(consoleTransport((text) => printed.push(text)));
    try {
      const url = mailLink(local.ctx, verifyEmailPath('abc-DEF_9'));
      const { text, html } = renderMail({ paragraphs: ['Confirm.'], action: { label: 'Confirm', url } });
      local.send({ to: 'new@example.com', subject: 'Confirm your email', text, html });
      await local.drained();
      expect(printed).toHaveLength(1);
      expect(printed[0]).toContain('To: new@example.com');
      expect(printed[0]).toContain('Subject: Confirm your email');
      expect(printed[0]).toContain('http://qupm.test/verify-email?token=abc-DEF_9');
      expect(local.jobs().map((job) => job.state)).toEqual(['sent']);
    } finally {
      await local.close();
    }
  });
});

describe('settings read at start', () => {
  it('QUPM_MAIL_FROM: a name and address, or an address; nothing else', () => {
    expect(parseMailFrom('QuPM <No-Reply@Example.com>')).toEqual({
      name: 'QuPM',
      address: 'no-reply@example.com',
    });
    expect(parseMailFrom('"Q Team" <q@example.com>')).toEqual({ name: 'Q Team', address: 'q@example.com' });
    expect(parseMailFrom('q@example.com')).toEqual({ name: '', address: 'q@example.com' });
    expect(() => parseMailFrom('QuPM')).toThrow(/QUPM_MAIL_FROM/);
    expect(() => parseMailFrom('QuPM <q@example.com>\r\nBcc: x@evil.test')).toThrow(/QUPM_MAIL_FROM/);
  });

  it('QUPM_PUBLIC_URL: an http(s) origin and optional prefix, kept without a trailing slash', () => {
    expect(parsePublicUrl('https://qupm.example.com/')).toBe('https://qupm.example.com');
    expect(parsePublicUrl('https://example.com/qupm/')).toBe('https://example.com/qupm');
    expect(() => parsePublicUrl('qupm.example.com')).toThrow(/QUPM_PUBLIC_URL/);
    expect(() => parsePublicUrl('ftp://example.com')).toThrow(/QUPM_PUBLIC_URL/);
    expect(() => parsePublicUrl('https://example.com/?a=1')).toThrow(/QUPM_PUBLIC_URL/);
  });

  it('QUPM_SMTP_URL: smtp:// or smtps:// with a host', () => {
    expect(parseSmtpUrl('smtps://user:pass@mail.example.com:465')).toBe(
      'smtps://user:pass@mail.example.com:465',
    );
    expect(parseSmtpUrl('smtp://mail.example.com:587')).toBe('smtp://mail.example.com:587');
    expect(() => parseSmtpUrl('http://mail.example.com')).toThrow(/QUPM_SMTP_URL/);
    expect(() => parseSmtpUrl('mail.example.com')).toThrow(/QUPM_SMTP_URL/);
  });

  it('a link is only ever a path on the public origin', () => {
    expect(() => mailLink(world.ctx, 'https://evil.test/')).toThrow(MailInputError);
    expect(() => mailLink(world.ctx, '//evil.test/')).toThrow(MailInputError);
  });

  it('oneLine folds every control character and line separator into one space', () => {
    expect(oneLine(' a\r\n\tb\u2028c\u0000d ')).toBe('a b c d');
  });
});
