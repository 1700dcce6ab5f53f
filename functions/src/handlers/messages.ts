// A new message in channels/{channelId}/messages/{messageId}: the fan-out core/fanOut.ts plans for both backends
// (the embedded server's sendMessage runs the same plan) — one more pending notification for everyone in the
// channel but the sender who has not muted the channel, then a web push to each of their active tokens (if they
// want push, spec §5) carrying their own badge count — and the deletion of every token FCM reports dead.
import type { AttachmentKind } from '../../../core/attachments';
import { canMessage } from '../../../core/permissions';
import { planPushes, planRecipients, pushRecipients } from '../../../core/fanOut';
import { pendingRecipients } from '../../../core/pending';
import { publicName } from '../../../core/users';
import { isDeadToken, toFcmMessage } from '../push';
import type { Deps } from '../repository';

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

  // core/fanOut.ts decides who counts it, who gets a push and which browsers; this reads and writes. A channel a
  // recipient muted adds nothing to their badge and sends them no push.
  const now = deps.now();
  const members = pendingRecipients(channel, message.senderId);
  const mutes = members.length > 0 ? await repo.getMutes(members) : {};
  const { recipients, mutedChannels } = planRecipients({ channel, senderId: message.senderId, mutes, now });
  if (recipients.length === 0) return nothing;
  const badges = await repo.addPending(recipients, channel.id, mutedChannels);

  const users = await Promise.all(recipients.map((uid) => repo.getUser(uid)));
  const pushable = pushRecipients({
    recipients,
    settings: Object.fromEntries(recipients.map((uid, i) => [uid, users[i]?.notificationSettings])),
    mutes,
    channelId: channel.id,
    now,
  });
  const pushes = planPushes({
    message: {
      channelId: channel.id,
      messageId: message.messageId,
      senderName,
      text: message.text,
      ...(message.attachment ? { attachment: message.attachment } : {}),
    },
    targets: pushable.length > 0 ? await repo.listActiveTokens(pushable) : [],
    badges,
  });
  if (pushes.length === 0) return { notified: recipients, sent: 0, pruned: 0 };

  const origin = deps.appOrigin();
  const targets = pushes.map(({ target }) => target);
  const results = await push.send(
    pushes.map(({ target, push: content }) => toFcmMessage(content, target.token, origin)),
  );
  const dead = targets.filter((_target, i) => isDeadToken(results[i]));
  if (dead.length > 0) await repo.deleteTokens(dead);
  return {
    notified: recipients,
    sent: results.filter((result) => result.success).length,
    pruned: dead.length,
  };
}
