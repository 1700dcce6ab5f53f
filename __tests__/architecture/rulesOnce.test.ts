// Issue #12 part 4, read off the source tree so a copy of a domain rule cannot come back unnoticed: each rule
// lives in one core/ module, and the backends, the worker and the client's forms and selectors import it. The
// checks are textual and cheap; each names the one module its rule lives in, and they read code lines only (a
// comment may name a rule's number or shape).
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
