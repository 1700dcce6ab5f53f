// The predicate the numeric limits share (core/offers.ts isDiscountPercent, core/invitations.ts
// isInvitationGrant, core/expiry.ts isValidityDays): a whole number within bounds. Beside core/limits.ts rather
// than in it, so that the app's shell, which needs the numbers, does not carry it.

/** A whole number (a safe integer) from `min` to `max`, both included. */
export function isWholeNumberIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;
}
