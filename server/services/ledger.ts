// Credits and passes on the embedded server (core/ledger.ts): every move of a balance is one ledger entry written
// in the same write transaction as users.credits / users.pass_count (moveBalance, the only writer of balances:
// bookings, invitation activations and grants all go through it), keyed by the operation that made it. A
// person reads their history; a consultant what their services earned; a consultant grants to their clients and
// an admin to anyone.
import { QupmError } from '../../core/errors';
import type { Earnings, LedgerMove } from '../../core/ledger';
import {
  assertCanGrant,
  ledgerEntry,
  LEDGER_MESSAGES,
  sortLedger,
  summarizeEarnings,
} from '../../core/ledger';
import type { Balance, LedgerEntry } from '../../core/model';
import type { Caller } from '../../core/permissions';
import { canReadUser } from '../../core/permissions';
import { write } from '../db/database';
import { once } from '../operations';
import type { ServiceContext } from '../context';
import { publishUser } from './users';

/**
 * Inside write(): writes the entry `move` makes on `uid`'s balance under `id`, and the balance with it. An entry
 * already under `id` is a repeat: it is answered and nothing changes. Refused, with nothing written, when the
 * balance would go below zero.
 */
export function moveBalance(
  ctx: Pick<ServiceContext, 'repos'>,
  uid: string,
  id: string,
  move: LedgerMove,
  now: number,
): LedgerEntry {
  const stored = ctx.repos.ledger.entry(uid, id);
  if (stored) return stored;
  const before = ctx.repos.ledger.balance(uid);
  if (!before) throw new QupmError('NOT_FOUND', LEDGER_MESSAGES.noSuchUser);
  const entry = ledgerEntry({ id, uid, move, before, createdAt: now });
  ctx.repos.ledger.append(entry);
  return entry;
}

/**
 * A consultant grants credits or passes to one of their clients, or an admin to anyone; the operation id makes
 * a repeat change nothing. Answers the entry.
 */
export function grantBalance(
  ctx: ServiceContext,
  caller: Caller,
  input: { userId: string; credits: number; passes: number; note?: string; operationId: string },
): LedgerEntry {
  const { operationId, ...request } = input;
  const { value: entry, repeated } = write(ctx.db, () =>
    once(
      ctx,
      { id: operationId, uid: caller.uid, kind: 'grant', request },
      () => {
        const granter = ctx.repos.users.getDoc(caller.uid);
        if (!ctx.repos.users.exists(input.userId))
          throw new QupmError('NOT_FOUND', LEDGER_MESSAGES.noSuchUser);
        const amount = { credits: input.credits, passes: input.passes };
        assertCanGrant({
          caller: { uid: caller.uid, isAdmin: caller.isAdmin, isOwner: granter?.isOwner === true },
          targetUid: input.userId,
          isClient: ctx.repos.channels.isClientOf(caller.uid, input.userId),
          amount,
        });
        const made = moveBalance(
          ctx,
          input.userId,
          operationId,
          { kind: 'grant', amount, byUid: caller.uid, ...(input.note ? { note: input.note } : {}) },
          ctx.now(),
        );
        return { resultId: input.userId, value: made };
      },
      (uid) => {
        const made = ctx.repos.ledger.entry(uid, operationId);
        if (!made) throw new Error('A recorded grant has no ledger entry');
        return made;
      },
    ),
  );
  if (!repeated) publishUser(ctx, entry.uid);
  return entry;
}

/** A person's ledger, newest first, with their balance; their own, or anyone's for an admin. */
export function listLedger(
  ctx: ServiceContext,
  caller: Caller,
  uid: string = caller.uid,
): { entries: LedgerEntry[]; balance: Balance } {
  if (!canReadUser(caller, uid))
    throw new QupmError('PERMISSION_DENIED', 'You can only see your own balance.');
  // One read transaction: the entries and the balance agree.
  return ctx.db.transaction(() => {
    const balance = ctx.repos.ledger.balance(uid);
    if (!balance) throw new QupmError('NOT_FOUND', LEDGER_MESSAGES.noSuchUser);
    return { entries: sortLedger(ctx.repos.ledger.list(uid)), balance };
  })();
}

/** What the caller's services earned and which offers were used (core/ledger.ts summarizeEarnings). */
export function earnings(ctx: ServiceContext, caller: Caller): Earnings {
  return summarizeEarnings(ctx.repos.bookings.listForConsultant(caller.uid));
}
