// Read off the source tree so a copy of a domain rule cannot come back unnoticed: each rule
// lives in one core/ module, and the backends, the worker and the client's forms and selectors import it. The
// checks are textual and cheap; each names the one module its rule lives in, and they read code lines only (a
// comment may name a rule's number or shape).
import { ERROR_WORDS } from '@core/errors';
import { FAILURE_WORDS } from '@core/failureWords';
import { isCommentLine, read, sourceFiles as filesUnder } from './sourceTree';

const SOURCES = ['src', 'core', 'server', 'functions/src'];

/** Every .ts/.tsx file under the source folders. */
const sourceFiles = (): string[] => filesUnder(...SOURCES);

/** `file:line: text` for every code line (comment lines left out) of every source file but `owner` matching. */
function copiesOutside(owner: string, pattern: RegExp): string[] {
  return sourceFiles()
    .filter((file) => file !== owner)
    .flatMap((file) =>
      read(file)
        .split('\n')
        .map((line, i) => ({ line, at: `${file}:${i + 1}` }))
        .filter(({ line }) => !isCommentLine(line) && pattern.test(line))
        .map(({ line, at }) => `${at}: ${line.trim()}`),
    );
}

/** Each rule: the one module it lives in, what a copy of it looks like, and a copy the pattern must catch. */
const RULES: Array<{ rule: string; owner: string; copy: RegExp; example: string }> = [
  {
    rule: 'builds a /?channel= link',
    owner: 'core/paths.ts',
    copy: /\?channel=/,
    example: 'return `/?channel=${encodeURIComponent(id)}`;',
  },
  {
    rule: 'builds an /invite/ or /activate/ link',
    owner: 'core/paths.ts',
    copy: /\/(invite|activate)\/\$\{|['"`]\/(invite|activate)\/['"`]\s*\+/,
    example: 'to={`/activate/${id}`}',
  },
  {
    rule: 'spells the message limit (4,000)',
    owner: 'core/limits.ts',
    copy: /\b4_?000\b/,
    example: 'if (text.trim().length > 4000) return;',
  },
  {
    rule: "spells the forms' validity (365 days)",
    owner: 'core/expiry.ts',
    copy: /\b365\b/,
    example: 'wholeNumber(days, 1, 365)',
  },
  {
    rule: 'has an email pattern',
    owner: 'core/email.ts',
    // A class without @ repeated before an @, or zod's own email check.
    copy: /\[\^[^\]]*@[^\]]*\][+*]@|z\.email\(\)/,
    example: 'const EMAIL = /^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/;',
  },
  {
    rule: 'normalizes an email',
    owner: 'core/email.ts',
    copy: /mail\w*(\.trim\(\))?\.toLowerCase\(\)|map\(\(email\) => email\.toLowerCase/,
    example: 'const key = inviteeEmail.trim().toLowerCase();',
  },
  {
    rule: 'reads the delivery channels of notification settings',
    owner: 'core/delivery.ts',
    copy: /delivery\.channels\.includes\(/,
    example: "settings.delivery.channels.includes('in_app')",
  },
  {
    rule: "orders the channel list by a channel's last activity",
    owner: 'core/overview.ts',
    copy: /lastMessage\?\.createdAt\s*\?\?/,
    example: 'o.lastMessage?.createdAt ?? o.channel.createdAt',
  },
  {
    rule: 'spells the characters of a push token',
    owner: 'core/limits.ts',
    copy: /A-Za-z0-9_\\-:\.|A-Za-z0-9_:\.-/,
    example: 'const TOKEN_PATTERN = /^[A-Za-z0-9_\\-:.]+$/;',
  },
  {
    rule: 'lists the statuses a stored offer may have',
    owner: 'core/documents.ts',
    copy: /\[\s*'active',\s*'used',\s*'revoked'\s*\]/,
    example: "const OFFER_STATUSES = ['active', 'used', 'revoked'];",
  },
  {
    rule: 'lists the statuses a stored invitation may have',
    owner: 'core/documents.ts',
    copy: /\[\s*'pending',\s*'accepted',\s*'activated',\s*'expired'\s*\]/,
    example: "const STATUSES = ['pending', 'accepted', 'activated', 'expired'];",
  },
];

describe('each domain rule of issue #12 part 4 is written once', () => {
  it('reads the source tree', () => {
    const files = sourceFiles();
    expect(files).toEqual(
      expect.arrayContaining(['core/paths.ts', 'src/sw/push.ts', 'functions/src/push.ts']),
    );
    expect(files.length).toBeGreaterThan(150);
  });

  it.each(RULES)('only $owner $rule', ({ owner, copy }) => {
    expect(copiesOutside(owner, copy)).toEqual([]);
  });

  it.each(RULES)('recognises a copy: $example', ({ owner, copy, example }) => {
    expect(copy.test(example)).toBe(true);
    expect(sourceFiles()).toContain(owner);
  });
});

/** A string literal holding exactly these words (in any of the three quotes). */
const literalOf = (words: string): RegExp => {
  const escaped = words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(['"\`])${escaped}\\1`);
};

/**
 * The words both backends answer with (core/errors.ts ERROR_WORDS) and the client's words for a failed request
 * (core/failureWords.ts): spelled once, so the server, functions/, the adapters and the screens cannot drift
 * apart. Words of a screen's own (longer, for its one case) are other literals and stay.
 */
const errorWords: string[] = Object.values(ERROR_WORDS);
const failureWordsList: string[] = Object.values(FAILURE_WORDS);
const CATALOGUES = [
  // ERROR_WORDS names a few of FAILURE_WORDS' words by reference: those are spelled in core/failureWords.ts (which
  // the shell loads without the rest of core/errors.ts).
  ...errorWords
    .filter((words) => !failureWordsList.includes(words))
    .map((words) => ({ owner: 'core/errors.ts', words })),
  ...failureWordsList.map((words) => ({ owner: 'core/failureWords.ts', words })),
];

describe('the error and failure words are written once', () => {
  it.each(CATALOGUES)('only $owner spells "$words"', ({ owner, words }) => {
    expect(copiesOutside(owner, literalOf(words))).toEqual([]);
  });

  it('recognises a copy, and not longer words of a screen’s own', () => {
    expect(
      literalOf(ERROR_WORDS.noSuchChannel).test(
        `throw new QupmError('NOT_FOUND', 'There is no such channel.');`,
      ),
    ).toBe(true);
    expect(
      literalOf(FAILURE_WORDS.offline).test(
        '  offline: "Can\'t reach QuPM right now. Check your connection and try again.",',
      ),
    ).toBe(true);
    expect(
      literalOf(ERROR_WORDS.somethingWentWrong).test(
        `other: 'Something went wrong, and your email address was not changed.',`,
      ),
    ).toBe(false);
  });
});
