// Credits and passes as an append-only ledger (ARCHITECTURE.md "credits", "passCount"): every move of a person's
// balance is one entry, written in the same transaction as the balance and keyed by the operation that made it,
// so that a repeat of the operation changes nothing and the sum of a person's entries is always their balance.
//
// The balance is what the person can spend. A hold takes the price out of it at request; a capture (at
// confirmation) takes nothing more and records that the held price was taken; a release (decline, a cancellation
// before confirmation) gives the hold back; a refund gives a taken price back. Invitation activations, a
// consultant's or an admin's grants and the opening entries (balances from before the ledger) add to it.
import { ERROR_WORDS, QupmError } from './errors';
import type { Balance, Booking, LedgerEntry, LedgerKind } from './model';
import { isWholeNumberIn } from './wholeNumber';

export const LEDGER_KINDS: readonly LedgerKind[] = [
  'opening',
  'invitation',
  'grant',
  'hold',
  'capture',
  'release',
  'refund',
];

/** Entry ids the backends derive where no client names the operation. */
export const LEDGER_IDS = {
  /** The balance a person had before the ledger existed (one per person). */
  opening: 'opening',
  /** An invitation's activation: single-use already, so its id is the operation's. */
  invitation: (invitationId: string): string => `invitation-${invitationId}`,
  /** A request that nobody answered before its time: released by the backend. */
  expiry: (bookingId: string): string => `expired-${bookingId}`,
} as const;

export const GRANT_LIMITS = { max: 1000, noteMax: 200 } as const;

export const LEDGER_MESSAGES = {
  insufficientCredits: (needed: number, held: number) =>
    `This session costs ${needed} ${needed === 1 ? 'credit' : 'credits'} and you have ${held}. Nothing was booked.`,
  noPass: 'You have no pass left to pay with. Pay with credits, or ask your consultant for a pass.',
  negative: 'This would take the balance below zero, so nothing was changed.',
  grantNotAllowed: 'Consultants grant credits and passes to their own clients; admins to anyone.',
  grantToSelf: 'You cannot grant credits or passes to yourself.',
  grantEmpty: 'Grant at least one credit or one pass.',
  noSuchUser: ERROR_WORDS.noSuchUser,
} as const;

export const ZERO: Balance = { credits: 0, passes: 0 };

/** One move of a person's balance, before it is written. */
export interface LedgerMove {
  kind: LedgerKind;
  amount: Balance;
  bookingId?: string;
  serviceId?: string;
  invitationId?: string;
  byUid?: string;
  note?: string;
}

/** What a move does to the balance: a hold takes, a capture moves nothing more, everything else gives. */
export function deltaOf(kind: LedgerKind, amount: Balance): Balance {
  if (kind === 'capture') return { credits: 0, passes: 0 };
  // 0 - n, not -n: a hold of no passes moves them by 0, never by -0 (which a document store keeps as such).
  if (kind === 'hold') return { credits: 0 - amount.credits, passes: 0 - amount.passes };
  return { credits: amount.credits, passes: amount.passes };
}

/** A move that moves something (a free session holds nothing and writes no entry). */
export function isEmptyMove(move: LedgerMove): boolean {
  return move.amount.credits === 0 && move.amount.passes === 0;
}

/**
 * The entry `move` writes on `before` (the person's balance inside the transaction), under `id`. Refused, with
 * nothing written, when the balance would go below zero: words for a booking's hold, plain words otherwise.
 */
export function ledgerEntry(input: {
  id: string;
  uid: string;
  move: LedgerMove;
  before: Balance;
  createdAt: number;
}): LedgerEntry {
  const { id, uid, move, before, createdAt } = input;
  if (
    !isWholeNumberIn(move.amount.credits, 0, Number.MAX_SAFE_INTEGER) ||
    !isWholeNumberIn(move.amount.passes, 0, Number.MAX_SAFE_INTEGER)
  ) {
    throw new QupmError('INVALID_ARGUMENT', 'A balance moves by whole, non-negative amounts.');
  }
  const delta = deltaOf(move.kind, move.amount);
  const balanceAfter = { credits: before.credits + delta.credits, passes: before.passes + delta.passes };
  if (balanceAfter.credits < 0) {
    throw move.kind === 'hold'
      ? new QupmError(
          'FAILED_PRECONDITION',
          LEDGER_MESSAGES.insufficientCredits(move.amount.credits, before.credits),
          'insufficient-credits',
        )
      : new QupmError('FAILED_PRECONDITION', LEDGER_MESSAGES.negative);
  }
  if (balanceAfter.passes < 0) {
    throw move.kind === 'hold'
      ? new QupmError('FAILED_PRECONDITION', LEDGER_MESSAGES.noPass, 'no-pass')
      : new QupmError('FAILED_PRECONDITION', LEDGER_MESSAGES.negative);
  }
  const entry: LedgerEntry = {
    id,
    uid,
    kind: move.kind,
    delta,
    amount: { ...move.amount },
    balanceAfter,
    createdAt,
  };
  if (move.bookingId !== undefined) entry.bookingId = move.bookingId;
  if (move.serviceId !== undefined) entry.serviceId = move.serviceId;
  if (move.invitationId !== undefined) entry.invitationId = move.invitationId;
  if (move.byUid !== undefined) entry.byUid = move.byUid;
  if (move.note !== undefined && move.note !== '') entry.note = move.note;
  return entry;
}

/** The sum of a person's entries: their balance, if the ledger is whole. */
export function sumLedger(entries: readonly Pick<LedgerEntry, 'delta'>[]): Balance {
  return entries.reduce(
    (sum, entry) => ({ credits: sum.credits + entry.delta.credits, passes: sum.passes + entry.delta.passes }),
    { credits: 0, passes: 0 },
  );
}

/**
 * A person's history as they read it: newest first, then by id for a stable order. The opening entry comes
 * before everything else even at the same time: on Firestore it is written with the first move, in its
 * transaction and at its time, and its id alone would put it either side of that move.
 */
export function sortLedger<T extends Pick<LedgerEntry, 'createdAt' | 'id' | 'kind'>>(
  entries: readonly T[],
): T[] {
  const opening = (entry: T): number => (entry.kind === 'opening' ? 1 : 0);
  return [...entries].sort(
    (a, b) =>
      b.createdAt - a.createdAt || opening(a) - opening(b) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
}

/** A grant's size: whole credits and passes, 0 to 1,000 each. */
export function isGrantAmount(value: unknown): value is number {
  return isWholeNumberIn(value, 0, GRANT_LIMITS.max);
}

/**
 * Who may grant credits or passes to whom: an admin to anyone but themself; a consultant to their own clients
 * (`isClient`: the person is in one of their channels). Something must be granted.
 */
export function assertCanGrant(input: {
  caller: { uid: string; isAdmin: boolean; isOwner: boolean };
  targetUid: string;
  isClient: boolean;
  amount: Balance;
}): void {
  const { caller, targetUid, isClient, amount } = input;
  if (amount.credits === 0 && amount.passes === 0) {
    throw new QupmError('INVALID_ARGUMENT', LEDGER_MESSAGES.grantEmpty);
  }
  if (targetUid === caller.uid) throw new QupmError('PERMISSION_DENIED', LEDGER_MESSAGES.grantToSelf);
  if (caller.isAdmin) return;
  if (!caller.isOwner || !isClient) throw new QupmError('PERMISSION_DENIED', LEDGER_MESSAGES.grantNotAllowed);
}

/** What a consultant's services earned and which offers were used, from the bookings of their services. */
export interface Earnings {
  services: Array<{
    serviceId: string;
    serviceTitle: string;
    sessions: number;
    credits: number;
    passes: number;
  }>;
  total: Balance & { sessions: number };
  offersUsed: Array<{
    offerId: string;
    discountPercent: number;
    bookingId: string;
    serviceTitle: string;
    clientId: string;
    startsAt: number;
    /** The credits the discount took off the price. */
    creditsOff: number;
  }>;
}

/**
 * Earned: every booking whose price was taken and not given back (confirmed, done, or cancelled late and kept).
 * Offers used: those applied to a booking that was not released or refunded. By service title, then id.
 */
export function summarizeEarnings(bookings: readonly Booking[]): Earnings {
  const byService = new Map<string, Earnings['services'][number]>();
  const offersUsed: Earnings['offersUsed'] = [];
  const total = { credits: 0, passes: 0, sessions: 0 };
  for (const booking of bookings) {
    const { payment } = booking;
    if (payment.status !== 'captured') continue;
    const row = byService.get(booking.serviceId) ?? {
      serviceId: booking.serviceId,
      serviceTitle: booking.serviceTitle,
      sessions: 0,
      credits: 0,
      passes: 0,
    };
    row.sessions += 1;
    total.sessions += 1;
    if (payment.method === 'credits') {
      row.credits += payment.amount;
      total.credits += payment.amount;
    } else {
      row.passes += payment.amount;
      total.passes += payment.amount;
    }
    byService.set(booking.serviceId, row);
    if (payment.offerId !== undefined) {
      offersUsed.push({
        offerId: payment.offerId,
        discountPercent: payment.discountPercent ?? 0,
        bookingId: booking.id,
        serviceTitle: booking.serviceTitle,
        clientId: booking.clientId,
        startsAt: booking.startsAt,
        creditsOff: payment.listPrice - payment.amount,
      });
    }
  }
  return {
    services: [...byService.values()].sort(
      (a, b) => a.serviceTitle.localeCompare(b.serviceTitle, 'en') || (a.serviceId < b.serviceId ? -1 : 1),
    ),
    total,
    offersUsed: offersUsed.sort((a, b) => b.startsAt - a.startsAt || (a.bookingId < b.bookingId ? -1 : 1)),
  };
}
