// Sent → delivered → read under the person's newest message (as Messenger and iMessage show it: once, where the
// conversation stands): "Seen" in a private consultation; "Seen by N" in a group, with who and when behind it (a
// disclosure, so it opens with the keyboard and says so to screen readers). Nothing while receipts are off: the
// backend then discloses no marks (core/receipts.ts).
import { createSelector } from '@reduxjs/toolkit';
import type { SyntheticEvent } from 'react';
import { messageState, readersOf, RECEIPT_WORDS } from '@core/receipts';
import type { Receipt } from '@core/receipts';
import type { ChatMessage } from '@core/model';
import { isPrivateChannel } from '@core/privateChannels';
import { useAppSelector } from '@/store/hooks';
import type { RootState } from '@/store/reducer';
import { selectConversation } from '@/store/conversationSlice';
import { selectReceipts, selectReceiptSettings } from '@/store/receiptsSlice';
import { selectUid } from '@/store/userSlice';
import { formatClockTime, formatFullTime } from '@/ui/time';
import './receipts.css';

/** The id of the person's newest message that is not deleted, when the window reaches the newest. */
export const selectNewestOwnId = createSelector(
  [(state: RootState, channelId: string) => selectConversation(state, channelId), selectUid],
  (conversation, uid): string | null => {
    if (!conversation || conversation.hasNewer || uid === null) return null;
    for (let i = conversation.messages.length - 1; i >= 0; i -= 1) {
      const message = conversation.messages[i];
      if (message && message.senderId === uid && !message.deleted) return message.id;
    }
    return null;
  },
);

const selectIsPrivate = (state: RootState, channelId: string): boolean => {
  const channel = state.channels.entities[channelId]?.channel;
  return channel ? isPrivateChannel(channel) : false;
};

const NO_RECEIPTS: Receipt[] = [];

export function ReceiptStatus({ message }: { message: ChatMessage }) {
  const newest = useAppSelector((state) => selectNewestOwnId(state, message.channelId)) === message.id;
  // Only the newest own message listens to the receipts: every mark that moves would redraw the others for nothing.
  const receipts = useAppSelector((state) =>
    newest ? selectReceipts(state, message.channelId) : NO_RECEIPTS,
  );
  const sharing = useAppSelector(selectReceiptSettings).enabled !== false;
  const isPrivate = useAppSelector((state) => selectIsPrivate(state, message.channelId));
  if (!newest || !sharing) return null;
  const state = messageState(receipts, message, message.senderId);
  if (state !== 'read') {
    return (
      <p className="receipt" data-state={state}>
        {state === 'delivered' ? RECEIPT_WORDS.delivered : RECEIPT_WORDS.sent}
      </p>
    );
  }
  const readers = readersOf(receipts, message, message.senderId);
  if (isPrivate) {
    const at = readers[0]?.readAt;
    return (
      <p className="receipt" data-state="read" title={at ? formatFullTime(at) : undefined}>
        {RECEIPT_WORDS.seen}
        {at ? <span className="visually-hidden"> at {formatClockTime(at)}</span> : null}
      </p>
    );
  }
  return (
    <details className="receipt receipt--group" data-state="read" onToggle={showReaders}>
      <summary>{RECEIPT_WORDS.seenBy(readers.length)}</summary>
      <ul className="receipt__readers">
        {readers.map((reader) => (
          <li key={reader.uid}>
            <span dir="auto">{reader.name}</span>
            {reader.readAt !== null && (
              <time dateTime={new Date(reader.readAt).toISOString()} title={formatFullTime(reader.readAt)}>
                {formatClockTime(reader.readAt)}
              </time>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * The newest message sits at the foot of the conversation, so its opened list of readers would fall below the
 * scroller's edge: it is brought into view (the scroller moves by as little as it takes), at every window size.
 */
function showReaders(event: SyntheticEvent<HTMLDetailsElement>): void {
  const details = event.currentTarget;
  if (!details.open) return;
  // After the row has grown (Virtuoso measures it in the next frame), so that the scroll reaches its new foot.
  requestAnimationFrame(() =>
    details.querySelector('.receipt__readers')?.scrollIntoView({ block: 'nearest', inline: 'nearest' }),
  );
}
