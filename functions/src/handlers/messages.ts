// A new message in channels/{channelId}/messages/{messageId}: the same bookkeeping as the embedded server's
// sendMessage (server/services/channels.ts) — one more pending notification for everyone in the channel but the
// sender who has not muted the channel (issue #13) — then a web push to each of their active tokens (if they want push, spec §5) carrying their own badge
// count, and the deletion of every token FCM reports dead.
import type { AttachmentKind } from '../../../core/attachments';
import { canMessage } from '../../../core/permissions';
import { pendingRecipients } from '../../../core/pending';
import { wantsPushFrom } from '../../../core/delivery';
import { activeMutes, isChannelMuted } from '../../../core/mutes';
import { messagePush } from '../../../core/push';
import { publicName } from '../../../core/users';
import { isDeadToken, toFcmMessage } from '../push';
import type { Deps, TokenRef } from '../repository';

export interface NewMessage {
  channelId: string;
  messageId: string;
  senderId: string;
  senderName: string;
  text: string;
  /** A file sent with the message: a push for one without text says "Sent a photo" or "Sent a document". */
  attachment?: { kind: AttachmentKind };
}

export interface FanOut {
  /** Why nothing was done, when nothing was. */
  skipped?: 'no-channel' | 'not-a-member';
  notified: string[];
  sent: number;
  pruned: number;
}

/** One token once, even if two accounts hold it (a shared browser): the first holder's badge wins. */
function uniqueTokens(tokens: readonly TokenRef[]): TokenRef[] {
  const seen = new Set<string>();
  return tokens.filter((ref) => !seen.has(ref.token) && Boolean(seen.add(ref.token)));
}

export async function handleMessageCreated(deps: Deps, message: NewMessage): Promise<FanOut> {
  const { repo, push } = deps;
  const nothing = { notified: [], sent: 0, pruned: 0 };
  const channel = await repo.getChannel(message.channelId);
  if (!channel) return { ...nothing, skipped: 'no-channel' };
  // firestore.rules lets only the owner and members write here; this guards against anything else that could.
  if (!canMessage(channel, message.senderId)) return { ...nothing, skipped: 'not-a-member' };

  // The name others see is the backend's to derive (nickname, display name, email's local part), as on the
  // embedded server; a client's guess that differs is corrected on the stored message.
  const sender = await repo.getUser(message.senderId);
  const senderName = sender ? publicName(sender) : message.senderName;
  if (sender && senderName !== message.senderName) {
    await repo.setMessageSenderName(message.channelId, message.messageId, senderName);
  }

  // A channel a recipient muted (issue #13) adds nothing to their badge and sends them no push.
  const now = deps.now();
  const everyone = pendingRecipients(channel, message.senderId);
  const mutes = everyone.length > 0 ? await repo.getMutes(everyone) : {};
  const recipients = everyone.filter((uid) => !isChannelMuted(mutes[uid] ?? {}, channel.id, now));
  if (recipients.length === 0) return nothing;
  const mutedSources = Object.fromEntries(
    recipients.map((uid) => [uid, new Set(Object.keys(activeMutes(mutes[uid] ?? {}, now)))]),
  );
  const badges = await repo.addPending(recipients, channel.id, mutedSources);

  const users = await Promise.all(recipients.map((uid) => repo.getUser(uid)));
  const pushable = recipients.filter((uid, i) =>
    wantsPushFrom(users[i]?.notificationSettings, mutes[uid]?.[channel.id], now),
  );
  const targets = pushable.length > 0 ? uniqueTokens(await repo.listActiveTokens(pushable)) : [];
  if (targets.length === 0) return { notified: recipients, sent: 0, pruned: 0 };

  const origin = deps.appOrigin();
  const results = await push.send(
    targets.map((target) =>
      toFcmMessage(
        messagePush({
          channelId: channel.id,
          messageId: message.messageId,
          senderName,
          text: message.text,
          ...(message.attachment ? { attachment: message.attachment } : {}),
          badgeCount: badges[target.uid] ?? 0,
        }),
        target.token,
        origin,
      ),
    ),
  );
  const dead = targets.filter((_target, i) => isDeadToken(results[i]));
  if (dead.length > 0) await repo.deleteTokens(dead);
  return {
    notified: recipients,
    sent: results.filter((result) => result.success).length,
    pruned: dead.length,
  };
}
