// Read receipts on the Firebase backend (core/receipts.ts): the delivered mark a device advances, the read mark's
// mirror in channels/{id}/receipts/{uid} (mark_channel_read calls receiptMoved), and sharing turned on or off.
// Decided as the embedded server's services/receipts.ts does: the channel exists, the caller takes part in it,
// the message is one of its own; a mark only moves forward.
import { assertCanMarkRead, CHANNEL_MESSAGES, READ_MARK_MESSAGES } from '../../../core/channels';
import { QupmError } from '../../../core/errors';
import type { ReadMark } from '../../../core/channels';
import type { Caller } from '../../../core/permissions';
import type { ReceiptSettings } from '../../../core/receipts';
import type { ReceiptCallableName, receiptCallablePayloads } from '../../../core/schemas';
import { publicName } from '../../../core/users';
import type { Handler } from '../callable';
import type { Deps } from '../repository';

interface ReceiptResults {
  mark_channel_delivered: { success: true };
  set_read_receipts: ReceiptSettings;
}

/** The caller's read or delivered mark moved to `message`: their receipt document follows (never back). */
export async function receiptMoved(
  deps: Deps,
  caller: Caller,
  channelId: string,
  kind: 'read' | 'delivered',
  message: ReadMark,
): Promise<void> {
  const user = (await deps.repo.getUsers([caller.uid])).get(caller.uid);
  const name = user ? publicName(user) : '';
  await deps.repo.moveReceipt(caller.uid, channelId, kind, message, deps.now(), name);
}

export const receiptCallables: {
  [N in ReceiptCallableName]: Handler<(typeof receiptCallablePayloads)[N], ReceiptResults[N]>;
} = {
  async mark_channel_delivered(deps, caller, { channelId, messageId }) {
    const channel = await deps.repo.getChannel(channelId);
    if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
    // Ownership before the message's existence, as mark_channel_read.
    assertCanMarkRead(channel, caller.uid);
    const message = await deps.repo.getMessage(channelId, messageId);
    if (!message) throw new QupmError('NOT_FOUND', READ_MARK_MESSAGES.noSuchMessage);
    await receiptMoved(deps, caller, channelId, 'delivered', message);
    return { success: true };
  },

  async set_read_receipts(deps, caller, { enabled }) {
    const channels = await deps.repo.listChannelsFor(caller.uid);
    await deps.repo.setReceiptsShared(
      caller.uid,
      enabled,
      channels.map((channel) => channel.id),
    );
    return { enabled };
  },
};
