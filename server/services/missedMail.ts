// Missed-message email on the embedded server: a scheduler that, every minute, finds the
// people due one email about a channel (core/missedMail.ts decides) and queues it with the mail queue
// (server/services/mail.ts) in the same transaction that records it in missed_mail, so a restart neither sends it
// twice nor forgets it. The unsubscribe tokens of its List-Unsubscribe link (RFC 8058) are HMACs of the account
// id under a secret of their own, kept in settings: single-purpose, nothing to store, a forged one refused.
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  decideMissedMail,
  missedSince,
  MISSED_MAIL,
  MISSED_MAIL_WHY,
  missedChannelName,
  summarizeMissed,
  parseUnsubscribeToken,
  unsubscribePath,
  unsubscribeSigned,
} from '../../core/missedMail';
import { hasDeliveryChannel, withDeliveryChannel } from '../../core/delivery';
import { channelPath } from '../../core/paths';
import { write } from '../db/database';
import type { ServerContext } from '../context';
import { newSecret } from '../ids';
import { enqueueMail, mailLink, renderMail } from './mail';
import { publishUser } from './users';

/** How often the scheduler looks for missed messages. */
export const MISSED_MAIL_SCAN_MS = 60_000;
const SECRET_SETTING = 'mail_unsubscribe_secret';

export type MissedMailContext = Pick<ServerContext, 'db' | 'repos' | 'hub' | 'now' | 'mail' | 'mailQueue'>;

/** The unsubscribe secret, made on first use and kept across restarts. */
export function unsubscribeSecret(ctx: Pick<ServerContext, 'db' | 'repos'>): Buffer {
  const value = write(ctx.db, () => ctx.repos.settings.keep(SECRET_SETTING, newSecret()));
  return Buffer.from(value, 'base64url');
}

const mac = (secret: Buffer, uid: string): Buffer =>
  createHmac('sha256', secret).update(unsubscribeSigned(uid)).digest();

/** The token of `uid`'s unsubscribe link (core/missedMail.ts says its shape). */
export function unsubscribeToken(secret: Buffer, uid: string): string {
  return `${uid}.${mac(secret, uid).toString('base64url')}`;
}

/** The account a token unsubscribes, or null when it is forged, garbled or of another purpose. */
export function verifyUnsubscribeToken(secret: Buffer, token: unknown): string | null {
  const parts = parseUnsubscribeToken(token);
  if (parts === null) return null;
  const given = Buffer.from(parts.signature, 'base64url');
  const expected = mac(secret, parts.uid);
  return given.length === expected.length && timingSafeEqual(given, expected) ? parts.uid : null;
}

/**
 * One pass: queues every email due at `ctx.now()`. Each (person, channel) is decided and written in its own
 * transaction, with the mail. Answers how many emails were queued.
 */
export function scanMissedMail(ctx: MissedMailContext, secret: Buffer): number {
  const now = ctx.now();
  let queued = 0;
  for (const { uid, channelId } of ctx.repos.missedMail.candidates(
    missedSince(now),
    now - MISSED_MAIL.delayMs,
  )) {
    queued += write(ctx.db, () => {
      const channel = ctx.repos.channels.get(channelId);
      const recipient = ctx.repos.missedMail.recipient(uid);
      if (!channel || !recipient || !(channel.ownerId === uid || channel.members.includes(uid))) return 0;
      const state = ctx.repos.missedMail.state(uid, channelId);
      const coveredAt = state?.coveredUpTo?.createdAt ?? 0;
      const decision = decideMissedMail({
        uid,
        settings: ctx.repos.users.notificationSettings(uid),
        addressOk: recipient.verified,
        mutedUntil: ctx.repos.mutes.activeFor(uid, now)[channelId],
        mark: ctx.repos.reads.get(uid, channelId),
        state,
        // The covered message's own millisecond is read again: another message may share it.
        messages: ctx.repos.missedMail.messagesAfter(channelId, Math.max(coveredAt - 1, missedSince(now))),
        now,
      });
      if (decision.kind === 'none') return 0;
      if (decision.kind === 'pass') {
        ctx.repos.missedMail.put(uid, channelId, decision.coveredUpTo, state?.lastSentAt ?? null);
        return 0;
      }
      const name = missedChannelName(channel);
      const summary = summarizeMissed(decision.messages, name);
      const unsubscribe = mailLink(ctx, unsubscribePath(unsubscribeToken(secret, uid)));
      const { text, html } = renderMail({
        greeting: 'Hello,',
        paragraphs: summary.paragraphs,
        action: { label: `Open ${name}`, url: mailLink(ctx, channelPath(channel.id)) },
        after: [MISSED_MAIL_WHY, `To stop these emails: ${unsubscribe}`],
      });
      enqueueMail(ctx, {
        kind: 'missed-messages',
        to: recipient.email,
        subject: summary.subject,
        text,
        html,
        headers: {
          'List-Unsubscribe': `<${unsubscribe}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
      ctx.repos.missedMail.put(uid, channelId, decision.coveredUpTo, now);
      return 1;
    });
  }
  return queued;
}

/**
 * Turns missed-message email off for `uid` (a verified token's) and tells their open windows. An account that is
 * gone, or has email off already, is fine: the link worked.
 */
export function unsubscribe(ctx: MissedMailContext, uid: string): void {
  const changed = write(ctx.db, () => {
    const settings = ctx.repos.users.notificationSettings(uid);
    if (settings === null || !hasDeliveryChannel(settings, 'email')) return false;
    const notificationSettings = withDeliveryChannel(settings, 'email', false);
    return ctx.repos.users.updateProfile(uid, { notificationSettings });
  });
  if (changed) publishUser(ctx, uid);
}

/** The scheduler: a timer started and stopped with the server; `scan()` runs one pass now (tests, operators). */
export class MissedMailScheduler {
  private timer: NodeJS.Timeout | null = null;
  readonly secret: Buffer;

  constructor(
    private readonly ctx: MissedMailContext,
    private readonly intervalMs: number | false = MISSED_MAIL_SCAN_MS,
  ) {
    this.secret = unsubscribeSecret(ctx);
  }

  scan(): number {
    return scanMissedMail(this.ctx, this.secret);
  }

  start(): void {
    if (this.intervalMs === false || this.timer) return;
    this.timer = setInterval(() => {
      try {
        this.scan();
      } catch (error) {
        console.error('Looking for missed messages to email failed', error);
      }
    }, this.intervalMs);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
