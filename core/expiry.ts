// How long invitations and offers run (docs/DECISIONS.md "Product (#6)"): the consultant's forms offer whole
// days (core/limits.ts validityDaysMin to validityDaysMax), and the backends check the expiry against their own
// clock when the invitation or offer is created: after now, at most LIMITS.maxValidityMs ahead.
import { QupmError } from './errors';
import { DAY_MS, LIMITS, isWholeNumberIn } from './limits';

/** A validity the forms offer: whole days from 1 to 365. */
export function isValidityDays(days: unknown): days is number {
  return isWholeNumberIn(days, LIMITS.validityDaysMin, LIMITS.validityDaysMax);
}

/** The expiry of something created at `now` that runs `days` days. */
export function expiresAfterDays(days: number, now: number): number {
  return now + days * DAY_MS;
}

/**
 * An invitation's or offer's expiry, checked against the backend's clock: after now and at most a year ahead.
 * `field` names it in the message, as a schema failure would.
 */
export function assertExpiry(expiresAt: number, now: number, field = 'expiresAt'): void {
  if (expiresAt <= now) throw new QupmError('INVALID_ARGUMENT', `${field}: must be in the future`);
  if (expiresAt > now + LIMITS.maxValidityMs) {
    throw new QupmError('INVALID_ARGUMENT', `${field}: at most a year ahead`);
  }
}
