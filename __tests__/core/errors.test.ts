import { HttpsError } from 'firebase-functions/v2/https';
import type { FunctionsErrorCode } from 'firebase-functions/v2/https';
import { ERROR_STATUSES, HTTP_STATUS, QupmError } from '@core/errors';
import type { ErrorStatus } from '@core/errors';
import { toAnswer } from '../../server/errors';
import { toHttpsError } from '../../functions/src/callable';

/** Firebase's name of a status: INVALID_ARGUMENT → invalid-argument. */
const firebaseCode = (status: ErrorStatus) => status.toLowerCase().replace(/_/g, '-') as FunctionsErrorCode;

describe('the error statuses and their HTTP statuses', () => {
  it('gives every status exactly one HTTP status, and none to a status that does not exist', () => {
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...ERROR_STATUSES].sort());
    expect(new Set(ERROR_STATUSES).size).toBe(ERROR_STATUSES.length);
  });

  it.each(ERROR_STATUSES)(
    'answers %s with the HTTP status Firebase’s callable protocol gives it',
    (status) => {
      const { httpErrorCode } = new HttpsError(firebaseCode(status), 'x');
      expect(httpErrorCode).toEqual({ canonicalName: status, status: HTTP_STATUS[status] });
    },
  );

  it('answers only INTERNAL as a server error: every other status is the caller’s to fix', () => {
    const serverErrors = ERROR_STATUSES.filter((status) => HTTP_STATUS[status] >= 500);
    expect(serverErrors).toEqual(['INTERNAL']);
    for (const status of ERROR_STATUSES.filter((s) => s !== 'INTERNAL')) {
      expect(HTTP_STATUS[status]).toBeGreaterThanOrEqual(400);
      expect(HTTP_STATUS[status]).toBeLessThan(500);
    }
  });

  it('tells a client which status a bare HTTP answer stands for, except 400 (invalid input or a failed precondition)', () => {
    const byHttp = new Map<number, ErrorStatus[]>();
    for (const status of ERROR_STATUSES)
      byHttp.set(HTTP_STATUS[status], [...(byHttp.get(HTTP_STATUS[status]) ?? []), status]);
    expect([...byHttp].filter(([, statuses]) => statuses.length > 1)).toEqual([
      [400, ['INVALID_ARGUMENT', 'FAILED_PRECONDITION']],
    ]);
  });
});

describe('QupmError', () => {
  it('is an Error that names itself in logs and carries its status, message and reason', () => {
    const error = new QupmError(
      'FAILED_PRECONDITION',
      'This invitation was already used.',
      'invitation-used',
    );
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toBe('QupmError: This invitation was already used.');
    expect([error.status, error.message, error.reason]).toEqual([
      'FAILED_PRECONDITION',
      'This invitation was already used.',
      'invitation-used',
    ]);
  });

  it('has no reason unless it was given one', () => {
    expect(new QupmError('NOT_FOUND', 'Not found.').reason).toBeUndefined();
  });
});

describe('the body of an error answer (ErrorBody)', () => {
  /** A domain error that also holds what must never reach a client. */
  const leaky = () =>
    Object.assign(
      new QupmError('PERMISSION_DENIED', 'You do not have access to this.', 'invitation-not-yours'),
      {
        sql: 'SELECT * FROM users WHERE uid = ?',
        owner: 'uidDana',
      },
    );

  it('carries the status, the message and the reason, and nothing else of the error', () => {
    expect(toAnswer(leaky()).body).toEqual({
      error: {
        status: 'PERMISSION_DENIED',
        message: 'You do not have access to this.',
        details: { reason: 'invitation-not-yours' },
      },
    });
  });

  it('leaves out a reason the error does not have, rather than sending it empty', () => {
    expect(Object.keys(toAnswer(new QupmError('NOT_FOUND', 'Not found.')).body.error)).toEqual([
      'status',
      'message',
    ]);
  });

  it('never carries the stack, the class name or a file path, from either backend', () => {
    const error = leaky();
    for (const wire of [JSON.stringify(toAnswer(error).body), JSON.stringify(toHttpsError(error))]) {
      expect(wire).not.toContain('QupmError');
      expect(wire).not.toMatch(/\.[jt]s:\d+/);
      expect(wire).not.toContain(__dirname.split('/__tests__')[0] ?? __dirname);
      expect(wire).not.toContain('SELECT');
    }
  });

  it('keeps the same status, message and reason on the Firebase backend', () => {
    expect(toHttpsError(leaky()).toJSON()).toEqual({
      status: 'PERMISSION_DENIED',
      message: 'You do not have access to this.',
      details: { reason: 'invitation-not-yours' },
    });
  });
});
