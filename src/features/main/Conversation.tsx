// One channel's conversation: its messages (live, with sender names and times, paging back through history as
// the person scrolls up), then the person's messages still on their way out (the outbox: "Sending…", "Not sent"
// with Retry and Delete), the service banner when they can neither message nor own the channel (spec §2), and
// the composer, whose draft is kept per channel. New messages from others are announced to screen readers.
import { Suspense, lazy, memo, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { LIMITS } from '@core/limits';
import { checkMessageText } from '@core/messageText';
import type { ChatMessage } from '@core/model';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectChannelPermissions, selectOverview, selectShowServiceBanner } from '@/store/channelsSlice';
import { selectUid } from '@/store/userSlice';
import { MessageText } from '@/ui/MessageText';
import { formatFullTime, formatMessageTime, useNow } from '@/ui/time';
import {
  messagesRequested,
  olderRequested,
  selectConversation,
  selectConversationView,
} from '@/store/conversationSlice';
import { ReconnectingStatus } from './LiveNotices';
import {
  draftChanged,
  messageSendRequested,
  outboxDeleteRequested,
  outboxRetryRequested,
  selectDraft,
} from '@/store/outboxSlice';
import type { OutboxEntry } from '@/store/outboxSlice';

// A consultant's tools load only when a channel's owner opens them, so the home screen's chunk stays small.
const ManagePanel = lazy(() =>
  import(/* webpackChunkName: "consultant-tools" */ './ManagePanel').then((m) => ({
    default: m.ManagePanel,
  })),
);

/** What is wrong with a message before it is sent, in words, or null (the server checks the same). */
export function checkMessage(text: string): string | null {
  const checked = checkMessageText(text);
  if (checked.ok) return null;
  if (checked.problem === 'empty') return 'Write a message first.';
  return `A message can be at most ${LIMITS.messageMax.toLocaleString('en')} characters; this one has ${checked.length.toLocaleString('en')}.`;
}

function ServiceBanner() {
  return (
    <div className="service-banner" role="status">
      <strong>You can read this channel but not write in it.</strong> Only its consultant and members can send
      messages here. Ask the consultant for an invitation to join.
    </div>
  );
}

function Composer({ channelId, blocked }: { channelId: string; blocked: boolean }) {
  const dispatch = useAppDispatch();
  const text = useAppSelector((state) => selectDraft(state, channelId));
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();

  // Sending never waits: the message joins the outbox (shown at once as pending) and the box is free again.
  const submit = (event?: FormEvent): void => {
    event?.preventDefault();
    if (blocked) return;
    const issue = checkMessage(text);
    setProblem(issue);
    if (!issue) dispatch(messageSendRequested({ channelId, text: text.trim() }));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    // Enter sends, Shift+Enter starts a new line (and IME composition is left alone).
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };
  const length = text.trim().length;
  return (
    <form className="composer" onSubmit={submit} aria-label="Send a message">
      <label htmlFor={id} className="visually-hidden">
        Message
      </label>
      <textarea
        id={id}
        rows={2}
        value={text}
        disabled={blocked}
        placeholder={blocked ? 'Only members can write here' : 'Write a message'}
        onChange={(e) => {
          dispatch(draftChanged({ channelId, text: e.target.value }));
          if (problem) setProblem(null);
        }}
        onKeyDown={onKeyDown}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-error` : undefined}
      />
      <button type="submit" className="button button--primary" disabled={blocked}>
        Send
      </button>
      {length > LIMITS.messageMax - 500 && (
        <p className={length > LIMITS.messageMax ? 'composer__count form-error' : 'composer__count muted'}>
          {length.toLocaleString('en')} / {LIMITS.messageMax.toLocaleString('en')}
        </p>
      )}
      {problem && (
        <p className="form-error composer__error" role="alert" id={`${id}-error`}>
          {problem}
        </p>
      )}
    </form>
  );
}

const MessageItem = memo(function MessageItem({
  message,
  own,
  now,
}: {
  message: ChatMessage;
  own: boolean;
  now: number;
}) {
  return (
    <li className={own ? 'message message--own' : 'message'}>
      <p className="message__meta">
        <span className="message__sender">{own ? 'You' : message.senderName}</span>
        <time dateTime={new Date(message.createdAt).toISOString()} title={formatFullTime(message.createdAt)}>
          {formatMessageTime(message.createdAt, now)}
        </time>
      </p>
      <p className="message__text">
        <MessageText text={message.text} />
      </p>
    </li>
  );
});

/** One of the person's messages on its way out: sending, waiting for the network, or refused. */
function PendingItem({ entry }: { entry: OutboxEntry }) {
  const dispatch = useAppDispatch();
  const refused = entry.status === 'refused';
  const state = refused
    ? 'Not sent'
    : entry.status === 'queued' && entry.error
      ? 'Waiting to send…'
      : 'Sending…';
  return (
    <li
      className={refused ? 'message message--own message--refused' : 'message message--own message--pending'}
    >
      <p className="message__meta">
        <span className="message__sender">You</span>
        <span className="message__state" role={refused ? 'alert' : undefined}>
          {state}
        </span>
      </p>
      <p className="message__text">
        <MessageText text={entry.text} />
      </p>
      {refused && (
        <div className="message__problem">
          {entry.error && <p className="form-error">{entry.error}</p>}
          <div className="message__actions">
            <button
              type="button"
              className="button button--small"
              onClick={() => dispatch(outboxRetryRequested({ id: entry.id }))}
            >
              Retry
            </button>
            <button
              type="button"
              className="button button--small button--quiet"
              onClick={() => dispatch(outboxDeleteRequested({ id: entry.id }))}
            >
              Delete
            </button>
          </div>
        </div>
      )}
    </li>
  );
}

function MessageList({ channelId }: { channelId: string }) {
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

/**
 * Announces the newest message from others once it arrives (not the history the channel opened with). Mounted
 * once the conversation has loaded, so the last message at that moment is history. Derived while rendering: no
 * state is set from an effect (a burst must not cost a second render per message).
 */
function Announcer({ channelId }: { channelId: string }) {
  const messages = useAppSelector((state) => selectConversation(state, channelId)?.messages);
  const uid = useAppSelector(selectUid);
  const last = messages?.[messages.length - 1];
  const [historyEnd] = useState(() => last?.id ?? null);
  const said =
    last && last.id !== historyEnd && last.senderId !== uid
      ? `${last.senderName}: ${last.text.slice(0, 200)}`
      : '';
  return (
    <p className="visually-hidden" aria-live="polite">
      {said}
    </p>
  );
}

export function Conversation({ channelId }: { channelId: string }) {
  const dispatch = useAppDispatch();
  // The channel alone (not the overview, which changes with every message): a live message re-renders the list,
  // not the whole conversation.
  const channel = useAppSelector(
    (state) => selectOverview(state).find((o) => o.channel.id === channelId)?.channel,
  );
  const permissions = useAppSelector((state) => selectChannelPermissions(state, channelId));
  const banner = useAppSelector((state) => selectShowServiceBanner(state, channelId));
  const known = useAppSelector((state) => selectConversation(state, channelId) !== undefined);
  const loaded = useAppSelector((state) => selectConversation(state, channelId)?.status === 'loaded');
  const [managing, setManaging] = useState(false);

  useEffect(() => {
    if (!known) dispatch(messagesRequested({ channelId }));
  }, [dispatch, channelId, known]);

  const isOwner = permissions?.isOwner === true;
  return (
    <section className="conversation" aria-labelledby="conversation-title">
      <header className="conversation__head">
        <Link className="conversation__back" to="/">
          ‹ Channels
        </Link>
        <div className="conversation__title">
          <h2 id="conversation-title">{channel?.title ?? 'Channel'}</h2>
          {channel?.description && <p className="muted">{channel.description}</p>}
          <ReconnectingStatus />
        </div>
        {isOwner && (
          <button
            type="button"
            className="button button--small"
            aria-expanded={managing}
            onClick={() => setManaging((open) => !open)}
          >
            {managing ? 'Close' : 'Manage'}
          </button>
        )}
      </header>
      {managing && isOwner && channel ? (
        <Suspense
          fallback={
            <p className="muted" role="status">
              Loading…
            </p>
          }
        >
          <ManagePanel channel={channel} />
        </Suspense>
      ) : (
        <>
          {banner && <ServiceBanner />}
          <MessageList channelId={channelId} />
          {loaded && <Announcer channelId={channelId} />}
          <Composer channelId={channelId} blocked={banner} />
        </>
      )}
    </section>
  );
}
