// How long invitations and offers run (docs/decisions/channels.md): the consultant's forms offer whole
// days (VALIDITY_DAYS), and the backends check the expiry against their own clock when the invitation or offer is
// created: after now, at most MAX_VALIDITY_MS ahead. Its limits live here rather than in core/limits.ts, which the
// app's shell carries: nothing in the shell needs them.
import { QupmError } from './errors';
import { isWholeNumberIn } from './wholeNumber';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The validity the consultant's forms offer: 1 to 365 whole days. */
export const VALIDITY_DAYS = { min: 1, max: 365 } as const;

/**
 * The backends accept an expiry at most a year ahead of their own clock, with a day to spare beyond the forms'
 * 365 days (a leap year, a browser clock running ahead of the backend's).
 */
export const MAX_VALIDITY_MS = (VALIDITY_DAYS.max + 1) * DAY_MS;

/** A validity the forms offer: whole days from 1 to 365. */
export function isValidityDays(days: unknown): days is number {
  return isWholeNumberIn(days, VALIDITY_DAYS.min, VALIDITY_DAYS.max);
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
  if (expiresAt > now + MAX_VALIDITY_MS) {
    throw new QupmError('INVALID_ARGUMENT', `${field}: at most a year ahead`);
  }
}
