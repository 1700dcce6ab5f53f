// A conversation's messages as a virtualized list (react-virtuoso): only the rows in view are in
// the page, and the store holds a bounded window of messages (conversationSlice), so a channel of 10,000 messages
// opens at its newest in the frame its first page lands and scrolls back smoothly. Older pages load as the person
// nears the top and are added above without moving what they read (`firstItemIndex`, kept by the slice); past the
// window the newest end is let go, and newer pages load again as they scroll down. Day separators, a sender's
// consecutive messages grouped, a "New messages" divider at the first message unread when the channel opened (it
// stays there until they leave), and "Jump to latest" with the count of new messages while they read further up.
// The person's own messages still on their way out (the outbox) come last; sending one always scrolls to the
// bottom, and new messages keep the list at the bottom while the person is there.
import {
  Component,
  createContext,
  forwardRef,
  memo,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { ComponentPropsWithoutRef, ReactNode, Ref, RefObject } from 'react';
import { Virtuoso } from 'react-virtuoso';
import type { Components, ListRange, VirtuosoHandle } from 'react-virtuoso';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectOpenedUnread } from '@/store/channelsSlice';
import { selectUid } from '@/store/userSlice';
import { useNow } from '@/ui/time';
import { DayFloat, FloatingDay, topMessageId } from './dayFloat';
import {
  MESSAGES_PAGE,
  messagesRequested,
  olderRequested,
  selectConversation,
  selectConversationView,
} from '@/store/conversationSlice';
import type { OutboxEntry } from '@/store/outboxSlice';
import type { Conversation } from '@/store/conversationSlice';
import type { ChatMessage } from '@core/model';
// The window's actions and rules come with the list (every conversation starts here), if the conversation sagas
// have not brought them already.
import { latestReached, newerRequested, scrollBackStarted } from './conversationWindow';
import { useQuoteJump } from './MessageReplies';
import { selectQuoteJump } from './repliesSlice';
import { MessageItem, PendingItem } from './MessageItem';
import { WithSenderFace } from './SenderFace';
import { selectChannelPhotos, selectShowsFaces } from './faces';
import { continuesGroup, dayLabel, firstUnreadId, startsDay } from './messageRows';
import { useFollowedFirstIndex } from './followedFirstIndex';
import { HOLD_FRAMES, HOLD_STILL_FRAMES, PERSON_MOVES, leavesBottom } from './leavingBottom';
import './messageList.css';

/**
 * The index of the first message loaded when the list opens. Virtuoso keeps a row where it is when the index of the
 * first row goes down by as many rows as were added above it; it must stay positive, so it starts well above any
 * channel's length.
 */
const FIRST_INDEX = 10_000_000;
/** A row's height before it is measured (a one-line message), so the first render needs no probe pass. */
const ROW_HEIGHT_GUESS = 64;
/** A page forward is asked for once the last row drawn is this close to the end of the window. */
const NEAR_END_ROWS = 10;
/** Within this distance of the bottom the list counts as at the bottom (and follows new messages). */
const AT_BOTTOM_PX = 48;
/**
 * Up to this many rows, the list is drawn whole in its first render and put at its bottom before it is painted:
 * the channel opens at its newest in the frame its first page lands. (Virtuoso's own start at the last row,
 * `initialTopMostItemIndex`, waits four animation frames before it scrolls; it is only used for a longer window.)
 */
const OPEN_WHOLE_MAX = 2 * MESSAGES_PAGE;

interface ListContext {
  /** The day of the first message, once it is the conversation's first (nothing older to load). */
  firstDay: string | null;
  hasMore: boolean;
}

/** Called after every render of the list's rows, before the browser paints (see Pin). Returns nothing. */
const RowsDrawn = createContext<() => void>(() => undefined);

const List = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<'div'> & { context?: ListContext }>(
  function List({ context: _context, ...props }, ref) {
    const drawn = useContext(RowsDrawn);
    useLayoutEffect(() => drawn());
    // An ordered list of messages (virtuoso types its list element as a div; an <ol> takes the same props).
    return (
      <ol
        {...(props as ComponentPropsWithoutRef<'ol'>)}
        ref={ref as unknown as Ref<HTMLOListElement>}
        className="messages__list"
      />
    );
  },
);

const components: Components<unknown, ListContext> = {
  List,
  Item: ({ children, item: _item, context: _context, ...props }) => (
    <li {...props} className="messages__row">
      {children}
    </li>
  ),
  // Where the conversation begins, once nothing older is left to load. (While there is, the list starts with its
  // first message: rows loaded above it then arrive out of view, where the list keeps its place as it measures them.)
  Header: ({ context }) =>
    context.hasMore ? null : (
      <>
        <p className="messages__start muted">This is the beginning of the conversation.</p>
        {context.firstDay !== null && (
          <h2 className="messages__day">
            <span>{context.firstDay}</span>
          </h2>
        )}
      </>
    ),
  Footer: () => <div className="messages__end" />,
};

/** The row at the top of the view (by its place in the list, which rows added above do not change) and its offset. */
interface Anchor {
  index: number;
  offset: number;
}

function topRow(scroller: HTMLElement | null): Anchor | null {
  if (!scroller) return null;
  const top = scroller.getBoundingClientRect().top;
  for (const row of scroller.querySelectorAll<HTMLElement>('.messages__row[data-item-index]')) {
    const box = row.getBoundingClientRect();
    if (box.bottom > top) return { index: Number(row.dataset.itemIndex), offset: box.top - top };
  }
  return null;
}

/** What makes the list's next scroll the person's (leavesBottom). */
const TOUCHES = [...PERSON_MOVES, 'touchmove'] as const;

/**
 * Keeps the row at the top of the view where it was when an older page is added above it. Virtuoso shifts the
 * list by its estimate of the new rows' heights; as they are measured the estimate is corrected, which may leave
 * the view off by the difference (seen when the page arrives while the person is at the very top). This notes the
 * top row just before the rows change (what getSnapshotBeforeUpdate is for) and, for a moment after, scrolls by
 * whatever it has moved; anything the person does to scroll ends it at once. (Rows let go from the top as newer
 * pages load need nothing: virtuoso has measured them, so it shifts the list by exactly their height.)
 */
export class KeepPlace extends Component<{
  firstItemIndex: number;
  /** The list's generation: a list started again (at the newest) has nothing to keep. */
  generation: number;
  scroller: () => HTMLElement | null;
  children: ReactNode;
}> {
  private frame = 0;
  private readonly stop = () => cancelAnimationFrame(this.frame);

  /**
   * Lets go of the place being kept: the list is taken elsewhere (the person asked for the newest, or the list
   * follows it). Kept, it would scroll the list back to the row it kept once that row is drawn again.
   */
  readonly release = () => {
    this.stop();
    this.listen(false);
  };

  override getSnapshotBeforeUpdate(previous: { firstItemIndex: number; generation: number }): Anchor | null {
    const { firstItemIndex, generation, scroller } = this.props;
    return generation === previous.generation && firstItemIndex < previous.firstItemIndex
      ? topRow(scroller())
      : null;
  }

  override componentDidUpdate(previous: { generation: number }, _state: unknown, anchor: Anchor | null) {
    // A list started again has other rows at the same places: what was kept is gone.
    if (previous.generation !== this.props.generation) this.release();
    if (anchor) this.hold(anchor);
  }

  override componentWillUnmount() {
    this.release();
  }

  private listen(on: boolean) {
    const scroller = this.props.scroller();
    for (const type of PERSON_MOVES) {
      if (on) scroller?.addEventListener(type, this.stop, { passive: true });
      else scroller?.removeEventListener(type, this.stop);
    }
  }

  private hold(anchor: Anchor) {
    this.stop();
    this.listen(true);
    const step = (frame: number, still: number) => {
      const scroller = this.props.scroller();
      const row = scroller?.querySelector(`.messages__row[data-item-index="${anchor.index}"]`);
      // Only a frame with the row in place counts as still (right after the change the list may show other rows).
      let next = still;
      if (scroller && row) {
        next = still + 1;
        const moved = row.getBoundingClientRect().top - scroller.getBoundingClientRect().top - anchor.offset;
        if (Math.abs(moved) >= 1) {
          scroller.scrollTop += moved;
          next = 0;
        }
      }
      if (frame < HOLD_FRAMES && next < HOLD_STILL_FRAMES) {
        this.frame = requestAnimationFrame(() => step(frame + 1, next));
      } else this.listen(false);
    };
    step(0, 0);
  }

  override render() {
    return this.props.children;
  }
}

/**
 * Holds a list that has just been drawn at its bottom: after each render of its rows (before the browser paints)
 * and each frame it scrolls to the end, until the person scrolls, touches, clicks or types in it, or it has stayed
 * put for a few frames. So the newest messages are on
 * screen in the frame the first page lands, whatever the rows' real heights turn out to be.
 */
class Pin {
  private active = true;
  private frame = 0;

  constructor(
    private readonly scroller: HTMLElement,
    /** Told each time it moves the list (it takes the list to its newest: see leavesBottom). */
    private readonly moved: () => void,
  ) {
    for (const type of PERSON_MOVES) scroller.addEventListener(type, this.stop, { passive: true });
    // Held frame by frame too (rows measured, images sized), until it has stayed put a few frames.
    let still = 0;
    const step = (frame: number) => {
      if (!this.active) return;
      still = this.hold() ? 0 : still + 1;
      if (frame < HOLD_FRAMES && still < HOLD_STILL_FRAMES) {
        this.frame = requestAnimationFrame(() => step(frame + 1));
      } else this.stop();
    };
    this.frame = requestAnimationFrame(() => step(0));
  }

  readonly stop = () => {
    this.active = false;
    cancelAnimationFrame(this.frame);
    for (const type of PERSON_MOVES) this.scroller.removeEventListener(type, this.stop);
  };

  /** Scrolls to the bottom of the rows; says whether it had to move (or could not tell yet). */
  hold(): boolean {
    const scroller = this.scroller;
    if (!this.active) return false;
    // To the end of the last row (and the footer after it), not of the scroller: before the rows are measured the
    // list is padded below them by its estimate of their heights.
    const last = scroller.querySelector('.messages__list')?.lastElementChild;
    if (!last) return true;
    const footer = scroller.querySelector('.messages__end')?.getBoundingClientRect().height ?? 0;
    const by = last.getBoundingClientRect().bottom + footer - scroller.getBoundingClientRect().bottom;
    if (Math.abs(by) < 1) return false;
    this.moved();
    scroller.scrollTop += by;
    return true;
  }
}

const NO_PENDING: OutboxEntry[] = [];

/** The message a conversation was opened at, marked (and focusable, so the keyboard and screen readers start there). */
function FocusMark({ focused, children }: { focused: boolean; children: ReactNode }) {
  if (!focused) return children;
  return (
    <div className="message-focus" tabIndex={-1}>
      {children}
    </div>
  );
}

/**
 * The message the conversation was opened at (conversationSlice `focus`): `pending` until the list has brought it
 * into view for this request (`seq`), then the list is the person's again. While pending, the list is not held at
 * its bottom (Pin): it scrolls to the message, and the keyboard's focus moves to it once it is drawn.
 */
function useFocus(
  conversation: Conversation | undefined,
  messages: readonly ChatMessage[],
  edges: {
    list: RefObject<VirtuosoHandle | null>;
    scroller: RefObject<HTMLElement | null>;
    pin: RefObject<Pin | null>;
    /** True while the message is brought into view: no Pin holds a list drawn meanwhile at its bottom. */
    holdingRef: RefObject<boolean>;
  },
) {
  const focus = conversation?.focus;
  const index = focus ? messages.findIndex((message) => message.id === focus.id) : -1;
  const seq = focus?.seq ?? 0;
  const [handled, setHandled] = useState(0);
  const pending = focus !== undefined && index >= 0 && handled !== seq;
  // While it is brought into view, pages forward do not pull the list down (followOutput).
  const { list, scroller, pin, holdingRef } = edges;
  useLayoutEffect(() => {
    if (!pending) return;
    holdingRef.current = true;
    pin.current?.stop();
    const element = scroller.current;
    let frame = 0;
    let still = 0;
    let id = 0;
    let moved = false;
    const personMoved = () => {
      moved = true;
    };
    for (const type of PERSON_MOVES) element?.addEventListener(type, personMoved, { passive: true });
    const release = () => {
      for (const type of PERSON_MOVES) element?.removeEventListener(type, personMoved);
    };
    // Frame by frame (rows measured, images sized), the message is kept in the middle of the view until it stays
    // put a few frames or the person moves the list; until it is drawn, the list is asked to scroll to it.
    const step = () => {
      const box = scroller.current;
      const mark = box?.querySelector<HTMLElement>('.message-focus');
      if (box && mark) {
        const at = mark.getBoundingClientRect();
        const view = box.getBoundingClientRect();
        const by = at.top + at.height / 2 - (view.top + view.height / 2);
        if (Math.abs(by) >= 1) {
          box.scrollTop += by;
          still = 0;
        } else still += 1;
        if (document.activeElement !== mark) mark.focus({ preventScroll: true });
      } else {
        list.current?.scrollToIndex({ index, align: 'center' });
        still = 0;
      }
      frame += 1;
      if (moved || still >= HOLD_STILL_FRAMES || frame >= HOLD_FRAMES) {
        release();
        holdingRef.current = false;
        setHandled(seq);
      } else id = requestAnimationFrame(step);
    };
    id = requestAnimationFrame(step);
    return () => {
      cancelAnimationFrame(id);
      release();
    };
  }, [pending, seq, index, list, scroller, pin, holdingRef]);
  return { id: focus?.id ?? null, index, pending };
}

/**
 * One message's row. Its own component, kept while its props are the same: a new message redraws its row and the
 * one before it (whose group or day may end), not every row in view (the live latency's largest part was that).
 */
const MessageRow = memo(function MessageRow({
  message,
  previous,
  next,
  divider,
  nextIsDivider,
  focused,
  uid,
  now,
  withFace,
}: {
  message: ChatMessage;
  previous: ChatMessage | undefined;
  next: ChatMessage | undefined;
  divider: boolean;
  nextIsDivider: boolean;
  focused: boolean;
  uid: string | null;
  now: number;
  withFace: (message: ChatMessage, grouped: boolean, bubble: ReactNode) => ReactNode;
}) {
  // What may change when an older page arrives (the day separator and the space between groups) goes at the
  // bottom of the row before: a row already in view keeps its height and place.
  const nextDay = next && startsDay(message, next) ? dayLabel(next.createdAt, now) : null;
  const endsGroup = !next || nextIsDivider || !continuesGroup(message, next);
  const grouped = !divider && continuesGroup(previous, message);
  return (
    <>
      {divider && (
        <p className="messages__unread">
          <span>New messages</span>
        </p>
      )}
      <FocusMark focused={focused}>
        {withFace(
          message,
          grouped,
          <MessageItem message={message} own={message.senderId === uid} now={now} grouped={grouped} />,
        )}
      </FocusMark>
      {nextDay !== null ? (
        <h2 className="messages__day">
          <span>{nextDay}</span>
        </h2>
      ) : (
        endsGroup && <div className="messages__gap" />
      )}
    </>
  );
});

export function MessageList({ channelId }: { channelId: string }) {
  const dispatch = useAppDispatch();
  const conversation = useAppSelector((state) => selectConversation(state, channelId));
  const view = useAppSelector((state) => selectConversationView(state, channelId));
  const messages = view.messages;
  const hasNewer = conversation?.hasNewer === true;
  // The outbox comes after the newest message: shown once the window reaches it.
  const pending = hasNewer ? NO_PENDING : view.pending;
  const openedUnread = useAppSelector((state) => selectOpenedUnread(state, channelId));
  const uid = useAppSelector(selectUid);
  const photos = useAppSelector((state) => selectChannelPhotos(state, channelId));
  const showsFaces = useAppSelector((state) => selectShowsFaces(state, channelId));
  /** Others' bubbles in a channel carry the sender's face (SenderFace.tsx); one's own and a consultation's do not. */
  const withFace = useCallback(
    (message: ChatMessage, grouped: boolean, bubble: ReactNode): ReactNode =>
      showsFaces && message.senderId !== uid ? (
        <WithSenderFace message={message} grouped={grouped} photoURL={photos[message.senderId]}>
          {bubble}
        </WithSenderFace>
      ) : (
        bubble
      ),
    [showsFaces, uid, photos],
  );
  const now = useNow(60_000);
  const virtuoso = useRef<VirtuosoHandle>(null);
  const scrollerElement = useRef<HTMLElement | null>(null);
  // A list drawn anew (opening, or starting again at the newest) is held at its bottom (see Pin).
  const pin = useRef<Pin | null>(null);
  // A conversation opened at a message (a search hit) shows it, not the bottom (see useFocus).
  const focusHolding = useRef(false);
  // Whether the list has been scrolled up, away from its bottom, since it was last there (the person reading
  // further up, or a jump they asked for): only then does leaving the bottom count (see onAtBottom). Rows arriving,
  // virtuoso settling its scroll to the newest and the browser moving a shrinking list up are not the person
  // (leavesBottom).
  const personMoved = useRef(false);
  const lastTop = useRef(0);
  const followedAt = useRef(0);
  const touchedAt = useRef(-Infinity);
  // What virtuoso last said of the bottom: a report of leaving it that came before the person's move counts then.
  const virtuosoAtBottom = useRef(true);
  const following = useRef(true);
  // Rows a page forward brought below the view: virtuoso keeps the row the person reads where it is (as the oldest
  // are let go it scrolls up by their height), so the list is off its bottom with the newer rows not drawn yet.
  // That is not a burst to follow: virtuoso's report of leaving the bottom stands then, and "Jump to latest" shows
  // until the person reaches the newest.
  const pagedBelow = useRef(false);
  const [atBottom, setAtBottom] = useState(true);
  const markFollowed = useCallback(() => {
    followedAt.current = performance.now();
  }, []);
  const markTouched = useCallback(() => {
    touchedAt.current = performance.now();
  }, []);
  const markPersonMoved = useCallback((event: Event) => {
    const element = event.currentTarget as HTMLElement;
    const now = performance.now();
    const step = {
      from: lastTop.current,
      to: element.scrollTop,
      max: element.scrollHeight - element.clientHeight,
      threshold: AT_BOTTOM_PX,
      sinceFollow: now - followedAt.current,
      sinceTouch: now - touchedAt.current,
    };
    lastTop.current = element.scrollTop;
    if (!leavesBottom(step)) return;
    personMoved.current = true;
    if (!virtuosoAtBottom.current && following.current) {
      following.current = false;
      setAtBottom(false);
    }
  }, []);
  const scrollerRef = useCallback(
    (element: HTMLElement | Window | null) => {
      scrollerElement.current?.removeEventListener('scroll', markPersonMoved);
      for (const type of TOUCHES) scrollerElement.current?.removeEventListener(type, markTouched);
      scrollerElement.current = element instanceof HTMLElement ? element : null;
      lastTop.current = scrollerElement.current?.scrollTop ?? 0;
      scrollerElement.current?.addEventListener('scroll', markPersonMoved, { passive: true });
      for (const type of TOUCHES) {
        scrollerElement.current?.addEventListener(type, markTouched, { passive: true });
      }
      pin.current?.stop();
      pin.current =
        element instanceof HTMLElement && !focusHolding.current ? new Pin(element, markFollowed) : null;
      pin.current?.hold();
    },
    [markPersonMoved, markTouched, markFollowed],
  );
  const focus = useFocus(conversation, messages, {
    list: virtuoso,
    scroller: scrollerElement,
    pin,
    holdingRef: focusHolding,
  });
  // The place kept as older pages land (KeepPlace) is let go whenever the list is taken to its newest.
  const keepPlace = useRef<KeepPlace>(null);
  const toNewest = useCallback(() => {
    pagedBelow.current = false;
    keepPlace.current?.release();
    markFollowed();
    virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end' });
  }, [markFollowed]);
  const rowsDrawn = useCallback(() => {
    pin.current?.hold();
  }, []);
  const getScroller = useCallback(() => scrollerElement.current, []);
  const loaded = conversation?.status === 'loaded';
  const newestId = messages.at(-1)?.id;
  const generation = conversation?.generation ?? 0;
  const totalCount = messages.length + pending.length;

  // A jump to a quoted message is the person's move, however long its pages took to come: the list stops following
  // the newest at once, before virtuoso reports it has left its bottom (a row resized or a page drawn at the end in
  // between would otherwise take it back there, followOutput), and nothing takes it to the newest while the jump
  // holds the original in view (focusHolding, as for a search hit). Leaving the bottom on the way counts (as after
  // their own scroll, markPersonMoved). The place kept as the jump's pages landed is let go: held, it would scroll
  // the list back to that row during the jump. Once the hold ends, the list follows again if it is at its bottom
  // after all (an original just above the reply): virtuoso reports no change then.
  const jumpedAway = useCallback(() => {
    pin.current?.stop();
    keepPlace.current?.release();
    personMoved.current = true;
    focusHolding.current = true;
    following.current = false;
    setAtBottom(false);
  }, []);
  const jumpLanded = useCallback(() => {
    focusHolding.current = false;
    const scroller = scrollerElement.current;
    if (!scroller) return;
    if (scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight > AT_BOTTOM_PX) return;
    personMoved.current = false;
    following.current = true;
    setAtBottom(true);
  }, []);
  const jumpMoves = useMemo(
    () => ({ away: jumpedAway, landed: jumpLanded, scroller: () => scrollerElement.current }),
    [jumpedAway, jumpLanded],
  );
  useQuoteJump(channelId, messages, virtuoso, jumpMoves);

  // Opening (and starting again at the newest): a short window is drawn whole in the list's first render, and the
  // list is held at its bottom until the person moves it (see Pin). Decided once per list, as it is first drawn.
  const [opening, setOpening] = useState<{ generation: number; whole: boolean } | null>(null);
  if (totalCount > 0 && opening?.generation !== generation) {
    setOpening({ generation, whole: totalCount <= OPEN_WHOLE_MAX });
  }
  const openWhole = opening?.whole === true && !focus.pending;

  // The "New messages" divider: fixed when the conversation is first shown (how many were unread, up to the newest
  // message then), so it stays where it was while the person reads, until they leave the channel. Once found it
  // stays on that message.
  const [unreadAt, setUnreadAt] = useState<{ unread: number; until: string } | null | undefined>(undefined);
  if (unreadAt === undefined && loaded && openedUnread !== null && newestId !== undefined) {
    setUnreadAt(openedUnread > 0 ? { unread: openedUnread, until: newestId } : null);
  }
  const [foundDivider, setFoundDivider] = useState<string | null>(null);
  const searchedDivider = useMemo(
    () =>
      unreadAt && foundDivider === null
        ? firstUnreadId(messages, unreadAt.unread, uid, unreadAt.until)
        : null,
    [messages, unreadAt, uid, foundDivider],
  );
  if (searchedDivider !== null && foundDivider === null) setFoundDivider(searchedDivider);
  const dividerId = foundDivider ?? searchedDivider;

  // At the bottom (following new messages, atBottom) or reading further up: the slice counts what arrives meanwhile.
  // Rows arriving faster than virtuoso scrolls after them (a burst) put the list off its bottom for a moment, and
  // virtuoso then reports it so and stops following. That is not the person leaving: the list keeps following
  // until they move it themselves (or it is brought to a message, useFocus).
  // The slice keeps the first message's place as pages are added above and let go below (see letGo).
  const firstItemIndex = useFollowedFirstIndex(
    FIRST_INDEX + (conversation?.firstIndex ?? 0),
    generation,
    atBottom && !hasNewer,
  );
  const onAtBottom = useCallback((bottom: boolean) => {
    virtuosoAtBottom.current = bottom;
    if (bottom) {
      personMoved.current = false;
      pagedBelow.current = false;
    }
    if (!bottom && !personMoved.current && !pagedBelow.current && !focusHolding.current) return;
    following.current = bottom;
    setAtBottom(bottom);
  }, []);
  useEffect(() => {
    if (!loaded) return;
    if (atBottom && !hasNewer) dispatch(latestReached({ channelId }));
    else if (!atBottom) dispatch(scrollBackStarted({ channelId }));
  }, [dispatch, channelId, loaded, atBottom, hasNewer]);
  const newCount = conversation?.unseen?.length ?? 0;

  // A message the person just sent always brings them to the bottom (the newest page first, if it was let go);
  // others only when they are there already.
  const sentCount = useRef(view.pending.length);
  const justSent = useRef(false);
  useLayoutEffect(() => {
    if (view.pending.length > sentCount.current) {
      justSent.current = true;
      if (hasNewer) dispatch(messagesRequested({ channelId }));
      else toNewest();
    }
    sentCount.current = view.pending.length;
  }, [view.pending.length, hasNewer, dispatch, channelId, toNewest]);
  // Following: each new newest message holds the list at its bottom again (see Pin). Virtuoso follows only when the
  // row count grows, and a full window keeps its count as it lets its oldest go, so it alone would stop following.
  // A new newest that a page forward brought (the window did not reach the newest before it, in the same list) is
  // not followed: the person reads on down to it.
  const followedNewest = useRef({ newestId, hasNewer, generation });
  useLayoutEffect(() => {
    const before = followedNewest.current;
    followedNewest.current = { newestId, hasNewer, generation };
    if (newestId === before.newestId) return;
    pagedBelow.current = before.hasNewer && before.generation === generation;
    if (pagedBelow.current) {
      // Virtuoso may have reported the list off its bottom already (then dropped as no move of the person's).
      if (!virtuosoAtBottom.current && following.current) {
        following.current = false;
        setAtBottom(false);
      }
      return;
    }
    if (!following.current || focusHolding.current || hasNewer) return;
    toNewest();
  }, [newestId, hasNewer, generation, toNewest]);
  const followOutput = useCallback(
    (bottom: boolean) => {
      const follow = ((bottom || following.current) && !focusHolding.current) || justSent.current;
      justSent.current = false;
      if (follow) markFollowed();
      return follow ? 'auto' : false;
    },
    [focusHolding, markFollowed],
  );

  // The day of the message at the top of the view, floating over the list while it scrolls (drawn alone: DayFloat).
  const [dayFloat] = useState(() => new DayFloat());
  useLayoutEffect(() => {
    dayFloat.readFrom(() => {
      const id = topMessageId(scrollerElement.current);
      const message = id === null ? undefined : messages.find((held) => held.id === id);
      return message ? dayLabel(message.createdAt, now) : null;
    });
  }, [dayFloat, messages, now]);
  // The last row drawn: near the end of a window that does not reach the newest, the next page forward is asked
  // for. (Virtuoso's endReached fires once per last index, and a window that keeps its size keeps its last index.)
  // Kept only while there is a newer page: at the newest, each message arriving moves the range, and a state that
  // changed with it drew the whole list a second time per message, before the browser could paint the first.
  const [lastDrawn, setLastDrawn] = useState<number | null>(null);
  const onRange = useCallback(
    (range: ListRange) => {
      dayFloat.moved();
      setLastDrawn(hasNewer ? range.endIndex : null);
    },
    [hasNewer, dayFloat],
  );

  const hasMore = conversation?.hasMore === true;
  const loadingOlder = conversation?.loadingOlder === true;
  const loadingNewer = conversation?.loadingNewer === true;
  const loadOlder = useCallback(() => dispatch(olderRequested({ channelId })), [dispatch, channelId]);
  const first = messages[0];
  const firstDay = !hasMore && first ? dayLabel(first.createdAt, now) : null;
  const context = useMemo(() => ({ firstDay, hasMore }), [firstDay, hasMore]);
  const [atTop, setAtTop] = useState(false);
  const onStartReached = useCallback(() => {
    if (hasMore && !loadingOlder) loadOlder();
  }, [hasMore, loadingOlder, loadOlder]);
  // Reaching the top asks for older messages each time. Virtuoso's startReached fires once per first row: after
  // pages forward have let the oldest go, the person back at the top may be on a first row it reported before, and no
  // older page would come. (Asked for twice at once, the saga takes the first; a failed page is not asked for again
  // until the person leaves the top and comes back.)
  const startReached = useRef(onStartReached);
  useLayoutEffect(() => {
    startReached.current = onStartReached;
  }, [onStartReached]);
  // Not while the list is being brought to a message (a quote's original, a search hit): a page landing above it
  // would move it again.
  const jumping = useAppSelector((state) => selectQuoteJump(state)?.channelId === channelId);
  const focusPending = focus.pending;
  const bringing = useRef(false);
  useLayoutEffect(() => {
    bringing.current = jumping || focusPending;
  }, [jumping, focusPending]);
  const onAtTop = useCallback((top: boolean) => {
    setAtTop(top);
    if (top && !bringing.current) startReached.current();
  }, []);
  const nearEnd = lastDrawn !== null && lastDrawn >= firstItemIndex + messages.length - NEAR_END_ROWS;
  useEffect(() => {
    if (hasNewer && !loadingNewer && nearEnd && !focusPending) dispatch(newerRequested({ channelId }));
  }, [hasNewer, loadingNewer, nearEnd, focusPending, dispatch, channelId]);
  const jumpToLatest = useCallback(() => {
    if (hasNewer) dispatch(messagesRequested({ channelId }));
    else toNewest();
  }, [hasNewer, dispatch, channelId, toNewest]);

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
      const next = messages[i + 1];
      return (
        <MessageRow
          message={message}
          previous={messages[i - 1]}
          next={next}
          divider={message.id === dividerId}
          nextIsDivider={next !== undefined && next.id === dividerId}
          focused={message.id === focus.id}
          uid={uid}
          now={now}
          withFace={withFace}
        />
      );
    },
    [messages, pending, firstItemIndex, dividerId, uid, now, focus.id, withFace],
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
      {hasMore && (
        // Paging back without scrolling (a keyboard, a screen reader): over the list's top, shown there when the
        // list is at its top, and otherwise only when focused.
        <div className={atTop || loadingOlder ? 'messages__older' : 'messages__older messages__older--idle'}>
          <button
            type="button"
            className="button button--quiet button--small"
            disabled={loadingOlder}
            onClick={loadOlder}
          >
            {loadingOlder ? 'Loading earlier messages…' : 'Show earlier messages'}
          </button>
        </div>
      )}
      <RowsDrawn.Provider value={rowsDrawn}>
        <KeepPlace
          ref={keepPlace}
          firstItemIndex={firstItemIndex}
          generation={generation}
          scroller={getScroller}
        >
          <Virtuoso
            ref={virtuoso}
            scrollerRef={scrollerRef}
            className="messages__scroller"
            role="region"
            aria-label="Messages"
            context={context}
            components={components}
            key={generation}
            totalCount={totalCount}
            firstItemIndex={firstItemIndex}
            {...(focus.pending
              ? { initialTopMostItemIndex: { index: focus.index, align: 'center' } as const }
              : openWhole
                ? { initialItemCount: totalCount }
                : { initialTopMostItemIndex: { index: 'LAST', align: 'end' } as const })}
            alignToBottom
            skipAnimationFrameInResizeObserver
            defaultItemHeight={ROW_HEIGHT_GUESS}
            increaseViewportBy={{ top: 800, bottom: 200 }}
            computeItemKey={itemKey}
            itemContent={itemContent}
            followOutput={followOutput}
            atBottomThreshold={AT_BOTTOM_PX}
            atBottomStateChange={onAtBottom}
            startReached={onStartReached}
            atTopStateChange={onAtTop}
            rangeChanged={onRange}
            isScrolling={dayFloat.scrolling}
          />
        </KeepPlace>
      </RowsDrawn.Provider>
      <FloatingDay float={dayFloat} atTop={atTop} />
      {(!atBottom || hasNewer) && (
        <button type="button" className="messages__jump button button--small" onClick={jumpToLatest}>
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
