// Missed-message email on Firebase: the scheduled pass (every 5 minutes) that decides with
// core/missedMail.ts, as the embedded server does, and writes each email as a mail/{id} document for the Trigger
// Email extension in the same transaction as missedMail/{uid}_{channelId} (what it covered, when it was sent);
// and the one-click unsubscribe (RFC 8058) behind /api/mail/unsubscribe (a Hosting rewrite to mail_unsubscribe).
// The unsubscribe token is `<uid>.<HMAC-SHA256>` under config/mailUnsubscribe's secret: single-purpose, nothing
// stored per person, a forged one refused.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { withDeliveryChannel, hasDeliveryChannel } from '../../../core/delivery';
import { escapeHtml } from '../../../core/html';
import type { ChatMessage } from '../../../core/model';
import type { MissedCandidate } from '../../../core/missedMail';
import {
  decideMissedMail,
  missedSince,
  MISSED_MAIL,
  MISSED_MAIL_WHY,
  missedChannelName,
  isOneClickBody,
  parseUnsubscribeToken,
  summarizeMissed,
  unsubscribePage,
  unsubscribePath,
  unsubscribeSigned,
  wantsEmail,
} from '../../../core/missedMail';
import { channelPath } from '../../../core/paths';
import { pendingRecipients } from '../../../core/pending';
import type { Deps, TriggerEmailDoc } from '../repository';

const mac = (secret: string, uid: string): Buffer =>
  createHmac('sha256', Buffer.from(secret, 'base64url')).update(unsubscribeSigned(uid)).digest();

export function unsubscribeToken(secret: string, uid: string): string {
  return `${uid}.${mac(secret, uid).toString('base64url')}`;
}

/** The account a token names, or null when it is forged or garbled. */
export function tokenAccount(secret: string, token: unknown): string | null {
  const parts = parseUnsubscribeToken(token);
  if (parts === null) return null;
  const given = Buffer.from(parts.signature, 'base64url');
  const expected = mac(secret, parts.uid);
  return given.length === expected.length && timingSafeEqual(given, expected) ? parts.uid : null;
}

const toCandidate = (m: ChatMessage): MissedCandidate => ({
  id: m.id,
  senderId: m.senderId,
  senderName: m.senderName,
  text: m.text,
  createdAt: m.createdAt,
  deleted: m.deleted === true,
  hasAttachment: m.attachments !== undefined,
});

/** The email's two parts: the same lines, every link written in full in the text. */
function missedMailDoc(
  to: string,
  channelName: string,
  messages: MissedCandidate[],
  links: { channel: string; unsubscribe: string },
): TriggerEmailDoc {
  const summary = summarizeMissed(messages, channelName);
  const lines = summary.paragraphs;
  const why = MISSED_MAIL_WHY;
  const text = [
    ...lines,
    `Open ${channelName}:\n${links.channel}`,
    why,
    `To stop these emails: ${links.unsubscribe}`,
    '-- \nQuPM',
  ].join('\n\n');
  const html = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>QuPM</title></head><body>',
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(links.channel)}">Open ${escapeHtml(channelName)}</a></p>`,
    `<p>${escapeHtml(why)}</p>`,
    `<p><a href="${escapeHtml(links.unsubscribe)}">Stop these emails</a></p>`,
    '</body></html>',
  ].join('\n');
  return {
    to,
    message: { subject: summary.subject, text, html },
    headers: {
      'List-Unsubscribe': `<${links.unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/** One scheduled pass: writes every email due now. Answers how many were written. */
export async function handleMissedMail(deps: Deps): Promise<number> {
  const now = deps.now();
  const origin = deps.appOrigin();
  const recent = await deps.repo.recentMessages(missedSince(now));
  let written = 0;
  let secret: string | null = null;
  for (const { channel, messages } of recent) {
    const due = messages.filter((m) => m.createdAt + MISSED_MAIL.delayMs <= now && m.deleted !== true);
    if (due.length === 0) continue;
    // Everyone in the channel with a due message by someone else.
    const people = pendingRecipients(channel, '').filter((uid) => due.some((m) => m.senderId !== uid));
    const users = await deps.repo.getUsers(people);
    const wanting = people.filter((uid) => wantsEmail(users.get(uid)?.notificationSettings));
    if (wanting.length === 0) continue;
    const mutes = await deps.repo.getMutes(wanting);
    for (const uid of wanting) {
      const account = await deps.accounts.lookup(uid);
      const address = account?.email ?? null;
      const [mark, state] = await Promise.all([
        deps.repo.getReadMark(uid, channel.id),
        deps.repo.getMissedMailState(uid, channel.id),
      ]);
      const decision = decideMissedMail({
        uid,
        settings: users.get(uid)?.notificationSettings,
        addressOk: address !== null && account?.emailVerified === true,
        mutedUntil: mutes[uid]?.[channel.id],
        mark,
        state,
        messages: messages.map(toCandidate),
        now,
      });
      if (decision.kind === 'none') continue;
      if (decision.kind === 'pass' || address === null) {
        await deps.repo.recordMissedMail(
          uid,
          channel.id,
          state,
          {
            coveredUpTo: decision.coveredUpTo,
            lastSentAt: state?.lastSentAt ?? null,
          },
          null,
        );
        continue;
      }
      secret ??= await deps.repo.unsubscribeSecret();
      const name = missedChannelName(channel);
      const mail = missedMailDoc(address, name, decision.messages, {
        channel: `${origin}${channelPath(channel.id)}`,
        unsubscribe: `${origin}${unsubscribePath(unsubscribeToken(secret, uid))}`,
      });
      const wrote = await deps.repo.recordMissedMail(
        uid,
        channel.id,
        state,
        { coveredUpTo: decision.coveredUpTo, lastSentAt: now },
        mail,
      );
      if (wrote) written += 1;
    }
  }
  return written;
}

/** GET asks (a link followed by a mail scanner changes nothing); POST with the one-click body turns email off. */
export async function handleUnsubscribe(
  deps: Deps,
  request: { method: string; token: unknown; body: unknown },
): Promise<{ status: number; html: string }> {
  if (request.method !== 'GET' && request.method !== 'POST')
    return { ...unsubscribePage('invalid'), status: 405 };
  const uid = tokenAccount(await deps.repo.unsubscribeSecret(), request.token);
  if (uid === null) return unsubscribePage('invalid');
  if (request.method === 'GET') return unsubscribePage('ask', String(request.token));
  if (!isOneClickBody(request.body)) return unsubscribePage('notOneClick');
  await deps.repo.updateNotificationSettings(uid, (settings) =>
    hasDeliveryChannel(settings, 'email') ? withDeliveryChannel(settings, 'email', false) : null,
  );
  return unsubscribePage('done');
}
