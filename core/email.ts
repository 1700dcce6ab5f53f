// The shape of an email address, and when two are the same, written once for the embedded server's schemas, both
// backends' invitation rules and the client's forms (sign-in, sign-up, invite). Zod-free, so the forms carry a
// regex and not a validation library.
import { LIMITS } from './limits';

/**
 * An email address as QuPM accepts one: zod's "practical" email pattern (z.regexes.email), written shorter with
 * the same meaning (`\w` and the `i` flag for its letter classes), which the schemas pass to `z.email({ pattern })`:
 * dot-separated local parts, a domain of labels and a top-level name of 2+ letters. No quoted local parts, IP
 * literals or non-ASCII: the rare address it refuses is refused everywhere.
 */
export const EMAIL_PATTERN = /^(?:[\w'+-]+\.)*[\w'+-]*[\w+-]@(?:[a-z\d][a-z\d-]*\.)+[a-z]{2,}$/i;

/** An address as it is stored and compared: without surrounding white space, in lower case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Whether `text`, once normalized, is an address QuPM accepts (what core/schemas.ts emailSchema accepts). */
export function isEmail(text: string): boolean {
  const email = normalizeEmail(text);
  return email.length <= LIMITS.emailMax && EMAIL_PATTERN.test(email);
}

/** Whether two addresses name the same account (case and surrounding white space do not count). */
export function sameEmail(a: string, b: string): boolean {
  return normalizeEmail(a) === normalizeEmail(b);
}
