// A session ended elsewhere, on Firebase, met as on the embedded server: the refused request says "Your session has
// ended. Sign in again." and this window signs out (the app then shows why, authSaga signedOutUnasked). A
// callable's UNAUTHENTICATED signs out as it is; a rules refusal is told apart by revocations/{uid} against the ID
// token's auth_time (firestore.rules sessionStands()). Through the real ports, on the SDK's functions faked.
import { createFirebaseBackend } from '@/backend/firebase';
import { SESSION_ENDED_MESSAGE } from '@core/errors';
import { CONFIG, FakeFirebaseError, docSnapshot, fakeUser, resetSdkFakes } from './sdkFakes';
import type * as Fakes from './sdkFakes';
import type { AuthFake, FakeRef, FirestoreFake, FunctionsFake } from './sdkFakes';

jest.mock('firebase/app', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAppModule());
jest.mock('firebase/auth', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAuthModule());
jest.mock('firebase/firestore', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFirestoreModule());
jest.mock('firebase/functions', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFunctionsModule());

const auth = jest.requireMock<AuthFake>('firebase/auth');
const fs = jest.requireMock<FirestoreFake>('firebase/firestore');
const fn = jest.requireMock<FunctionsFake>('firebase/functions');

/** When this session began (its ID token's auth_time, seconds). */
const SIGNED_IN_AT = 1_800_000_000;

beforeEach(() => {
  resetSdkFakes();
  auth.instance.currentUser = fakeUser({ uid: 'u1' });
  auth.getIdTokenResult.mockResolvedValue({ claims: { auth_time: String(SIGNED_IN_AT) } });
  // As the SDK's: signed out, nobody is signed in.
  auth.signOut.mockImplementation(async () => {
    auth.instance.currentUser = null;
  });
});

/** Firestore refuses the channel (the rules), and holds this revocation record. */
function refusedWithRevocation(revocation: Record<string, unknown> | Error | undefined) {
  fs.getDoc.mockImplementation(async (ref: FakeRef) => {
    if (ref.path === 'revocations/u1') {
      if (revocation instanceof Error) throw revocation;
      return docSnapshot('u1', revocation);
    }
    throw new FakeFirebaseError('permission-denied', 'Missing or insufficient permissions.');
  });
}

describe('a rules refusal', () => {
  it('of a session begun before its account’s sessions were revoked: signed out, in the embedded server’s words', async () => {
    refusedWithRevocation({ revokedBefore: SIGNED_IN_AT + 60 });
    await expect(
      createFirebaseBackend(CONFIG).channels.getChannel('ChannelA000000000001'),
    ).rejects.toMatchObject({
      name: 'BackendError',
      status: 'UNAUTHENTICATED',
      message: SESSION_ENDED_MESSAGE,
      reason: 'session-expired',
    });
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['no revocation at all', undefined],
    ['a revocation before this session began', { revokedBefore: SIGNED_IN_AT - 60 }],
    ['a revocation in the very second it began', { revokedBefore: SIGNED_IN_AT }],
    ['a record that cannot be read (offline)', new FakeFirebaseError('unavailable')],
  ])('with %s: the refusal stands, still signed in', async (_label, revocation) => {
    refusedWithRevocation(revocation);
    await expect(
      createFirebaseBackend(CONFIG).channels.getChannel('ChannelA000000000001'),
    ).rejects.toMatchObject({
      status: 'PERMISSION_DENIED',
    });
    expect(auth.signOut).not.toHaveBeenCalled();
  });

  it('of the handle look-up answers no channel, but signs a revoked session out all the same', async () => {
    refusedWithRevocation(undefined);
    const backend = createFirebaseBackend(CONFIG);
    await expect(backend.channels.findChannelByHandle('strategy-studio')).resolves.toBeNull();
    refusedWithRevocation({ revokedBefore: SIGNED_IN_AT + 60 });
    await expect(backend.channels.findChannelByHandle('strategy-studio')).rejects.toMatchObject({
      status: 'UNAUTHENTICATED',
      message: SESSION_ENDED_MESSAGE,
    });
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });
});

describe("a callable's UNAUTHENTICATED", () => {
  it('signs this window out and says what the function said', async () => {
    fn.callable.mockRejectedValue(
      new FakeFirebaseError('functions/unauthenticated', SESSION_ENDED_MESSAGE, {
        reason: 'session-expired',
      }),
    );
    await expect(createFirebaseBackend(CONFIG).channels.listOverview()).rejects.toMatchObject({
      status: 'UNAUTHENTICATED',
      message: SESSION_ENDED_MESSAGE,
      reason: 'session-expired',
    });
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });

  it('leaves a signed-out window as it is', async () => {
    auth.instance.currentUser = null;
    fn.callable.mockRejectedValue(new FakeFirebaseError('functions/unauthenticated', 'Sign in to continue.'));
    await expect(createFirebaseBackend(CONFIG).channels.listOverview()).rejects.toMatchObject({
      status: 'UNAUTHENTICATED',
    });
    expect(auth.signOut).not.toHaveBeenCalled();
  });
});
