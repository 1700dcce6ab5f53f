// One message of a conversation as a bubble, and one of the person's own on its way out (the outbox). The list
// (MessageList.tsx) wraps each in its row (with the day separator and the "New messages" divider) and says whether
// it continues its sender's group: then the name and time are there for screen readers and shown on hover/focus.
import { memo } from 'react';
import type { FocusEvent } from 'react';
import type { ChatMessage } from '@core/model';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectCurrentName } from '@/store/membersSlice';
import { MessageText } from '@/ui/MessageText';
import { AttachmentList } from './AttachmentView';
import { formatClockTime, formatFullTime } from '@/ui/time';
import { outboxDeleteRequested, outboxRetryRequested } from '@/store/outboxSlice';
import type { OutboxEntry } from '@/store/outboxSlice';
import { MessageActions, MessageContent } from './MessageActions';
import { ReceiptStatus } from './ReceiptStatus';
import { MessageReactions, ReplyQuoteView } from './MessageReplies';
import { MessageCardView } from './MessageCardView';

/**
 * The sender's current name where the channel's people are known (a renamed person's old messages show the new
 * name, as in WhatsApp and Slack), else the name the message was sent under.
 */
function SenderName({ channelId, message }: { channelId: string; message: ChatMessage }) {
  const current = useAppSelector((state) => selectCurrentName(state, channelId, message.senderId));
  return <>{current ?? message.senderName}</>;
}

/**
 * On a phone a bubble's tools open when the bubble itself is tapped (it takes focus) or one of its tools is reached
 * by Tab, and stay open while focus is anywhere in it; focus on its link, file or quote opens nothing (the bubble
 * growing under a press would move what was pressed). The opened bubble is kept in view, whole.
 */
function toolsOpenOnFocus(event: FocusEvent<HTMLDivElement>): void {
  const bubble = event.currentTarget;
  const target = event.target as Element;
  if (target !== bubble && !target.closest('.message__tools')) return;
  // Focused by a quote's jump (highlighted first), not by a tap: its tools would cover what was jumped to.
  if (target === bubble && bubble.dataset.highlight !== undefined) return;
  // Set on the element, not through React state: a render would rewrite the class list (a jump's highlight).
  bubble.dataset.tools = 'open';
  if (target === bubble) requestAnimationFrame(() => bubble.scrollIntoView?.({ block: 'nearest' }));
}

function toolsClosedOnBlur(event: FocusEvent<HTMLDivElement>): void {
  if (!event.currentTarget.contains(event.relatedTarget as Node | null))
    delete event.currentTarget.dataset.tools;
}

export const MessageItem = memo(function MessageItem({
  message,
  own,
  now,
  grouped = false,
}: {
  message: ChatMessage;
  own: boolean;
  now: number;
  /** It follows a message of the same sender within a few minutes: its name and time are not repeated. */
  grouped?: boolean;
}) {
  return (
    <div
      className={`message${own ? ' message--own' : ''}${grouped ? ' message--grouped' : ''}`}
      data-message-id={message.id}
      // A tap focuses the bubble, which opens its tools on a phone (messageActions.css); never in the Tab order.
      tabIndex={-1}
      onFocus={toolsOpenOnFocus}
      onBlur={toolsClosedOnBlur}
    >
      <p className="message__meta">
        <span className="message__sender" dir="auto">
          {own ? 'You' : <SenderName channelId={message.channelId} message={message} />}
        </span>
        <time dateTime={new Date(message.createdAt).toISOString()} title={formatFullTime(message.createdAt)}>
          {formatClockTime(message.createdAt)}
        </time>
      </p>
      <ReplyQuoteView message={message} />
      {message.card && !message.deleted ? (
        <MessageCardView card={message.card} own={own} now={now} />
      ) : (
        <MessageContent message={message} />
      )}
      {message.attachments && !message.deleted && (
        <AttachmentList channelId={message.channelId} attachments={message.attachments} />
      )}
      <MessageReactions message={message} />
      <MessageActions message={message} own={own} now={now} />
      {own && <ReceiptStatus message={message} />}
    </div>
  );
});

export /** One of the person's messages on its way out: sending, waiting for the network, or refused. */
function PendingItem({ entry }: { entry: OutboxEntry }) {
  const dispatch = useAppDispatch();
  const refused = entry.status === 'refused';
  const state = refused
    ? 'Not sent'
    : entry.status === 'queued' && entry.error
      ? 'Waiting to send…'
      : 'Sending…';
  return (
    <div
      className={refused ? 'message message--own message--refused' : 'message message--own message--pending'}
    >
      <p className="message__meta">
        <span className="message__sender">You</span>
        <span className="message__state" role={refused ? 'alert' : undefined}>
          {state}
        </span>
      </p>
      {entry.text && (
        <p className="message__text" dir="auto">
          <MessageText text={entry.text} />
        </p>
      )}
      {entry.attachments?.map((file) => (
        <p key={file.id} className="message__text muted">
          {file.name}
        </p>
      ))}
      {refused && (
        <div className="message__problem">
          {entry.error && <p className="form-error">{entry.error}</p>}
          <div className="message__actions">
            <button
              type="button"
              className="button button--small"
              onClick={() => dispatch(outboxRetryRequested({ id: entry.id }))}
            >
              Retry<span className="visually-hidden"> sending “{entry.text.slice(0, 40)}”</span>
            </button>
            <button
              type="button"
              className="button button--small button--quiet"
              onClick={() => dispatch(outboxDeleteRequested({ id: entry.id }))}
            >
              Delete<span className="visually-hidden"> unsent “{entry.text.slice(0, 40)}”</span>
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
