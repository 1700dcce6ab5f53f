import { createFirebaseBackend } from '@/backend/firebase';
import type { ProfilePatch } from '@/backend/ports';
import {
  CONFIG,
  DELETE_FIELD,
  FakeFirebaseError,
  docSnapshot,
  fakeUser,
  flushPromises,
  resetSdkFakes,
} from './sdkFakes';
import type * as Fakes from './sdkFakes';
import type { AuthFake, FakeDocSnapshot, FirestoreFake } from './sdkFakes';

jest.mock('firebase/app', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAppModule());
jest.mock('firebase/auth', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAuthModule());
jest.mock('firebase/firestore', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFirestoreModule());
jest.mock('firebase/functions', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFunctionsModule());
jest.mock('firebase/messaging', () => jest.requireActual<typeof Fakes>('./sdkFakes').createMessagingModule());

const auth = jest.requireMock<AuthFake>('firebase/auth');
const fs = jest.requireMock<FirestoreFake>('firebase/firestore');

beforeEach(() => resetSdkFakes());

const STORED = {
  email: 'ann@example.com',
  isOwner: true,
  domainId: 'acme',
  nickname: 'annie',
  displayName: 'Ann',
  notificationSettings: { enabled: false, delivery: { channels: ['push'] } },
  credits: 5,
  passCount: 2,
  effectiveConId: 'u1',
};

describe('users.getUser', () => {
  it('reads users/{uid} and answers the plain document', async () => {
    fs.getDoc.mockResolvedValue(docSnapshot('u1', STORED));
    const user = await createFirebaseBackend(CONFIG).users.getUser('u1');
    expect(fs.doc).toHaveBeenCalledWith(fs.db, 'users', 'u1');
    expect(fs.getDoc.mock.calls[0]?.[0]).toMatchObject({ path: 'users/u1' });
    expect(user).toStrictEqual({ uid: 'u1', ...STORED });
  });

  it('refuses an answer from the cache alone, as the embedded server refuses offline', async () => {
    fs.getDoc.mockResolvedValue(docSnapshot('u1', STORED, { fromCache: true }));
    await expect(createFirebaseBackend(CONFIG).users.getUser('u1')).rejects.toMatchObject({
      status: 'UNAVAILABLE',
    });
  });

  it('is null when the document does not exist', async () => {
    fs.getDoc.mockResolvedValue(docSnapshot('u1'));
    await expect(createFirebaseBackend(CONFIG).users.getUser('u1')).resolves.toBeNull();
  });

  it('fills missing fields (settings missing: not opted in, spec §5) and the email from the signed-in account', async () => {
    auth.instance.currentUser = fakeUser({ uid: 'u1', email: 'ann@example.com' });
    fs.getDoc.mockResolvedValue(docSnapshot('u1', {}));
    await expect(createFirebaseBackend(CONFIG).users.getUser('u1')).resolves.toStrictEqual({
      uid: 'u1',
      email: 'ann@example.com',
      isOwner: false,
      notificationSettings: { enabled: false, delivery: { channels: [] } },
      credits: 0,
      passCount: 0,
      effectiveConId: '',
    });
  });

  it('does not take fields of the wrong type (a string isOwner, a negative balance, an unknown channel)', async () => {
    fs.getDoc.mockResolvedValue(
      docSnapshot('u1', {
        isOwner: 'true',
        credits: -3,
        passCount: 'many',
        nickname: 42,
        notificationSettings: { enabled: 'yes', delivery: { channels: ['push', 'sms', 'push'] } },
      }),
    );
    const user = await createFirebaseBackend(CONFIG).users.getUser('u1');
    expect(user).toMatchObject({ isOwner: false, credits: 0, passCount: 0 });
    expect(user?.nickname).toBeUndefined();
    // A malformed `enabled` is not an opt-in (spec §5).
    expect(user?.notificationSettings).toStrictEqual({ enabled: false, delivery: { channels: [] } });
  });

  it('keeps the known channels of valid settings, once each', async () => {
    fs.getDoc.mockResolvedValue(
      docSnapshot('u1', {
        notificationSettings: { enabled: true, delivery: { channels: ['push', 'sms', 'push'] } },
      }),
    );
    const user = await createFirebaseBackend(CONFIG).users.getUser('u1');
    expect(user?.notificationSettings).toStrictEqual({ enabled: true, delivery: { channels: ['push'] } });
  });

  it('answers PERMISSION_DENIED when the rules refuse the read', async () => {
    fs.getDoc.mockRejectedValue(
      new FakeFirebaseError('permission-denied', 'Missing or insufficient permissions.'),
    );
    await expect(createFirebaseBackend(CONFIG).users.getUser('someone-else')).rejects.toMatchObject({
      name: 'BackendError',
      status: 'PERMISSION_DENIED',
    });
  });
});

describe('users.updateProfile', () => {
  it('writes only the nickname, display name and notification settings, trimmed', async () => {
    fs.getDoc.mockResolvedValue(docSnapshot('u1', { ...STORED, nickname: 'Nan' }));
    const patch = {
      nickname: '  Nan ',
      displayName: ' Ann B ',
      notificationSettings: { enabled: true, delivery: { channels: ['in_app'] }, extra: 1 },
      isOwner: true,
      credits: 1000,
    } as unknown as ProfilePatch;
    const user = await createFirebaseBackend(CONFIG).users.updateProfile('u1', patch);
    expect(fs.updateDoc).toHaveBeenCalledTimes(1);
    expect(fs.updateDoc.mock.calls[0]?.[0]).toMatchObject({ path: 'users/u1' });
    expect(fs.updateDoc.mock.calls[0]?.[1]).toStrictEqual({
      nickname: 'Nan',
      displayName: 'Ann B',
      notificationSettings: { enabled: true, delivery: { channels: ['in_app'] } },
    });
    expect(user.nickname).toBe('Nan');
  });

  it('removes the nickname when it is changed to nothing', async () => {
    fs.getDoc.mockResolvedValue(docSnapshot('u1', STORED));
    await createFirebaseBackend(CONFIG).users.updateProfile('u1', { nickname: '  ' });
    expect(fs.updateDoc).toHaveBeenCalledWith(expect.objectContaining({ path: 'users/u1' }), {
      nickname: DELETE_FIELD,
    });
  });

  it('answers the document as stored after the write', async () => {
    fs.getDoc.mockResolvedValue(docSnapshot('u1', { ...STORED, nickname: 'server-side' }));
    const user = await createFirebaseBackend(CONFIG).users.updateProfile('u1', { nickname: 'x' });
    expect(user).toStrictEqual({ uid: 'u1', ...STORED, nickname: 'server-side' });
  });

  it.each<[string, ProfilePatch]>([
    ['an empty patch', {}],
    ['a nickname that is too long', { nickname: 'n'.repeat(41) }],
    ['an empty display name', { displayName: '   ' }],
    [
      'an unknown delivery channel',
      { notificationSettings: { enabled: true, delivery: { channels: ['sms' as 'push'] } } },
    ],
    [
      'a repeated delivery channel',
      { notificationSettings: { enabled: true, delivery: { channels: ['push', 'push'] } } },
    ],
  ])('refuses %s without writing', async (_what, patch) => {
    await expect(createFirebaseBackend(CONFIG).users.updateProfile('u1', patch)).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
    });
    expect(fs.updateDoc).not.toHaveBeenCalled();
  });

  it('answers NOT_FOUND when the document does not exist', async () => {
    fs.updateDoc.mockRejectedValue(new FakeFirebaseError('not-found', 'No document to update'));
    await expect(
      createFirebaseBackend(CONFIG).users.updateProfile('u1', { nickname: 'x' }),
    ).rejects.toMatchObject({
      status: 'NOT_FOUND',
    });
  });
});

describe('users.subscribeUser', () => {
  type Next = (snapshot: FakeDocSnapshot) => void;

  it('listens to users/{uid} and passes each version on as a plain document', async () => {
    const seen: unknown[] = [];
    createFirebaseBackend(CONFIG).users.subscribeUser('u1', (user) => seen.push(user));
    await flushPromises();
    const [ref, options, next] = fs.onSnapshot.mock.calls[0] ?? [];
    expect(ref).toMatchObject({ type: 'doc', path: 'users/u1' });
    expect(options).toEqual({ includeMetadataChanges: true });
    (next as Next)(docSnapshot('u1', { ...STORED, credits: 7 }));
    expect(seen).toStrictEqual([{ uid: 'u1', ...STORED, credits: 7 }]);
  });

  it('gives the person’s own document the account’s name when it has none (a sign-up left before naming it), once', async () => {
    auth.instance.currentUser = fakeUser({ uid: 'u1', displayName: 'Ann Example' });
    const { displayName: _none, nickname: _neither, ...unnamed } = STORED;
    const seen: unknown[] = [];
    createFirebaseBackend(CONFIG).users.subscribeUser('u1', (user) => seen.push(user));
    await flushPromises();
    const next = fs.onSnapshot.mock.calls[0]?.[2] as Next;
    next(docSnapshot('u1', unnamed));
    next(docSnapshot('u1', { ...unnamed, credits: 6 }));
    expect(fs.updateDoc).toHaveBeenCalledTimes(1);
    expect(fs.updateDoc).toHaveBeenCalledWith(expect.objectContaining({ path: 'users/u1' }), {
      displayName: 'Ann Example',
    });
    expect(seen).toHaveLength(2);
  });

  it('leaves a named document, and someone else’s, as they are', async () => {
    auth.instance.currentUser = fakeUser({ uid: 'u1', displayName: 'Ann Example' });
    const { displayName: _none, ...unnamed } = STORED;
    createFirebaseBackend(CONFIG).users.subscribeUser('u1', () => undefined);
    createFirebaseBackend(CONFIG).users.subscribeUser('u2', () => undefined);
    await flushPromises();
    (fs.onSnapshot.mock.calls[0]?.[2] as Next)(docSnapshot('u1', STORED));
    (fs.onSnapshot.mock.calls[1]?.[2] as Next)(docSnapshot('u2', unnamed));
    expect(fs.updateDoc).not.toHaveBeenCalled();
  });

  it('passes on the server’s versions only, also one that confirms what the cache held', async () => {
    const seen: unknown[] = [];
    createFirebaseBackend(CONFIG).users.subscribeUser('u1', (user) => seen.push(user));
    await flushPromises();
    const next = fs.onSnapshot.mock.calls[0]?.[2] as Next;
    next(docSnapshot('u1', STORED, { fromCache: true }));
    expect(seen).toEqual([]);
    next(docSnapshot('u1', STORED));
    expect(seen).toStrictEqual([{ uid: 'u1', ...STORED }]);
  });

  it('stays quiet while the document does not exist', async () => {
    const listener = jest.fn();
    createFirebaseBackend(CONFIG).users.subscribeUser('u1', listener);
    await flushPromises();
    (fs.onSnapshot.mock.calls[0]?.[2] as Next)(docSnapshot('u1'));
    expect(listener).not.toHaveBeenCalled();
  });

  it('stops the Firestore listener when unsubscribed', async () => {
    const stop = jest.fn();
    fs.onSnapshot.mockReturnValue(stop);
    const unsubscribe = createFirebaseBackend(CONFIG).users.subscribeUser('u1', () => undefined);
    await flushPromises();
    unsubscribe();
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('never starts listening when unsubscribed before Firestore has loaded', async () => {
    const unsubscribe = createFirebaseBackend(CONFIG).users.subscribeUser('u1', () => undefined);
    unsubscribe();
    await flushPromises();
    expect(fs.onSnapshot).not.toHaveBeenCalled();
  });

  it('logs a listener the backend ends as a BackendError (there is no caller to throw to)', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    createFirebaseBackend(CONFIG).users.subscribeUser('u1', () => undefined);
    await flushPromises();
    const onError = fs.onSnapshot.mock.calls[0]?.[3] as (error: unknown) => void;
    onError(new FakeFirebaseError('permission-denied'));
    expect(log).toHaveBeenCalledWith(
      'Live profile updates stopped',
      expect.objectContaining({ name: 'BackendError', status: 'PERMISSION_DENIED' }),
    );
  });
});
