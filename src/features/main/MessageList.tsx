// A conversation's messages as a virtualized list (react-virtuoso, issue #13 part 2): only the rows in view are in
// the page, so a channel of 10,000 messages opens at its newest and scrolls back smoothly. Older pages load as the
// person nears the top and are added above without moving what they read (`firstItemIndex`). Day separators, a
// sender's consecutive messages grouped, a "New messages" divider at the first message unread when the channel
// opened (it stays there until they leave), and "Jump to latest" with the count of new messages while they read
// further up. The person's own messages still on their way out (the outbox) come last; sending one always
// scrolls to the bottom, and new messages keep the list at the bottom while the person is there.
import { forwardRef, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ComponentPropsWithoutRef, Ref } from 'react';
import { Virtuoso } from 'react-virtuoso';
import type { Components, ListRange, VirtuosoHandle } from 'react-virtuoso';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectOpenedUnread } from '@/store/channelsSlice';
import { selectUid } from '@/store/userSlice';
import { useNow } from '@/ui/time';
import {
  messagesRequested,
  olderRequested,
  selectConversation,
  selectConversationView,
} from '@/store/conversationSlice';
import { MessageItem, PendingItem } from './MessageItem';
import {
  continuesGroup,
  countNewAfter,
  dayLabel,
  firstUnreadId,
  prependedBefore,
  startsDay,
} from './messageRows';
import './messageList.css';

/**
 * The index of the first message loaded when the list opens. Virtuoso keeps a row where it is when the index of the
 * first row goes down by as many rows as were added above it; it must stay positive, so it starts well above any
 * channel's length.
 */
const FIRST_INDEX = 10_000_000;
/** A row's height before it is measured (a one-line message), so the first render needs no probe pass. */
const ROW_HEIGHT_GUESS = 64;
/** Within this distance of the bottom the list counts as at the bottom (and follows new messages). */
const AT_BOTTOM_PX = 48;

interface ListContext {
  hasMore: boolean;
  loadingOlder: boolean;
  loadOlder: () => void;
}

const List = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<'div'> & { context?: ListContext }>(function List(
  { context: _context, ...props },
  ref,
) {
  // An ordered list of messages (virtuoso types its list element as a div; an <ol> takes the same props).
  return (
    <ol
      {...(props as ComponentPropsWithoutRef<'ol'>)}
      ref={ref as unknown as Ref<HTMLOListElement>}
      className="messages__list"
    />
  );
});

const components: Components<unknown, ListContext> = {
  List,
  Item: ({ children, item: _item, context: _context, ...props }) => (
    <li {...props} className="messages__row">
      {children}
    </li>
  ),
  // Paging back without scrolling (a keyboard, a screen reader), and where the conversation begins.
  Header: ({ context }) =>
    context.hasMore ? (
      <div className="messages__older">
        <button
          type="button"
          className="button button--quiet button--small"
          disabled={context.loadingOlder}
          onClick={context.loadOlder}
        >
          {context.loadingOlder ? 'Loading earlier messages…' : 'Show earlier messages'}
        </button>
      </div>
    ) : (
      <p className="messages__start muted">This is the beginning of the conversation.</p>
    ),
};

export function MessageList({ channelId }: { channelId: string }) {
  const dispatch = useAppDispatch();
  const conversation = useAppSelector((state) => selectConversation(state, channelId));
  const { messages, pending } = useAppSelector((state) => selectConversationView(state, channelId));
  const openedUnread = useAppSelector((state) => selectOpenedUnread(state, channelId));
  const uid = useAppSelector(selectUid);
  const now = useNow(60_000);
  const virtuoso = useRef<VirtuosoHandle>(null);
  const loaded = conversation?.status === 'loaded';
  const newestId = messages.at(-1)?.id;

  // Older pages added above: the first row's index goes down by as many rows, so what is in view stays put.
  // Derived while rendering (the index must change in the same render as the rows).
  const [origin, setOrigin] = useState({ firstId: messages[0]?.id, index: FIRST_INDEX });
  let firstItemIndex = origin.index;
  if (messages[0]?.id !== origin.firstId) {
    firstItemIndex = origin.index - prependedBefore(messages, origin.firstId);
    setOrigin({ firstId: messages[0]?.id, index: firstItemIndex });
  }

  // The "New messages" divider: fixed when the conversation is first shown (how many were unread, up to the newest
  // message then), so it stays where it was while the person reads, until they leave the channel.
  const [unreadAt, setUnreadAt] = useState<{ unread: number; until: string } | null | undefined>(undefined);
  if (unreadAt === undefined && loaded && openedUnread !== null && newestId !== undefined) {
    setUnreadAt(openedUnread > 0 ? { unread: openedUnread, until: newestId } : null);
  }
  const dividerId = useMemo(
    () => (unreadAt ? firstUnreadId(messages, unreadAt.unread, uid, unreadAt.until) : null),
    [messages, unreadAt, uid],
  );

  // At the bottom (following new messages) or reading further up, since which message.
  const [atBottom, setAtBottom] = useState(true);
  const [awayFrom, setAwayFrom] = useState<string | null>(null);
  const newest = useRef(newestId);
  useLayoutEffect(() => {
    newest.current = newestId;
  }, [newestId]);
  const onAtBottom = useCallback((bottom: boolean) => {
    setAtBottom(bottom);
    setAwayFrom(bottom ? null : (newest.current ?? null));
  }, []);
  const newCount = awayFrom === null ? 0 : countNewAfter(messages, awayFrom, uid);

  // A message the person just sent always brings them to the bottom; others only when they are there already.
  const sentCount = useRef(pending.length);
  const justSent = useRef(false);
  useLayoutEffect(() => {
    if (pending.length > sentCount.current) {
      justSent.current = true;
      virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end' });
    }
    sentCount.current = pending.length;
  }, [pending.length]);
  const followOutput = useCallback((bottom: boolean) => {
    const follow = bottom || justSent.current;
    justSent.current = false;
    return follow ? 'auto' : false;
  }, []);

  // The day of the row at the top, floating over the list while it scrolls.
  const [topDay, setTopDay] = useState<string | null>(null);
  const [scrolling, setScrolling] = useState(false);
  const onRange = useCallback(
    (range: ListRange) => {
      const message = messages[range.startIndex - firstItemIndex];
      setTopDay(message ? dayLabel(message.createdAt, now) : null);
    },
    [messages, firstItemIndex, now],
  );

  const hasMore = conversation?.hasMore === true;
  const loadingOlder = conversation?.loadingOlder === true;
  const loadOlder = useCallback(() => dispatch(olderRequested({ channelId })), [dispatch, channelId]);
  const context = useMemo(() => ({ hasMore, loadingOlder, loadOlder }), [hasMore, loadingOlder, loadOlder]);
  const onStartReached = useCallback(() => {
    if (hasMore && !loadingOlder) loadOlder();
  }, [hasMore, loadingOlder, loadOlder]);

  const itemKey = useCallback(
    (index: number) => {
      const i = index - firstItemIndex;
      return messages[i]?.id ?? `pending:${pending[i - messages.length]?.id ?? index}`;
    },
    [messages, pending, firstItemIndex],
  );
  const itemContent = useCallback(
    (index: number) => {
      const i = index - firstItemIndex;
      const message = messages[i];
      if (!message) {
        const entry = pending[i - messages.length];
        return entry ? <PendingItem entry={entry} /> : null;
      }
      const previous = messages[i - 1];
      const divider = message.id === dividerId;
      return (
        <>
          {startsDay(previous, message) && (
            <h3 className="messages__day">
              <span>{dayLabel(message.createdAt, now)}</span>
            </h3>
          )}
          {divider && (
            <p className="messages__unread">
              <span>New messages</span>
            </p>
          )}
          <MessageItem
            message={message}
            own={message.senderId === uid}
            now={now}
            grouped={!divider && continuesGroup(previous, message)}
          />
        </>
      );
    },
    [messages, pending, firstItemIndex, dividerId, uid, now],
  );

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
  if (messages.length === 0 && pending.length === 0) {
    return (
      <div className="messages messages--state" role="region" aria-label="Messages">
        <p className="messages__empty muted">No messages yet. Start the conversation below.</p>
      </div>
    );
  }
  return (
    <div className="messages">
      <Virtuoso
        ref={virtuoso}
        className="messages__scroller"
        role="region"
        aria-label="Messages"
        context={context}
        components={components}
        totalCount={messages.length + pending.length}
        firstItemIndex={firstItemIndex}
        initialTopMostItemIndex={{ index: 'LAST', align: 'end' }}
        alignToBottom
        defaultItemHeight={ROW_HEIGHT_GUESS}
        increaseViewportBy={{ top: 800, bottom: 200 }}
        computeItemKey={itemKey}
        itemContent={itemContent}
        followOutput={followOutput}
        atBottomThreshold={AT_BOTTOM_PX}
        atBottomStateChange={onAtBottom}
        startReached={onStartReached}
        rangeChanged={onRange}
        isScrolling={setScrolling}
      />
      {scrolling && topDay && (
        <p className="messages__day-float" aria-hidden="true">
          {topDay}
        </p>
      )}
      {!atBottom && (
        <button
          type="button"
          className="messages__jump button button--small"
          onClick={() => virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end' })}
        >
          Jump to latest
          {newCount > 0 && (
            <span className="messages__jump-count">
              {' '}
              ({newCount} new {newCount === 1 ? 'message' : 'messages'})
            </span>
          )}
        </button>
      )}
    </div>
  );
}
