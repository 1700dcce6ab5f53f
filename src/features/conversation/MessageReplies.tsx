// Replies and reactions in a bubble, and the reply above the composer. ReplyQuoteView is the quote a reply shows
// (core/replies.ts quoteShown: the original as this window holds it, "Deleted message" once deleted); pressing it
// jumps to the original, paging back for it if needed, and highlights it. MessageReactions are the counts under a
// bubble (each a toggle of one's own reaction, its label naming who reacted) with Reply and React for the
// message; ReplyBar says what the next message answers, with a way to cancel (also Escape in the composer).
import { useEffect, useRef, useState } from 'react';
import { shallowEqual } from 'react-redux';
import type { RefObject } from 'react';
import type { VirtuosoHandle } from 'react-virtuoso';
import type { ChatMessage } from '@core/model';
import { countReactions, REACTION_NAMES, REACTIONS, toggledReaction } from '@core/reactions';
import type { Reaction } from '@core/reactions';
import { quoteOf, quoteShown } from '@core/replies';
import type { ReplyQuote } from '@core/replies';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectConversation } from '@/store/conversationSlice';
import { membersRequested, selectCurrentName, selectMembers } from '@/store/membersSlice';
import { selectUid } from '@/store/userSlice';
import { formatFullTime } from '@/ui/time';
import {
  quoteJumpFinished,
  quoteJumpRequested,
  quoteJumpUnreached,
  reactionErrorDismissed,
  reactionRequested,
  replyCancelled,
  replyStarted,
  selectQuoteJump,
  selectReactionError,
  selectReplyingTo,
} from './repliesSlice';
import { HOLD_FRAMES, HOLD_STILL_FRAMES, PERSON_MOVES } from './leavingBottom';
import './replies.css';

/** How long a jumped-to message stays highlighted. */
const HIGHLIGHT_MS = 2000;
/** How many frames a jump looks for the quoted bubble to be drawn (some three seconds). */
const JUMP_FRAMES = 180;

/** The original of a quote as this window holds it, if it does. */
function useOriginal(channelId: string, messageId: string): ChatMessage | undefined {
  return useAppSelector((state) =>
    selectConversation(state, channelId)?.messages.find((message) => message.id === messageId),
  );
}

/** The quote a reply shows; pressing it goes to the original. */
export function ReplyQuoteView({ message }: { message: ChatMessage }) {
  const dispatch = useAppDispatch();
  const quote = message.replyTo;
  const original = useOriginal(message.channelId, quote?.id ?? '');
  const jump = useAppSelector(selectQuoteJump);
  if (!quote || message.deleted) return null;
  const shown = quoteShown(quote, original);
  const missing = jump?.status === 'missing' && jump.messageId === quote.id;
  const unreached = jump?.status === 'unreached' && jump.messageId === quote.id;
  return (
    <>
      <button
        type="button"
        className={`reply-quote${shown.deleted ? ' reply-quote--deleted' : ''}`}
        onClick={() => dispatch(quoteJumpRequested({ channelId: message.channelId, messageId: quote.id }))}
      >
        <span className="reply-quote__sender" dir="auto">
          <span className="visually-hidden">In reply to </span>
          {shown.senderName}
        </span>
        <span className="reply-quote__text" dir="auto">
          {shown.text}
          <span className="visually-hidden"> (show that message)</span>
        </span>
      </button>
      {missing && (
        <p className="muted reply-quote__missing" role="status">
          That message is no longer in this conversation.
        </p>
      )}
      {unreached && (
        <p className="muted reply-quote__missing" role="status">
          That message could not be shown just now. Press the quote to try again.
        </p>
      )}
    </>
  );
}

const NO_NAMES: Readonly<Record<string, string>> = {};
const NO_UIDS: readonly string[] = [];

/**
 * Who reacted, in words: "You", members' names, else the name beside their messages here. Only the names of
 * `uids` are listened to (compared by value): a message arriving in the channel redraws no bubble's reactions.
 */
function useNamesOf(channelId: string, uids: readonly string[]): (uid: string) => string {
  const names = useAppSelector((state) => {
    if (uids.length === 0) return NO_NAMES;
    const uid = selectUid(state);
    const messages = selectConversation(state, channelId)?.messages;
    const named: Record<string, string> = {};
    for (const who of uids) {
      named[who] =
        who === uid
          ? 'You'
          : (selectCurrentName(state, channelId, who) ??
            messages?.find((message) => message.senderId === who)?.senderName ??
            'Someone');
    }
    return named;
  }, shallowEqual);
  return (who) => names[who] ?? 'Someone';
}

function listNames(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

/** The counts under a bubble, Reply and React. */
export function MessageReactions({ message }: { message: ChatMessage }) {
  const dispatch = useAppDispatch();
  const uid = useAppSelector(selectUid) ?? '';
  const members = useAppSelector((state) => selectMembers(state, message.channelId));
  const error = useAppSelector((state) => selectReactionError(state, message.id));
  const nameOf = useNamesOf(message.channelId, message.reactions ? Object.keys(message.reactions) : NO_UIDS);
  const [picking, setPicking] = useState(false);
  const [showWho, setShowWho] = useState(false);
  const pickerRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (picking) pickerRef.current?.querySelector('button')?.focus();
  }, [picking]);
  // Names come from the channel's members, read once someone asks who reacted.
  useEffect(() => {
    if (showWho && !members) dispatch(membersRequested({ channelId: message.channelId }));
  }, [showWho, members, dispatch, message.channelId]);
  if (message.deleted) return null;

  const mine = message.reactions?.[uid];
  const react = (emoji: Reaction) => {
    setPicking(false);
    dispatch(
      reactionRequested({
        channelId: message.channelId,
        messageId: message.id,
        emoji: toggledReaction(mine, emoji),
      }),
    );
  };
  const counts = countReactions(message.reactions);
  // Each bubble's Reply and React are told apart by whose message and when (unique names on a screen).
  const about = `${message.senderName || 'a'} message from ${formatFullTime(message.createdAt)}`;
  const quoted = quoteOf(message.channelId, message);
  const reply = () => {
    if (quoted.ok) dispatch(replyStarted({ channelId: message.channelId, quote: quoted.quote }));
  };

  return (
    <div className="reactions">
      {counts.length > 0 && (
        <ul className="reactions__counts" aria-label="Reactions">
          {counts.map(({ emoji, uids }) => {
            const names = listNames(uids.map(nameOf));
            const own = uids.includes(uid);
            return (
              <li key={emoji}>
                <button
                  type="button"
                  className={`reactions__count${own ? ' reactions__count--own' : ''}`}
                  aria-pressed={own}
                  aria-label={`${REACTION_NAMES[emoji]}, ${uids.length}: ${names}. ${own ? 'Take yours back' : 'Add yours'}.`}
                  title={names}
                  onClick={() => react(emoji)}
                >
                  <span aria-hidden="true">{emoji}</span> {uids.length}
                </button>
              </li>
            );
          })}
          <li>
            <button
              type="button"
              className="reactions__who button--quiet"
              aria-expanded={showWho}
              onClick={() => setShowWho((open) => !open)}
            >
              Who reacted
            </button>
          </li>
        </ul>
      )}
      {showWho && counts.length > 0 && (
        <ul className="reactions__names">
          {counts.map(({ emoji, uids }) => (
            <li key={emoji}>
              <span aria-label={REACTION_NAMES[emoji]}>{emoji}</span> {listNames(uids.map(nameOf))}
            </li>
          ))}
        </ul>
      )}
      <div className="message__tools reactions__tools">
        <button
          type="button"
          className="button button--small button--quiet"
          aria-label={`Reply to ${about}`}
          onClick={reply}
        >
          Reply
        </button>
        <button
          type="button"
          className="button button--small button--quiet"
          aria-label={`React to ${about}`}
          aria-expanded={picking}
          onClick={() => setPicking((open) => !open)}
        >
          React
        </button>
      </div>
      {picking && (
        <div
          ref={pickerRef}
          className="reactions__picker"
          role="group"
          aria-label="Choose a reaction"
          onKeyDown={(event) => {
            if (event.key === 'Escape') setPicking(false);
          }}
        >
          {REACTIONS.map((emoji) => (
            <button
              key={emoji}
              type="button"
              className="reactions__choice"
              aria-label={REACTION_NAMES[emoji]}
              aria-pressed={mine === emoji}
              onClick={() => react(emoji)}
            >
              {emoji}
            </button>
          ))}
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {`The reaction couldn't be saved. ${error}`}{' '}
          <button
            type="button"
            className="button button--small button--quiet"
            onClick={() => dispatch(reactionErrorDismissed({ messageId: message.id }))}
          >
            OK
          </button>
        </p>
      )}
    </div>
  );
}

/** What the next message answers, above the composer; Cancel (or Escape in the composer) drops it. */
export function ReplyBar({ channelId }: { channelId: string }) {
  const dispatch = useAppDispatch();
  const quote = useAppSelector((state) => selectReplyingTo(state, channelId));
  const bar = useRef<HTMLDivElement>(null);
  const quoteId = quote?.id;
  useEffect(() => {
    if (quoteId) bar.current?.closest('form')?.querySelector('textarea')?.focus();
  }, [quoteId]);
  if (!quote) return null;
  return (
    <div ref={bar} className="reply-bar" role="status">
      <p className="reply-bar__quote">
        <span className="reply-bar__label">Replying to </span>
        <span className="reply-quote__sender" dir="auto">
          {quote.senderName}
        </span>
        <span className="reply-quote__text" dir="auto">
          {quote.snippet}
        </span>
      </p>
      <button
        type="button"
        className="button button--small button--quiet"
        onClick={() => dispatch(replyCancelled({ channelId }))}
        aria-label={`Cancel the reply to ${quote.senderName}`}
      >
        Cancel
      </button>
    </div>
  );
}

/** The quote the composer sends with its next message, if any. */
export function useReplyingTo(channelId: string): ReplyQuote | undefined {
  return useAppSelector((state) => selectReplyingTo(state, channelId));
}

/** What the list does as a jump starts and once the original is held in view (MessageList). */
export interface JumpMoves {
  /** The person has left the list's bottom: it must not follow the newest while the jump scrolls and holds. */
  away: () => void;
  /** The hold has ended: the list may be at its bottom after all (an original just above the reply). */
  landed: () => void;
  /** The list's scroller, where the person's own moves end a hold. */
  scroller: () => HTMLElement | null;
}

/**
 * Holds the bubble of `messageId` in the middle of the view, frame by frame, until it has stayed put a few frames or
 * the person moves the list (rows measured after the jump's scroll, a page's rows settling, would otherwise move it
 * away: CI saw the original highlighted, then the view back at the bottom). Highlighted meanwhile and for a moment
 * after. Answers a stop, for a new jump or the list going.
 */
function holdInView(
  messageId: string,
  scroller: HTMLElement | null,
  bringBack: () => void,
  done: () => void,
): () => void {
  const find = () => document.querySelector<HTMLElement>(`[data-message-id="${messageId}"]`);
  let frame = 0;
  let still = 0;
  let frames = 0;
  let ended = false;
  let highlighted: HTMLElement | null = null;
  let unhighlight: ReturnType<typeof setTimeout> | undefined;
  const unmark = () => {
    for (const element of [find(), highlighted]) if (element) delete element.dataset.highlight;
  };
  const end = () => {
    if (ended) return;
    ended = true;
    cancelAnimationFrame(frame);
    for (const type of PERSON_MOVES) scroller?.removeEventListener(type, end);
    done();
  };
  for (const type of PERSON_MOVES) scroller?.addEventListener(type, end, { passive: true });
  const step = () => {
    const bubble = find();
    if (bubble && bubble !== highlighted) {
      // Drawn anew (the row re-rendered): the highlight and the focus go with the new element. An attribute React
      // does not own: a render of the bubble rewrites its class list (grouped with the one above, say).
      if (highlighted) delete highlighted.dataset.highlight;
      bubble.dataset.highlight = 'on';
      if (highlighted === null) bubble.focus({ preventScroll: true });
      highlighted = bubble;
    }
    const view = scroller?.getBoundingClientRect();
    const box = bubble?.getBoundingClientRect();
    const by = view && box ? box.top + box.height / 2 - (view.top + view.height / 2) : 0;
    if (!bubble) {
      // Taken so far away that its row is no longer drawn: asked for again.
      if (frames % 10 === 0) bringBack();
      still = 0;
    } else if (Math.abs(by) > (view?.height ?? 0) / 4) {
      bubble.scrollIntoView({ block: 'center' });
      still = 0;
    } else still += 1;
    frames += 1;
    if (frames < HOLD_FRAMES && still < HOLD_STILL_FRAMES) frame = requestAnimationFrame(step);
    else end();
  };
  step();
  unhighlight = setTimeout(() => {
    unhighlight = undefined;
    unmark();
  }, HIGHLIGHT_MS);
  return () => {
    end();
    if (unhighlight !== undefined) clearTimeout(unhighlight);
    unmark();
  };
}

/**
 * The list's part of a jump: once the quoted message is among those loaded, scroll it into the middle of the view,
 * then highlight, focus and hold it there for a moment (holdInView). If the list does not draw it in some three
 * seconds of frames, the quote says so (the person may press it again) rather than nothing happening.
 */
export function useQuoteJump(
  channelId: string,
  messages: readonly ChatMessage[],
  virtuoso: RefObject<VirtuosoHandle | null>,
  moves: JumpMoves,
): void {
  const dispatch = useAppDispatch();
  const jump = useAppSelector(selectQuoteJump);
  const target = jump?.status === 'found' && jump.channelId === channelId ? jump.messageId : null;
  const index = target === null ? -1 : messages.findIndex((message) => message.id === target);
  const { away, landed, scroller } = moves;
  // The hold outlives the jump's state (finished as the original is found): stopped by the next jump or unmount.
  const holding = useRef<(() => void) | null>(null);
  useEffect(() => () => holding.current?.(), []);
  const held = useRef(messages);
  useEffect(() => {
    held.current = messages;
  }, [messages]);
  useEffect(() => {
    if (target === null || index < 0) return;
    holding.current?.();
    holding.current = null;
    away();
    let frames = 0;
    let frame = 0;
    // Virtuoso's index counts from the first item held (not its firstItemIndex). The row is drawn some frames
    // after the scroll (heights were guesses until then), and a page just added above may move the list once
    // more: asked again every few frames until the bubble is there.
    let handedOver = false;
    const bringBack = () => {
      const at = held.current.findIndex((message) => message.id === target);
      if (at >= 0) virtuoso.current?.scrollToIndex({ index: at, align: 'center' });
    };
    const step = () => {
      if (!document.querySelector(`[data-message-id="${target}"]`)) {
        if (frames % 10 === 0) bringBack();
        frames += 1;
        if (frames < JUMP_FRAMES) frame = requestAnimationFrame(step);
        else {
          handedOver = true;
          landed();
          dispatch(quoteJumpUnreached({ messageId: target }));
        }
        return;
      }
      handedOver = true;
      holding.current = holdInView(target, scroller(), bringBack, landed);
      dispatch(quoteJumpFinished());
    };
    frame = requestAnimationFrame(step);
    return () => {
      cancelAnimationFrame(frame);
      // A jump given up before it landed (another quote pressed, the list gone) lets the list follow again.
      if (!handedOver) landed();
    };
  }, [target, index, virtuoso, dispatch, away, landed, scroller]);
}
