import fc from 'fast-check';
import { QupmError } from '@core/errors';
import type { ChatMessage } from '@core/model';
import {
  SEARCH_MESSAGES,
  SEARCH_PAGE,
  SEARCH_PAGE_MAX,
  SEARCH_PREFIX_MAX,
  SEARCH_TEXT_MAX,
  SEARCH_TOKENS_MAX,
  checkSearchText,
  ftsQuery,
  highlightPieces,
  lookupToken,
  matchesTerms,
  planSearch,
  searchTokens,
  toSearchPage,
  wordsOf,
} from '@core/search';

const message = (id: string, createdAt: number): ChatMessage => ({
  id,
  channelId: 'ChannelStudio0000001',
  senderId: 'MemberUid00000000001',
  senderName: 'Morgan',
  text: 'x',
  createdAt,
});

describe('checkSearchText', () => {
  it('takes the distinct words, without case or accents', () => {
    expect(checkSearchText('  Café CAFE, naïve-plan 2026 ')).toEqual({
      ok: true,
      terms: ['cafe', 'naive', 'plan', '2026'],
    });
  });

  it('finds no word in punctuation and FTS syntax alone, which is no error', () => {
    for (const text of ['', '   ', '*', '"*"', '"', '-', '^', '()', ':']) {
      expect(checkSearchText(text)).toEqual({ ok: true, terms: [] });
    }
  });

  it('reads FTS5 operators and SQL as plain words', () => {
    expect(checkSearchText('NEAR(a b) OR text:x')).toEqual({
      ok: true,
      terms: ['near', 'a', 'b', 'or', 'text', 'x'],
    });
    expect(checkSearchText("'; DROP TABLE messages; --")).toEqual({
      ok: true,
      terms: ['drop', 'table', 'messages'],
    });
  });

  it('refuses a text over the limit and too many words, with words for the person', () => {
    expect(checkSearchText('a'.repeat(SEARCH_TEXT_MAX))).toEqual({
      ok: true,
      terms: ['a'.repeat(SEARCH_TEXT_MAX)],
    });
    expect(checkSearchText('a'.repeat(SEARCH_TEXT_MAX + 1))).toEqual({
      ok: false,
      message: SEARCH_MESSAGES.tooLong,
    });
    expect(checkSearchText('x'.repeat(10_000))).toEqual({ ok: false, message: SEARCH_MESSAGES.tooLong });
    expect(checkSearchText('a b c d e f g h i j')).toMatchObject({ ok: true });
    expect(checkSearchText('a b c d e f g h i j k')).toEqual({
      ok: false,
      message: SEARCH_MESSAGES.tooManyWords,
    });
  });
});

describe('ftsQuery', () => {
  it('quotes every term as a prefix, so nothing typed is FTS5 syntax', () => {
    expect(ftsQuery(['near', 'and', 'text'])).toBe('"near"* "and"* "text"*');
  });

  it('doubles a quote inside a term', () => {
    expect(ftsQuery(['a"b'])).toBe('"a""b"*');
  });

  it('makes only quoted strings of any words typed (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: SEARCH_TEXT_MAX }), (text) => {
        const checked = checkSearchText(text);
        if (!checked.ok) return;
        const query = ftsQuery(checked.terms);
        // Each term: a quote, letters or digits, a quote and the prefix star.
        expect(query).toMatch(/^("[\p{L}\p{N}]+"\*( |$))*$/u);
      }),
    );
  });
});

describe('matchesTerms', () => {
  it('needs every term to start some word', () => {
    expect(matchesTerms('The quarterly plan', ['quart', 'pla'])).toBe(true);
    expect(matchesTerms('The quarterly plan', ['quart', 'budget'])).toBe(false);
    expect(matchesTerms('The quarterly plan', ['uarterly'])).toBe(false);
    expect(matchesTerms('Un café crème', ['creme', 'cafe'])).toBe(true);
    expect(matchesTerms('anything', [])).toBe(false);
  });
});

describe('searchTokens', () => {
  it("keeps each word's prefixes, up to the longest looked up", () => {
    expect(searchTokens('Go go GOAL')).toEqual(['g', 'go', 'goa', 'goal']);
    const long = 'abcdefghijklmnopqrstuvwxyz';
    expect(searchTokens(long)).toHaveLength(SEARCH_PREFIX_MAX);
    expect(lookupToken(long)).toBe(long.slice(0, SEARCH_PREFIX_MAX));
  });

  it('finds what matchesTerms finds, by the lookup token of any term (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.nat(), (text, pick) => {
        const words = wordsOf(text);
        if (words.length === 0) return;
        const word = words[pick % words.length] ?? '';
        const term = word.slice(0, 1 + (pick % word.length));
        expect(searchTokens(text)).toContain(lookupToken(term));
      }),
    );
  });

  it('stays within its bound for the longest message', () => {
    const text = Array.from({ length: 800 }, (_, i) => `word${i}xyzabcdef`).join(' ');
    expect(searchTokens(text).length).toBeLessThanOrEqual(SEARCH_TOKENS_MAX);
  });

  it('keeps nothing for a text without words', () => {
    expect(searchTokens('')).toEqual([]);
    expect(searchTokens('*** ---')).toEqual([]);
  });
});

describe('highlightPieces', () => {
  it('marks the matched start of each word, and joins back to the text', () => {
    const pieces = highlightPieces('Quarterly plan: the QUARTER ends', ['quarter', 'plan']);
    expect(pieces).toEqual([
      { text: 'Quarter', hit: true },
      { text: 'ly ', hit: false },
      { text: 'plan', hit: true },
      { text: ': the ', hit: false },
      { text: 'QUARTER', hit: true },
      { text: ' ends', hit: false },
    ]);
  });

  it('marks an accented word as written', () => {
    expect(highlightPieces('un café', ['cafe'])).toEqual([
      { text: 'un ', hit: false },
      { text: 'café', hit: true },
    ]);
  });

  it('never marks inside a word, and never changes the text (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.array(fc.stringMatching(/^[a-z]{1,4}$/), { maxLength: 3 }),
        (text, terms) => {
          const pieces = highlightPieces(text, terms);
          expect(pieces.map((piece) => piece.text).join('')).toBe(text);
        },
      ),
    );
    expect(highlightPieces('unplanned', ['plan'])).toEqual([{ text: 'unplanned', hit: false }]);
  });
});

describe('planSearch', () => {
  it('reads a page size within its bounds and a cursor of a hit', () => {
    expect(planSearch({ text: 'plan' })).toEqual({ terms: ['plan'], after: null, limit: SEARCH_PAGE });
    expect(planSearch({ text: 'plan', limit: 1000 }).limit).toBe(SEARCH_PAGE_MAX);
    expect(planSearch({ text: 'plan', cursor: '1700000000000_MessageStudio0000001' }).after).toEqual({
      createdAt: 1_700_000_000_000,
      id: 'MessageStudio0000001',
    });
  });

  it('refuses a bad text or cursor as INVALID_ARGUMENT with words', () => {
    const refusal = (query: Parameters<typeof planSearch>[0]) => {
      try {
        planSearch(query);
      } catch (error) {
        return error;
      }
      throw new Error('expected a refusal');
    };
    expect(refusal({ text: 'x'.repeat(10_000) })).toEqual(
      new QupmError('INVALID_ARGUMENT', SEARCH_MESSAGES.tooLong),
    );
    expect(refusal({ text: 'plan', cursor: 'nope' })).toEqual(
      new QupmError('INVALID_ARGUMENT', SEARCH_MESSAGES.badCursor),
    );
    // A bare time is no hit's cursor.
    expect(refusal({ text: 'plan', cursor: '1700000000000' })).toBeInstanceOf(QupmError);
  });
});

describe('toSearchPage', () => {
  it('says there is a next page only when one more hit than the page came', () => {
    const hits = [message('MessageStudio0000003', 3), message('MessageStudio0000002', 2)];
    expect(toSearchPage(hits, 2)).toEqual({ hits, next: null });
    expect(toSearchPage([...hits, message('MessageStudio0000001', 1)], 2)).toEqual({
      hits,
      next: '2_MessageStudio0000002',
    });
  });
});
