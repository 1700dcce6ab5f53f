// Operation ids (core/operations.ts): a repeat by the same person of the same request answers the first result;
// the same id for anything else is refused.
import { QupmError } from '@core/errors';
import { decideOperation, operationFingerprint } from '@core/operations';
import type { OperationRecord } from '@core/operations';

const stored: OperationRecord = {
  id: 'Op1',
  uid: 'morgan',
  kind: 'request-booking',
  fingerprint: operationFingerprint({ serviceId: 'S1', startsAt: 10 }),
  resultId: 'B1',
  createdAt: 0,
};

describe('operationFingerprint', () => {
  it('is the same for the same fields in any order, leaving out undefined ones', () => {
    expect(operationFingerprint({ b: 1, a: { y: 2, x: undefined, z: [3] } })).toBe(
      operationFingerprint({ a: { z: [3], y: 2 }, b: 1 }),
    );
  });

  it('differs when a value differs', () => {
    expect(operationFingerprint({ a: 1 })).not.toBe(operationFingerprint({ a: 2 }));
  });
});

describe('decideOperation', () => {
  it('goes ahead when the id is new', () => {
    expect(decideOperation(null, { uid: 'morgan', kind: 'grant', fingerprint: '{}' })).toBe('new');
  });

  it('answers the first result to a repeat by the same person of the same request', () => {
    expect(
      decideOperation(stored, { uid: 'morgan', kind: 'request-booking', fingerprint: stored.fingerprint }),
    ).toEqual({ repeat: 'B1' });
  });

  it.each([
    ['by someone else', { uid: 'sam', kind: 'request-booking' as const, fingerprint: stored.fingerprint }],
    [
      'for another kind of change',
      { uid: 'morgan', kind: 'cancel-booking' as const, fingerprint: stored.fingerprint },
    ],
    [
      'for a different request',
      {
        uid: 'morgan',
        kind: 'request-booking' as const,
        fingerprint: operationFingerprint({ serviceId: 'S1', startsAt: 11 }),
      },
    ],
  ])('refuses the id used %s, as ALREADY_EXISTS operation-reused', (_label, attempt) => {
    let caught: unknown;
    try {
      decideOperation(stored, attempt);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(QupmError);
    expect(caught).toMatchObject({ status: 'ALREADY_EXISTS', reason: 'operation-reused' });
  });
});
