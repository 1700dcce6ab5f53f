// Operation ids on the embedded server (core/operations.ts): inside the write transaction of a change, the
// record under its id decides whether this is the change itself or a repeat of it; the record is written in the
// same transaction, so a change and its record commit (or roll back) together, and two racing repeats make one.
import type { OperationKind } from '../core/operations';
import { decideOperation, operationFingerprint } from '../core/operations';
import type { Repos } from './repo';

/**
 * Runs `change` once per operation id: a repeat by the same person of the same request answers `repeat(resultId)`
 * instead and changes nothing; the id used for anything else is ALREADY_EXISTS. Call it inside write().
 */
export function once<T>(
  ctx: { repos: Pick<Repos, 'ledger'>; now: () => number },
  operation: { id: string; uid: string; kind: OperationKind; request: unknown },
  change: () => { resultId: string; value: T },
  repeat: (resultId: string) => T,
): { value: T; repeated: boolean } {
  const fingerprint = operationFingerprint(operation.request);
  const decision = decideOperation(ctx.repos.ledger.operation(operation.id), {
    uid: operation.uid,
    kind: operation.kind,
    fingerprint,
  });
  if (decision !== 'new') return { value: repeat(decision.repeat), repeated: true };
  const { resultId, value } = change();
  ctx.repos.ledger.recordOperation({
    id: operation.id,
    uid: operation.uid,
    kind: operation.kind,
    fingerprint,
    resultId,
    createdAt: ctx.now(),
  });
  return { value, repeated: false };
}
