// A conversation's messages: live, paging back through history as the person scrolls up, then the person's own
// messages still on their way out.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectUid } from '@/store/userSlice';
import { useNow } from '@/ui/time';
import {
  messagesRequested,
  olderRequested,
  selectConversation,
  selectConversationView,
} from '@/store/conversationSlice';
import { MessageItem, PendingItem } from './MessageItem';

export function MessageList({ channelId }: { channelId: string }) {
  const dispatch = useAppDispatch();
  const conversation = useAppSelector((state) => selectConversation(state, channelId));
  const { messages, pending } = useAppSelector((state) => selectConversationView(state, channelId));
  const uid = useAppSelector(selectUid);
  const now = useNow(60_000);
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLLIElement>(null);
  const previous = useRef<{ first?: string; last?: string; height: number; sent: number }>({
    height: 0,
    sent: 0,
  });
  const first = messages[0]?.id;
  // The tail of the list: the newest message, or the newest of the person's own on their way out with its state
  // (a bubble that turns into "Not sent" grows, and must stay in view).
  const tail = pending.at(-1);
  const last = tail ? `${tail.id}:${tail.status}` : messages[messages.length - 1]?.id;
  const sentCount = pending.length;

  // Keep the view where the person is: at the bottom for new messages (when they were at the bottom, and always
  // for one they just sent), and on the same message when an older page is added above.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const before = previous.current;
    if (before.first !== undefined && first !== before.first && last === before.last) {
      el.scrollTop += el.scrollHeight - before.height;
    } else if (last !== before.last) {
      const nearBottom =
        el.scrollHeight - el.clientHeight - el.scrollTop < 160 + (el.scrollHeight - before.height);
      const justSent = sentCount > before.sent;
      if (before.last === undefined || nearBottom || justSent) el.scrollTop = el.scrollHeight;
    }
    previous.current = { first, last, height: el.scrollHeight, sent: sentCount };
  }, [first, last, sentCount]);

  // Infinite scroll back: reaching the top loads the page before.
  const hasMore = conversation?.hasMore === true;
  const loadingOlder = conversation?.loadingOlder === true;
  useEffect(() => {
    const target = sentinel.current;
    if (!target || !hasMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !loadingOlder) dispatch(olderRequested({ channelId }));
      },
      { root: scroller.current, rootMargin: '200px 0px 0px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [dispatch, channelId, hasMore, loadingOlder]);

  if (!conversation || (conversation.status === 'loading' && messages.length === 0)) {
    return (
      <div className="messages messages--state" role="status">
        Loading messages…
      </div>
    );
  }
  if (conversation.status === 'failed') {
    return (
      <div className="messages messages--state">
        <p className="form-error" role="alert">
          {conversation.error ?? "The messages couldn't be loaded."}
        </p>
        <button type="button" className="button" onClick={() => dispatch(messagesRequested({ channelId }))}>
          Try again
        </button>
      </div>
    );
  }
  return (
    <div className="messages" ref={scroller} tabIndex={0} aria-label="Messages">
      {messages.length === 0 && pending.length === 0 ? (
        <p className="messages__empty muted">No messages yet. Start the conversation below.</p>
      ) : (
        <ol className="messages__list">
          {hasMore && (
            <li className="messages__older" ref={sentinel}>
              <button
                type="button"
                className="button button--quiet button--small"
                disabled={loadingOlder}
                onClick={() => dispatch(olderRequested({ channelId }))}
              >
                {loadingOlder ? 'Loading earlier messages…' : 'Show earlier messages'}
              </button>
            </li>
          )}
          {messages.map((message) => (
            <MessageItem key={message.id} message={message} own={message.senderId === uid} now={now} />
          ))}
          {pending.map((entry) => (
            <PendingItem key={entry.id} entry={entry} />
          ))}
        </ol>
      )}
    </div>
  );
}
