// Message search, written once for both backends and the results screen: what a search's text means (its words,
// each a prefix of a word of a message, all of them needed), its limits and words, the FTS5 query the embedded
// server runs (every word a quoted string, so FTS5's syntax — `*`, quotes, NEAR, AND, OR, `col:` filters — is
// plain text), the prefixes Firebase's index keeps per message (docs/decisions/firebase.md), and the highlighted
// pieces of a hit's text. A word is a run of letters and digits, compared without case or accents, as SQLite's
// `unicode61 remove_diacritics 2` tokenizer compares them.
import { QupmError } from './errors';
import { encodeCursor, parseCursor } from './messages';
import type { MessageCursor } from './messages';
import type { ChatMessage } from './model';

/** The longest search text taken, in characters (a few words; a paragraph is not a search). */
export const SEARCH_TEXT_MAX = 200;
/** The most words a search may have (each one is a term of the query). */
export const SEARCH_WORDS_MAX = 10;
/** Hits a page, unless asked for fewer; and the most a page may ask for. */
export const SEARCH_PAGE = 20;
export const SEARCH_PAGE_MAX = 50;
/**
 * Messages the search backfill indexes in one call (functions/ backfill_search_index): one read and one write each,
 * within one Firestore batch (at most 500 writes) and well within a callable's minute.
 */
export const SEARCH_BACKFILL_BATCH = 200;
/**
 * Firebase's index keeps each word's prefixes up to this length: a longer search word is looked up by its first
 * SEARCH_PREFIX_MAX characters and the rest is checked against the message's text.
 */
export const SEARCH_PREFIX_MAX = 12;
/** The most prefixes one message keeps in Firebase's index (a 4,000-character message stays a small document). */
export const SEARCH_TOKENS_MAX = 2000;

export const SEARCH_MESSAGES = {
  tooLong: `Search for at most ${SEARCH_TEXT_MAX} characters.`,
  tooManyWords: `Search for at most ${SEARCH_WORDS_MAX} words.`,
  badCursor: 'That page of results is no longer valid. Search again.',
} as const;

/** One page of hits, newest first; `next` asks for the page after it (null: there is none). */
export interface SearchPage {
  hits: ChatMessage[];
  next: string | null;
}

/** What a search asks for: its text, one channel or all of the caller's, and the page after `cursor`. */
export interface SearchQuery {
  text: string;
  channelId?: string;
  cursor?: string;
  limit?: number;
}

export type SearchTextCheck = { ok: true; terms: string[] } | { ok: false; message: string };

const WORD = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}/gu;

/** A word as it is compared: lower case, without accents (é → e), in Unicode's compatibility form. */
export function foldWord(word: string): string {
  return word.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

/** The words of a text as they are compared, in order, repeats kept. */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const match of text.normalize('NFKD').replace(MARKS, '').matchAll(WORD)) {
    words.push(match[0].toLowerCase());
  }
  return words;
}

/**
 * A search's terms (its distinct words), or why it cannot be searched. Text with no word in it (`"*"`, spaces)
 * has no terms: it finds nothing, and is no error.
 */
export function checkSearchText(raw: string): SearchTextCheck {
  const text = raw.trim();
  if (text.length > SEARCH_TEXT_MAX) return { ok: false, message: SEARCH_MESSAGES.tooLong };
  const terms = [...new Set(wordsOf(text))];
  if (terms.length > SEARCH_WORDS_MAX) return { ok: false, message: SEARCH_MESSAGES.tooManyWords };
  return { ok: true, terms };
}

/**
 * The FTS5 MATCH expression for terms: each a quoted string (a `"` doubled, though terms hold none) with a prefix
 * `*`, joined by spaces (FTS5's implicit AND). Nothing the person typed is ever read as FTS5 syntax.
 */
export function ftsQuery(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"*`).join(' ');
}

/** Whether every term is the start of some word of the text (how a hit is decided, on both backends). */
export function matchesTerms(text: string, terms: readonly string[]): boolean {
  if (terms.length === 0) return false;
  const words = wordsOf(text);
  return terms.every((term) => words.some((word) => word.startsWith(term)));
}

/**
 * The prefixes Firebase's index keeps for a message's text: each distinct word's first 1 to SEARCH_PREFIX_MAX
 * characters, at most SEARCH_TOKENS_MAX in all (the first words' first). A deleted message keeps none.
 */
export function searchTokens(text: string): string[] {
  const tokens = new Set<string>();
  for (const word of new Set(wordsOf(text))) {
    const chars = [...word];
    for (let length = 1; length <= Math.min(chars.length, SEARCH_PREFIX_MAX); length += 1) {
      tokens.add(chars.slice(0, length).join(''));
      if (tokens.size >= SEARCH_TOKENS_MAX) return [...tokens];
    }
  }
  return [...tokens];
}

/** The index token a term is looked up by on Firebase (its first SEARCH_PREFIX_MAX characters). */
export function lookupToken(term: string): string {
  return [...term].slice(0, SEARCH_PREFIX_MAX).join('');
}

/** A piece of a hit's text: `hit` when it is the start of a word that a term matched. */
export interface TextPiece {
  text: string;
  hit: boolean;
}

/**
 * A hit's text in pieces, the matched start of each word a term matches marked (the longest term wins), so a
 * screen can wrap those in <mark> as text, never as HTML. The pieces joined are the text unchanged.
 */
export function highlightPieces(text: string, terms: readonly string[]): TextPiece[] {
  const pieces: TextPiece[] = [];
  let at = 0;
  const push = (piece: string, hit: boolean) => {
    if (piece.length === 0) return;
    const last = pieces.at(-1);
    if (last && last.hit === hit) last.text += piece;
    else pieces.push({ text: piece, hit });
  };
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    const start = match.index;
    // How many characters of the word (as written) the longest matching term covers.
    let covered = 0;
    for (const term of terms) {
      if (!foldWord(word).startsWith(term)) continue;
      covered = Math.max(covered, writtenLength(word, term));
    }
    if (covered === 0) continue;
    push(text.slice(at, start), false);
    push(word.slice(0, covered), true);
    at = start + covered;
  }
  push(text.slice(at), false);
  return pieces;
}

/** How many characters of `word` (as written, accents and all) fold to `term`. */
function writtenLength(word: string, term: string): number {
  let length = 0;
  for (const char of word) {
    length += char.length;
    if (foldWord(word.slice(0, length)).length >= term.length) return length;
  }
  return word.length;
}

/** A search as both backends run it: its terms, the page's start and size; refused with words when it cannot be. */
export interface SearchPlan {
  terms: string[];
  after: MessageCursor | null;
  limit: number;
}

/** Reads a search (already of the right types), or throws INVALID_ARGUMENT with words for the person. */
export function planSearch(query: SearchQuery): SearchPlan {
  const checked = checkSearchText(query.text);
  if (!checked.ok) throw new QupmError('INVALID_ARGUMENT', checked.message);
  const after = query.cursor === undefined ? null : parseCursor(query.cursor);
  if (query.cursor !== undefined && (after === null || after.id === '')) {
    throw new QupmError('INVALID_ARGUMENT', SEARCH_MESSAGES.badCursor);
  }
  const limit = Math.min(Math.max(1, Math.floor(query.limit ?? SEARCH_PAGE)), SEARCH_PAGE_MAX);
  return { terms: checked.terms, after, limit };
}

/** A page from up to `limit + 1` hits, newest first (one more than the page says there is a next one). */
export function toSearchPage(hits: readonly ChatMessage[], limit: number): SearchPage {
  const page = hits.slice(0, limit);
  const last = page.at(-1);
  return {
    hits: page,
    next: hits.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
  };
}
