// What the consultant's forms read from a number field. Whether the number is allowed is core's rule
// (core/offers.ts isDiscountPercent, core/invitations.ts isInvitationGrant, core/expiry.ts isValidityDays), which
// the backends' schemas apply too; this only reads the field.

/** The whole number a form field holds (digits only, white space around them allowed), or null. */
export function readWholeNumber(value: string): number | null {
  if (!/^\s*\d+\s*$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}
