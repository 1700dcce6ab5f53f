// Searching messages (core/search.ts): a field and the hits, newest first, each with its channel, sender and time,
// and its text with the searched words marked — the text split into pieces (core/search.ts highlightPieces) and
// the matched ones wrapped in <mark>, as text, never as HTML. Each hit is a link that opens its channel at the
// message (core/paths.ts messagePath), so Tab and Enter reach and open them; Escape in the field clears it. In the
// channel list (every channel of the person's) and in a conversation's header (that channel).
import { useId, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { cursorOf, encodeCursor } from '@core/messages';
import type { ChatMessage } from '@core/model';
import { messagePath } from '@core/paths';
import { channelDisplayName } from '@core/privateChannels';
import { checkSearchText, highlightPieces, SEARCH_TEXT_MAX } from '@core/search';
import type { TextPiece } from '@core/search';
import { selectOverview } from '@/store/channelsSlice';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectUid } from '@/store/userSlice';
import { formatFullTime, formatMessageTime, useNow } from '@/ui/time';
import {
  ALL_CHANNELS,
  searchCleared,
  searchMoreRequested,
  searchRequested,
  selectSearch,
} from './searchSlice';
import './search.css';

/** Around the first marked word, at most this many characters of a long message are shown. */
const SNIPPET_CHARS = 160;
/** And this many of them before it. */
const SNIPPET_LEAD = 40;

/** The pieces of a long text cut to a snippet around its first marked word ("…" where it was cut). */
export function snippet(pieces: readonly TextPiece[]): TextPiece[] {
  const total = pieces.reduce((sum, piece) => sum + piece.text.length, 0);
  if (total <= SNIPPET_CHARS) return [...pieces];
  let offset = 0;
  let firstHit = 0;
  for (const piece of pieces) {
    if (piece.hit) {
      firstHit = offset;
      break;
    }
    offset += piece.text.length;
  }
  const start = Math.max(0, Math.min(firstHit - SNIPPET_LEAD, total - SNIPPET_CHARS));
  const end = start + SNIPPET_CHARS;
  const cut: TextPiece[] = [];
  let at = 0;
  for (const piece of pieces) {
    const from = Math.max(start, at);
    const to = Math.min(end, at + piece.text.length);
    if (from < to) cut.push({ text: piece.text.slice(from - at, to - at), hit: piece.hit });
    at += piece.text.length;
  }
  if (start > 0) cut.unshift({ text: '…', hit: false });
  if (end < total) cut.push({ text: '…', hit: false });
  return cut;
}

function Hit({
  hit,
  terms,
  channelName,
  now,
  onOpen,
}: {
  hit: ChatMessage;
  terms: string[];
  channelName: string | null;
  now: number;
  onOpen?: () => void;
}) {
  const pieces = snippet(highlightPieces(hit.text, terms));
  return (
    <li>
      <Link
        className="search__hit"
        to={messagePath(hit.channelId, encodeCursor(cursorOf(hit)))}
        onClick={onOpen}
      >
        <span className="search__hit-head">
          {channelName !== null && (
            <span className="search__hit-channel" dir="auto">
              {channelName}
            </span>
          )}
          <span className="search__hit-sender" dir="auto">
            {hit.senderName}
          </span>
          <time dateTime={new Date(hit.createdAt).toISOString()} title={formatFullTime(hit.createdAt)}>
            {formatMessageTime(hit.createdAt, now)}
          </time>
        </span>
        <span className="search__hit-text" dir="auto">
          {pieces.map((piece, i) => (piece.hit ? <mark key={i}>{piece.text}</mark> : piece.text))}
        </span>
      </Link>
    </li>
  );
}

export function SearchPanel({
  channelId,
  onOpen,
}: {
  /** One channel to search; without it, every channel of the person's. */
  channelId?: string;
  /** Called when the person opens a hit (a panel over the conversation closes then). */
  onOpen?: () => void;
}) {
  const dispatch = useAppDispatch();
  const scope = channelId ?? ALL_CHANNELS;
  const results = useAppSelector((state) => selectSearch(state, scope));
  const overview = useAppSelector(selectOverview);
  const uid = useAppSelector(selectUid) ?? '';
  const now = useNow(60_000);
  const [text, setText] = useState(results?.text ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkSearchText(text);
    if (!checked.ok) {
      setProblem(checked.message);
      return;
    }
    setProblem(null);
    if (text.trim() === '') dispatch(searchCleared({ scope }));
    else dispatch(searchRequested({ scope, text: text.trim() }));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Escape' || text === '') return;
    event.preventDefault();
    setText('');
    setProblem(null);
    dispatch(searchCleared({ scope }));
  };

  const checked = results ? checkSearchText(results.text) : null;
  const terms = checked?.ok ? checked.terms : [];
  const channelName = (hitChannelId: string): string | null => {
    if (channelId !== undefined) return null;
    const channel = overview.find((item) => item.channel.id === hitChannelId)?.channel;
    return channel ? channelDisplayName(channel, uid) : null;
  };
  const label = channelId === undefined ? 'Search all your messages' : 'Search this channel';
  const count = results?.hits.length ?? 0;

  return (
    <div className="search">
      <form role="search" className="search__form" onSubmit={submit} aria-label={label}>
        <label className="visually-hidden" htmlFor={`${id}-text`}>
          {label}
        </label>
        <input
          id={`${id}-text`}
          className="search__input"
          type="search"
          placeholder={channelId === undefined ? 'Search messages' : 'Search in this channel'}
          value={text}
          maxLength={SEARCH_TEXT_MAX * 2}
          enterKeyHint="search"
          autoComplete="off"
          aria-invalid={problem !== null}
          aria-describedby={problem !== null ? `${id}-problem` : undefined}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="button button--small">
          Search
        </button>
      </form>
      {problem !== null && (
        <p id={`${id}-problem`} className="form-error" role="alert">
          {problem}
        </p>
      )}
      {results && (
        <div className="search__results">
          <p className="search__count muted" role="status">
            {results.status === 'searching'
              ? 'Searching…'
              : results.status === 'failed'
                ? ''
                : count === 0
                  ? `No messages found for “${results.text}”.`
                  : `${count}${results.next ? '+' : ''} ${count === 1 ? 'message' : 'messages'} found`}
          </p>
          {results.error && (
            <p className="form-error" role="alert">
              {results.error}
            </p>
          )}
          {count > 0 && (
            <ol className="search__hits" aria-label={`Messages found for “${results.text}”`}>
              {results.hits.map((hit) => (
                <Hit
                  key={hit.id}
                  hit={hit}
                  terms={terms}
                  channelName={channelName(hit.channelId)}
                  now={now}
                  {...(onOpen ? { onOpen } : {})}
                />
              ))}
            </ol>
          )}
          {results.next && (
            <button
              type="button"
              className="button button--small button--quiet"
              disabled={results.loadingMore}
              onClick={() => dispatch(searchMoreRequested({ scope }))}
            >
              {results.loadingMore ? 'Loading more…' : 'More results'}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

export default SearchPanel;
