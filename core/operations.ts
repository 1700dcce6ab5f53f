// Operation ids (ARCHITECTURE.md: "keyed by an operation id so that a repeat changes nothing"): every change of
// the practice (a booking's request and each later step, a grant, a new service) carries an id its caller chose,
// as a message's send does. The backend keeps one record per id, written in the change's own transaction; a repeat
// of the same operation by the same person answers what the first one made, and changes nothing; the same id for
// anything else is refused, so that a client's bug never turns into a silent second change.
import { QupmError } from './errors';

export type OperationKind =
  | 'create-service'
  | 'request-booking'
  | 'confirm-booking'
  | 'decline-booking'
  | 'propose-time'
  | 'accept-proposal'
  | 'decline-proposal'
  | 'cancel-booking'
  | 'complete-booking'
  | 'refund-booking'
  | 'grant';

/** operations/{id}: who did what, and the document it made or changed. */
export interface OperationRecord {
  id: string;
  uid: string;
  kind: OperationKind;
  /** What the request asked, as operationFingerprint made it. */
  fingerprint: string;
  /** The document made or changed (a booking, a service, a ledger entry's owner). */
  resultId: string;
  createdAt: number;
}

export const OPERATION_MESSAGES = {
  reused:
    'This operation id was already used for a different request, so nothing was changed. Send the new request under a new id.',
} as const;

/** A stable text of a request's fields (keys sorted, undefined left out), to tell a repeat from another request. */
export function operationFingerprint(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) => {
    if (field && typeof field === 'object' && !Array.isArray(field)) {
      return Object.fromEntries(
        Object.entries(field as Record<string, unknown>)
          .filter(([, v]) => v !== undefined)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
    }
    return field;
  });
}

/**
 * What to do with an operation id, given the record stored under it (null: none). 'new': go ahead and store a
 * record; `{ repeat }`: the same person repeated the same request, answer what `resultId` names. Anything else is
 * ALREADY_EXISTS 'operation-reused'.
 */
export function decideOperation(
  stored: OperationRecord | null,
  attempt: { uid: string; kind: OperationKind; fingerprint: string },
): 'new' | { repeat: string } {
  if (!stored) return 'new';
  if (
    stored.uid === attempt.uid &&
    stored.kind === attempt.kind &&
    stored.fingerprint === attempt.fingerprint
  ) {
    return { repeat: stored.resultId };
  }
  throw new QupmError('ALREADY_EXISTS', OPERATION_MESSAGES.reused, 'operation-reused');
}
