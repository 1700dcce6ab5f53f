import { BackendError } from '@/backend/ports';

import { OFFLINE_MESSAGE, guarded, toBackendError } from '@/backend/firebase/errors';
import { FakeFirebaseError } from './sdkFakes';

describe('toBackendError', () => {
  it.each([
    ['auth/invalid-credential', 'UNAUTHENTICATED', 'invalid-credentials'],
    ['auth/wrong-password', 'UNAUTHENTICATED', 'invalid-credentials'],
    ['auth/user-not-found', 'UNAUTHENTICATED', 'invalid-credentials'],
    ['auth/email-already-in-use', 'ALREADY_EXISTS', 'email-taken'],
    ['auth/too-many-requests', 'RESOURCE_EXHAUSTED', undefined],
    ['auth/weak-password', 'INVALID_ARGUMENT', undefined],
    ['auth/invalid-email', 'INVALID_ARGUMENT', undefined],
    ['auth/network-request-failed', 'UNAVAILABLE', undefined],
    ['auth/user-token-expired', 'UNAUTHENTICATED', 'session-expired'],
    ['auth/user-mismatch', 'UNAUTHENTICATED', 'session-expired'],
    ['unavailable', 'UNAVAILABLE', undefined],
    ['permission-denied', 'PERMISSION_DENIED', undefined],
    ['not-found', 'NOT_FOUND', undefined],
    ['unauthenticated', 'UNAUTHENTICATED', undefined],
    ['resource-exhausted', 'RESOURCE_EXHAUSTED', undefined],
    ['failed-precondition', 'FAILED_PRECONDITION', undefined],
    ['deadline-exceeded', 'UNAVAILABLE', undefined],
    ['functions/permission-denied', 'PERMISSION_DENIED', undefined],
    ['functions/not-found', 'NOT_FOUND', undefined],
    ['functions/unauthenticated', 'UNAUTHENTICATED', undefined],
    ['functions/invalid-argument', 'INVALID_ARGUMENT', undefined],
    ['functions/failed-precondition', 'FAILED_PRECONDITION', undefined],
    ['functions/already-exists', 'ALREADY_EXISTS', undefined],
    ['functions/resource-exhausted', 'RESOURCE_EXHAUSTED', undefined],
    ['functions/unavailable', 'UNAVAILABLE', undefined],
    ['functions/internal', 'INTERNAL', undefined],
    ['messaging/permission-blocked', 'PERMISSION_DENIED', undefined],
    ['messaging/unsupported-browser', 'FAILED_PRECONDITION', 'push-unsupported-browser'],
    ['messaging/indexed-db-unsupported', 'FAILED_PRECONDITION', 'push-indexed-db-unsupported'],
  ])('turns %s into %s', (code, status, reason) => {
    const error = toBackendError(new FakeFirebaseError(code));
    expect(error).toBeInstanceOf(BackendError);
    expect(error.status).toBe(status);
    expect(error.reason).toBe(reason);
  });

  it("tells a person that the email and password don't match, without saying which one is wrong", () => {
    for (const code of ['auth/invalid-credential', 'auth/wrong-password', 'auth/user-not-found']) {
      expect(toBackendError(new FakeFirebaseError(code)).message).toBe(
        "That email and password don't match.",
      );
    }
  });

  it('never shows the SDK message ("Firebase: Error (auth/...)") to a person', () => {
    const error = toBackendError(new FakeFirebaseError('auth/email-already-in-use'));
    expect(error.message).toBe('An account with that email already exists. Sign in instead.');
    expect(
      toBackendError(new FakeFirebaseError('permission-denied', 'Missing or insufficient permissions.'))
        .message,
    ).toBe("You don't have access to that.");
  });

  it('keeps the message a callable wrote for people, without the SDK status suffix', () => {
    const error = toBackendError(
      new FakeFirebaseError('functions/failed-precondition', 'This invitation has expired [400]'),
    );
    expect(error.message).toBe('This invitation has expired');
  });

  it('reads the finer reason a callable puts in its error details', () => {
    const error = toBackendError(
      new FakeFirebaseError('functions/failed-precondition', 'This invitation has expired [400]', {
        reason: 'invitation-expired',
      }),
    );
    expect(error.reason).toBe('invitation-expired');
  });

  it('ignores a reason it does not know', () => {
    const error = toBackendError(
      new FakeFirebaseError('functions/failed-precondition', 'Nope [400]', { reason: 'something-new' }),
    );
    expect(error.reason).toBeUndefined();
  });

  it("replaces the SDK's stand-in messages for a callable (a function that is not deployed answers 404)", () => {
    expect(toBackendError(new FakeFirebaseError('functions/not-found', 'not-found [404]')).message).toBe(
      "That doesn't exist (any more).",
    );
    expect(
      toBackendError(new FakeFirebaseError('functions/not-found', 'Backend error status: NOT_FOUND [404]'))
        .message,
    ).toBe("That doesn't exist (any more).");
  });

  it('never shows the message of an internal failure', () => {
    const error = toBackendError(
      new FakeFirebaseError('functions/internal', 'TypeError: x is undefined [500]'),
    );
    expect(error.message).toBe('Something went wrong. Please try again.');
  });

  it('reads a callable that got no answer at all (the SDK says internal, HTTP status 0) as offline', () => {
    const error = toBackendError(new FakeFirebaseError('functions/internal', 'internal [0]'));
    expect(error.status).toBe('UNAVAILABLE');
    expect(error.message).toBe(OFFLINE_MESSAGE);
  });

  it('reads a lazily loaded SDK chunk that could not be fetched as offline', () => {
    const chunkError = Object.assign(new Error('Loading chunk 7 failed.'), { name: 'ChunkLoadError' });
    expect(toBackendError(chunkError).status).toBe('UNAVAILABLE');
  });

  it('turns anything else into a plain INTERNAL error', () => {
    const error = toBackendError(new TypeError('boom'));
    expect(error.status).toBe('INTERNAL');
    expect(error.message).toBe('Something went wrong. Please try again.');
  });

  it('passes a BackendError through unchanged', () => {
    const original = new BackendError('NOT_FOUND', 'gone');
    expect(toBackendError(original)).toBe(original);
  });
});

describe('guarded', () => {
  it('rethrows an SDK failure as a BackendError, never as the FirebaseError itself', async () => {
    const failure = guarded(() => Promise.reject(new FakeFirebaseError('auth/too-many-requests')));
    await expect(failure).rejects.toBeInstanceOf(BackendError);
    await expect(failure).rejects.toMatchObject({ status: 'RESOURCE_EXHAUSTED', name: 'BackendError' });
  });

  it('passes the result through when nothing fails', async () => {
    await expect(guarded(() => Promise.resolve(42))).resolves.toBe(42);
  });
});
