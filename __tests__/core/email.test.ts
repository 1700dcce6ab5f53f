// The shape of an email address (core/email.ts): the schemas, both backends' invitation rules and the client's
// forms decide with it, so a form never lets through what a backend refuses, nor the other way round.
import fc from 'fast-check';
import { z } from 'zod';
import { EMAIL_PATTERN, isEmail, normalizeEmail, sameEmail } from '@core/email';
import { emailSchema } from '@core/schemas';
import { validateAuthForm } from '@/ui/authMessages';

describe('isEmail', () => {
  it.each([
    ['ann@example.com', true],
    ['  Ann.Lee+qupm@Example.CO  ', true],
    ["o'brien@mail.example.org", true],
    ['consultant@qupm.demo', true],
    ['ann@example', false],
    ['ann@example.c', false],
    ['ann@@example.com', false],
    ['ann example@example.com', false],
    ['.ann@example.com', false],
    ['ann..lee@example.com', false],
    ['ann@-example.com', false],
    ['', false],
    ['@example.com', false],
  ])('%j → %s', (text, expected) => {
    expect(isEmail(text)).toBe(expected);
  });

  it('stops at 254 characters, normalized', () => {
    const at254 = `${'a'.repeat(254 - '@example.com'.length)}@example.com`;
    expect(isEmail(at254)).toBe(true);
    expect(isEmail(` ${at254} `)).toBe(true);
    expect(isEmail(`a${at254}`)).toBe(false);
  });
});

describe('every copy decides the same', () => {
  // With ſ and the Kelvin sign, which a case-insensitive pattern could take for s and k.
  const localChars = "abcXYZ09._+-' @\u017f\u212a";
  const domainChars = 'abcXYZ09.- \u017f\u212a';
  const candidates = fc
    .tuple(
      fc.string({ unit: fc.constantFrom(...localChars), maxLength: 8 }),
      fc.string({ unit: fc.constantFrom(...domainChars), maxLength: 10 }),
      fc.constantFrom('com', 'c', 'co', 'x1', ''),
      fc.constantFrom('', ' '),
    )
    .map(([local, domain, tld, pad]) => `${pad}${local}@${domain}${tld ? `.${tld}` : ''}${pad}`);

  it('the schema accepts exactly what isEmail accepts, as the normalized address', () => {
    fc.assert(
      fc.property(candidates, (text) => {
        const parsed = emailSchema.safeParse(text);
        expect(parsed.success).toBe(isEmail(text));
        if (parsed.success) expect(parsed.data).toBe(normalizeEmail(text));
      }),
      { numRuns: 500 },
    );
  });

  it('the sign-in form lets through exactly what isEmail accepts', () => {
    fc.assert(
      fc.property(candidates, (email) => {
        const problem = validateAuthForm('signIn', { email, password: 'x' });
        expect(problem === null).toBe(isEmail(email));
      }),
    );
  });

  it("accepts what zod's default email pattern accepts: the schema kept its meaning when it was named", () => {
    fc.assert(
      fc.property(candidates, (text) => {
        expect(EMAIL_PATTERN.test(text.trim())).toBe(z.regexes.email.test(text.trim()));
      }),
      { numRuns: 500 },
    );
  });
});

describe('sameEmail', () => {
  it('ignores case and surrounding white space, nothing else', () => {
    expect(sameEmail(' Ann@Example.com', 'ann@example.com ')).toBe(true);
    expect(sameEmail('ann@example.com', 'ann@example.org')).toBe(false);
    expect(sameEmail('a.nn@example.com', 'ann@example.com')).toBe(false);
  });
});
