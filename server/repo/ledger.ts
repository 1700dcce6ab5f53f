// ledger and operations (migration 011): the append-only ledger of each person's credits and passes, written
// with users.credits / users.pass_count, and the operation ids that make a repeat change nothing. Callers write
// inside write(): an entry and its balance are one transaction.
import type { Db } from '../db/database';
import type { Balance, LedgerEntry } from '../../core/model';
import type { OperationKind, OperationRecord } from '../../core/operations';

interface LedgerRow {
  uid: string;
  id: string;
  kind: LedgerEntry['kind'];
  delta_credits: number;
  delta_passes: number;
  amount_credits: number;
  amount_passes: number;
  balance_credits: number;
  balance_passes: number;
  booking_id: string | null;
  service_id: string | null;
  invitation_id: string | null;
  by_uid: string | null;
  note: string | null;
  created_at: number;
}

const toEntry = (row: LedgerRow): LedgerEntry => {
  const entry: LedgerEntry = {
    id: row.id,
    uid: row.uid,
    kind: row.kind,
    delta: { credits: row.delta_credits, passes: row.delta_passes },
    amount: { credits: row.amount_credits, passes: row.amount_passes },
    balanceAfter: { credits: row.balance_credits, passes: row.balance_passes },
    createdAt: row.created_at,
  };
  if (row.booking_id !== null) entry.bookingId = row.booking_id;
  if (row.service_id !== null) entry.serviceId = row.service_id;
  if (row.invitation_id !== null) entry.invitationId = row.invitation_id;
  if (row.by_uid !== null) entry.byUid = row.by_uid;
  if (row.note !== null) entry.note = row.note;
  return entry;
};

interface OperationRow {
  id: string;
  uid: string;
  kind: OperationKind;
  fingerprint: string;
  result_id: string;
  created_at: number;
}

export class LedgerRepo {
  private readonly balanceOf;
  private readonly setBalance;
  private readonly insertRow;
  private readonly entryOf;
  private readonly entriesOf;
  private readonly sumOf;
  private readonly operationOf;
  private readonly insertOperation;

  constructor(db: Db) {
    this.balanceOf = db.prepare<[string], { credits: number; pass_count: number }>(
      'SELECT credits, pass_count FROM users WHERE uid = ?',
    );
    this.setBalance = db.prepare<[number, number, string]>(
      'UPDATE users SET credits = ?, pass_count = ? WHERE uid = ?',
    );
    this.insertRow = db.prepare(
      `INSERT INTO ledger (uid, id, kind, delta_credits, delta_passes, amount_credits, amount_passes,
         balance_credits, balance_passes, booking_id, service_id, invitation_id, by_uid, note, created_at)
       VALUES (@uid, @id, @kind, @delta_credits, @delta_passes, @amount_credits, @amount_passes, @balance_credits,
         @balance_passes, @booking_id, @service_id, @invitation_id, @by_uid, @note, @created_at)`,
    );
    this.entryOf = db.prepare<[string, string], LedgerRow>('SELECT * FROM ledger WHERE uid = ? AND id = ?');
    this.entriesOf = db.prepare<[string], LedgerRow>(
      // core/ledger.ts sortLedger's order: the opening entry after anything at its time.
      "SELECT * FROM ledger WHERE uid = ? ORDER BY created_at DESC, kind = 'opening', id DESC",
    );
    this.sumOf = db.prepare<[string], { credits: number | null; passes: number | null }>(
      'SELECT SUM(delta_credits) AS credits, SUM(delta_passes) AS passes FROM ledger WHERE uid = ?',
    );
    this.operationOf = db.prepare<[string], OperationRow>('SELECT * FROM operations WHERE id = ?');
    this.insertOperation = db.prepare(
      `INSERT INTO operations (id, uid, kind, fingerprint, result_id, created_at)
       VALUES (@id, @uid, @kind, @fingerprint, @resultId, @createdAt)`,
    );
  }

  /** The person's balance as users holds it, or null when there is no such person. */
  balance(uid: string): Balance | null {
    const row = this.balanceOf.get(uid);
    return row ? { credits: row.credits, passes: row.pass_count } : null;
  }

  /** Appends `entry` and sets the person's balance to what it says the balance is after it. */
  append(entry: LedgerEntry): void {
    this.setBalance.run(entry.balanceAfter.credits, entry.balanceAfter.passes, entry.uid);
    this.insertRow.run({
      uid: entry.uid,
      id: entry.id,
      kind: entry.kind,
      delta_credits: entry.delta.credits,
      delta_passes: entry.delta.passes,
      amount_credits: entry.amount.credits,
      amount_passes: entry.amount.passes,
      balance_credits: entry.balanceAfter.credits,
      balance_passes: entry.balanceAfter.passes,
      booking_id: entry.bookingId ?? null,
      service_id: entry.serviceId ?? null,
      invitation_id: entry.invitationId ?? null,
      by_uid: entry.byUid ?? null,
      note: entry.note ?? null,
      created_at: entry.createdAt,
    });
  }

  entry(uid: string, id: string): LedgerEntry | null {
    const row = this.entryOf.get(uid, id);
    return row ? toEntry(row) : null;
  }

  /** A person's entries, newest first. */
  list(uid: string): LedgerEntry[] {
    return this.entriesOf.all(uid).map(toEntry);
  }

  /** The sum of a person's deltas (their balance, when the ledger is whole). */
  sum(uid: string): Balance {
    const row = this.sumOf.get(uid);
    return { credits: row?.credits ?? 0, passes: row?.passes ?? 0 };
  }

  operation(id: string): OperationRecord | null {
    const row = this.operationOf.get(id);
    return row
      ? {
          id: row.id,
          uid: row.uid,
          kind: row.kind,
          fingerprint: row.fingerprint,
          resultId: row.result_id,
          createdAt: row.created_at,
        }
      : null;
  }

  recordOperation(record: OperationRecord): void {
    this.insertOperation.run(record);
  }
}
