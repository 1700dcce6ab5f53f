// core/missedMail.ts: when one missed-message email about a channel is due, and what it says.
import type { MissedCandidate, MissedMailInput } from '../../core/missedMail';
import {
  decideMissedMail,
  firstLine,
  MISSED_MAIL,
  senderLabel,
  summarizeMissed,
  isOneClickBody,
  missedChannelName,
  parseUnsubscribeToken,
  UNSUBSCRIBE_MESSAGES,
  unsubscribePage,
  unsubscribePath,
  unsubscribeSigned,
  wantsEmail,
} from '../../core/missedMail';
import type { NotificationSettings } from '../../core/model';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 15, 12);
const ME = 'me';
const EMAIL: NotificationSettings = { enabled: true, delivery: { channels: ['push', 'email'] } };

const msg = (id: string, createdAt: number, over: Partial<MissedCandidate> = {}): MissedCandidate => ({
  id,
  senderId: 'them',
  senderName: 'Dana',
  text: `text ${id}`,
  createdAt,
  deleted: false,
  hasAttachment: false,
  ...over,
});

const input = (over: Partial<MissedMailInput> = {}): MissedMailInput => ({
  uid: ME,
  settings: EMAIL,
  addressOk: true,
  mutedUntil: null,
  mark: null,
  state: null,
  messages: [msg('a', T0)],
  now: T0 + MISSED_MAIL.delayMs,
  ...over,
});

describe('wantsEmail', () => {
  it('needs notifications on and email among the channels; the defaults do not have it', () => {
    expect(wantsEmail(EMAIL)).toBe(true);
    expect(wantsEmail({ enabled: false, delivery: { channels: ['email'] } })).toBe(false);
    expect(wantsEmail({ enabled: true, delivery: { channels: ['push', 'in_app'] } })).toBe(false);
    expect(wantsEmail(null)).toBe(false);
  });
});

describe('decideMissedMail', () => {
  it('is due 10 minutes after a message by someone else, not a millisecond before', () => {
    expect(decideMissedMail(input({ now: T0 + MISSED_MAIL.delayMs - 1 }))).toEqual({ kind: 'none' });
    expect(decideMissedMail(input())).toEqual({
      kind: 'send',
      messages: [msg('a', T0)],
      coveredUpTo: { createdAt: T0, id: 'a' },
    });
  });

  it('covers every unread message after the last email, oldest first, younger ones included', () => {
    const messages = [msg('c', T0 + 5 * MINUTE), msg('a', T0), msg('b', T0)];
    const decision = decideMissedMail(input({ messages }));
    expect(decision.kind === 'send' && decision.messages.map((m) => m.id)).toEqual(['a', 'b', 'c']);
    expect(decision.kind === 'send' && decision.coveredUpTo).toEqual({ createdAt: T0 + 5 * MINUTE, id: 'c' });
  });

  it('sends nothing for own, deleted, read or already covered messages', () => {
    expect(decideMissedMail(input({ messages: [msg('a', T0, { senderId: ME })] })).kind).toBe('none');
    expect(decideMissedMail(input({ messages: [msg('a', T0, { deleted: true })] })).kind).toBe('none');
    expect(decideMissedMail(input({ mark: { createdAt: T0, id: 'a' } })).kind).toBe('none');
    expect(
      decideMissedMail(input({ state: { coveredUpTo: { createdAt: T0, id: 'a' }, lastSentAt: null } })).kind,
    ).toBe('none');
  });

  it('sends nothing to a person who does not want email or whose address may not be mailed', () => {
    expect(
      decideMissedMail(input({ settings: { enabled: true, delivery: { channels: ['push'] } } })).kind,
    ).toBe('none');
    expect(decideMissedMail(input({ addressOk: false })).kind).toBe('none');
  });

  it('passes over what is due while the channel is muted, without an email', () => {
    expect(decideMissedMail(input({ mutedUntil: T0 + 60 * MINUTE }))).toEqual({
      kind: 'pass',
      coveredUpTo: { createdAt: T0, id: 'a' },
    });
    // A mute that has ended mutes nothing.
    expect(decideMissedMail(input({ mutedUntil: T0 })).kind).toBe('send');
  });

  it('waits for the hour after the last email', () => {
    const state = { coveredUpTo: { createdAt: T0 - MINUTE, id: 'z' }, lastSentAt: T0 - 49 * MINUTE };
    expect(decideMissedMail(input({ state })).kind).toBe('none');
    const hourLater = T0 + MISSED_MAIL.delayMs + 1; // 60 minutes after the last one (plus 1 ms)
    expect(
      decideMissedMail(input({ state: { ...state, lastSentAt: hourLater - 60 * MINUTE }, now: hourLater }))
        .kind,
    ).toBe('send');
  });

  it('never mails about messages older than a day (turning email on does not mail a backlog)', () => {
    const now = T0 + MISSED_MAIL.lookbackMs + 1;
    expect(decideMissedMail(input({ now })).kind).toBe('none');
  });
});

describe('summarizeMissed', () => {
  it('counts the messages, quotes the first line of a few, and counts the rest', () => {
    const messages = [
      msg('a', T0, { text: '\n  Hello there\nsecond line' }),
      msg('b', T0, { senderName: 'Leo', text: '', hasAttachment: true }),
      msg('c', T0, { text: 'x'.repeat(200) }),
      msg('d', T0),
      msg('e', T0),
    ];
    const summary = summarizeMissed(messages, 'Strategy Studio');
    expect(summary.subject).toBe('5 unread messages in Strategy Studio');
    expect(summary.quoted).toEqual(['Dana: Hello there', 'Leo: Sent a file.', `Dana: ${'x'.repeat(139)}…`]);
    expect(summary.more).toBe('…and 2 more messages.');
    expect(summary.senders).toEqual(['Dana', 'Leo']);
    expect(summary.paragraphs).toEqual([
      'You have 5 unread messages in Strategy Studio on QuPM:',
      ...summary.quoted,
      '…and 2 more messages.',
    ]);
    expect(summarizeMissed([msg('a', T0)], 'Growth').subject).toBe('1 unread message in Growth');
    expect(summarizeMissed([msg('a', T0)], 'Growth').more).toBeNull();
  });

  it('keeps a name with line breaks on one line', () => {
    expect(senderLabel('Eve\r\nBcc: x@y.z\u2028')).toBe('Eve Bcc: x@y.z');
    expect(senderLabel(' \n ')).toBe('Someone');
    expect(firstLine({ text: ' \r\n ', hasAttachment: false })).toBe('…');
  });
});

describe('the unsubscribe link', () => {
  const signature = 'A'.repeat(43);

  it('puts the token in the query, encoded', () => {
    expect(unsubscribePath('a.b+c')).toBe('/api/mail/unsubscribe?token=a.b%2Bc');
  });

  it('signs the purpose with the account, so no other token can serve', () => {
    expect(unsubscribeSigned('u1')).toBe('qupm-unsubscribe-missed-email-v1\nu1');
  });

  it('reads a token as <uid>.<43 base64url characters>, and nothing else', () => {
    expect(parseUnsubscribeToken(`MemberUid00000000001.${signature}`)).toEqual({
      uid: 'MemberUid00000000001',
      signature,
    });
    for (const bad of [
      undefined,
      42,
      '',
      'garbled',
      `.${signature}`,
      'uid.short',
      `uid.${signature}.more`,
      `u id.${signature}`,
      `uid.${signature}\r\nX: y`,
    ]) {
      expect(parseUnsubscribeToken(bad)).toBeNull();
    }
  });

  it('takes the one-click body form-encoded, parsed or multipart, and nothing else', () => {
    expect(isOneClickBody('List-Unsubscribe=One-Click')).toBe(true);
    expect(isOneClickBody({ 'List-Unsubscribe': 'One-Click' })).toBe(true);
    expect(
      isOneClickBody(
        '--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b--\r\n',
      ),
    ).toBe(true);
    for (const bad of [
      undefined,
      '',
      'List-Unsubscribe=No',
      {},
      { 'List-Unsubscribe': 'one-click' },
      'One-Click',
    ]) {
      expect(isOneClickBody(bad)).toBe(false);
    }
  });

  it('answers plain pages: the question with its POST button, the outcome, or why nothing changed', () => {
    const ask = unsubscribePage('ask', 'uid.<sig>&"');
    expect(ask.status).toBe(200);
    expect(ask.html).toContain(
      '<form method="post" action="/api/mail/unsubscribe?token=uid.%3Csig%3E%26%22">',
    );
    expect(ask.html).toContain('<button type="submit">Stop these emails</button>');
    expect(ask.html).not.toMatch(/<script|style=/);
    expect(unsubscribePage('invalid')).toMatchObject({ status: 400 });
    expect(unsubscribePage('invalid').html).toContain(UNSUBSCRIBE_MESSAGES.invalid);
    expect(unsubscribePage('invalid').html).not.toContain('<form');
    expect(unsubscribePage('notOneClick').status).toBe(400);
    expect(unsubscribePage('done')).toMatchObject({ status: 200 });
  });
});

describe('missedChannelName', () => {
  it('names a channel by its title, a private consultation as such', () => {
    expect(missedChannelName({ title: 'Strategy Studio' })).toBe('Strategy Studio');
    expect(missedChannelName({ title: '', kind: 'private' })).toBe('your private consultation');
  });
});
