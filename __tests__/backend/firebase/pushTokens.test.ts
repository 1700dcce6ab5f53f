import { createFirebaseBackend } from '@/backend/firebase';
import {
  CONFIG,
  FakeFirebaseError,
  FakeTimestamp,
  SERVER_TIMESTAMP,
  docSnapshot,
  querySnapshot,
  resetSdkFakes,
} from './sdkFakes';
import type * as Fakes from './sdkFakes';
import type { FirestoreFake, FunctionsFake } from './sdkFakes';

jest.mock('firebase/app', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAppModule());
jest.mock('firebase/auth', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAuthModule());
jest.mock('firebase/firestore', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFirestoreModule());
jest.mock('firebase/functions', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFunctionsModule());
jest.mock('firebase/messaging', () => jest.requireActual<typeof Fakes>('./sdkFakes').createMessagingModule());

const fs = jest.requireMock<FirestoreFake>('firebase/firestore');
const fn = jest.requireMock<FunctionsFake>('firebase/functions');

beforeEach(() => resetSdkFakes());

const TOKEN = 'fcm-token-0123456789abcdef';
const stored = {
  token: TOKEN,
  deviceId: 'device-1',
  createdAt: new FakeTimestamp(100, 0),
  lastUsed: new FakeTimestamp(200, 5_000_000),
  status: 'active',
  platform: 'android',
  userAgent: 'Mozilla/5.0',
};
const plain = {
  id: 't1',
  token: TOKEN,
  deviceId: 'device-1',
  createdAt: 100_000,
  lastUsed: 200_005,
  status: 'active',
  platform: 'android',
  userAgent: 'Mozilla/5.0',
};

describe('pushTokens.findActiveToken', () => {
  it('queries users/{uid}/FCMTokens by token and status active, limit 1 (spec §7)', async () => {
    fs.getDocs.mockResolvedValue(querySnapshot([docSnapshot('t1', stored)]));
    const found = await createFirebaseBackend(CONFIG).pushTokens.findActiveToken('u1', TOKEN);
    expect(fs.getDocs).toHaveBeenCalledWith({
      type: 'query',
      path: 'users/u1/FCMTokens',
      constraints: [{ where: ['token', '==', TOKEN] }, { where: ['status', '==', 'active'] }, { limit: 1 }],
    });
    expect(found).toStrictEqual(plain);
  });

  it('is null when this token is not stored', async () => {
    fs.getDocs.mockResolvedValue(querySnapshot([]));
    await expect(createFirebaseBackend(CONFIG).pushTokens.findActiveToken('u1', TOKEN)).resolves.toBeNull();
  });
});

describe('pushTokens.addToken', () => {
  const input = { token: TOKEN, deviceId: 'device-1', platform: 'web' as const, userAgent: 'UA' };
  const saved = { id: 't2', ...input, status: 'active', createdAt: 5000, lastUsed: 5000 };

  beforeEach(() => fn.callable.mockResolvedValue({ data: saved }));

  it("saves through save_push_token for the caller's account and answers the document the backend kept", async () => {
    const added = await createFirebaseBackend(CONFIG).pushTokens.addToken('u1', input);
    expect(fn.httpsCallable).toHaveBeenCalledWith(fn.functions, 'save_push_token');
    expect(fn.callable).toHaveBeenCalledWith({ userId: 'u1', ...input });
    expect(added).toStrictEqual(saved);
  });

  it('writes no token document itself: one per device is the backend’s to keep', async () => {
    await createFirebaseBackend(CONFIG).pushTokens.addToken('u1', input);
    expect([fs.addDoc, fs.setDoc, fs.deleteDoc, fs.getDocs].map((call) => call.mock.calls.length)).toEqual([
      0, 0, 0, 0,
    ]);
  });

  it('sends nothing but the fields of a token document', async () => {
    await createFirebaseBackend(CONFIG).pushTokens.addToken('u1', {
      ...input,
      isOwner: true,
    } as typeof input);
    expect(fn.callable.mock.calls[0]?.[0]).not.toHaveProperty('isOwner');
  });

  it('answers INTERNAL for an answer it cannot read', async () => {
    fn.callable.mockResolvedValue({ data: { token: TOKEN } });
    await expect(createFirebaseBackend(CONFIG).pushTokens.addToken('u1', input)).rejects.toMatchObject({
      name: 'BackendError',
      status: 'INTERNAL',
    });
  });

  it.each([
    ['a short token', { token: 'short' }],
    ['a token with spaces', { token: 'a token with spaces in it' }],
    ['an unknown platform', { platform: 'desktop' }],
    ['an empty device id', { deviceId: '' }],
    ['a long user agent', { userAgent: 'u'.repeat(513) }],
  ])('refuses %s as INVALID_ARGUMENT before any call', async (_label, change) => {
    await expect(
      createFirebaseBackend(CONFIG).pushTokens.addToken('u1', { ...input, ...change } as typeof input),
    ).rejects.toMatchObject({ name: 'BackendError', status: 'INVALID_ARGUMENT' });
    expect(fn.callable).not.toHaveBeenCalled();
  });
});

describe('pushTokens.touchToken', () => {
  it('sets lastUsed to the server time and answers the stored document', async () => {
    fs.getDoc.mockResolvedValue(docSnapshot('t1', stored));
    const touched = await createFirebaseBackend(CONFIG).pushTokens.touchToken('u1', 't1');
    expect(fs.updateDoc).toHaveBeenCalledWith(expect.objectContaining({ path: 'users/u1/FCMTokens/t1' }), {
      lastUsed: SERVER_TIMESTAMP,
    });
    expect(touched).toStrictEqual(plain);
  });

  it('answers NOT_FOUND for a token document that is gone', async () => {
    fs.updateDoc.mockRejectedValue(new FakeFirebaseError('not-found'));
    await expect(createFirebaseBackend(CONFIG).pushTokens.touchToken('u1', 't1')).rejects.toMatchObject({
      name: 'BackendError',
      status: 'NOT_FOUND',
    });
  });
});

describe('pushTokens.deleteToken', () => {
  it('deletes users/{uid}/FCMTokens/{id}', async () => {
    await createFirebaseBackend(CONFIG).pushTokens.deleteToken('u1', 't1');
    expect(fs.deleteDoc).toHaveBeenCalledWith(
      expect.objectContaining({ type: 'doc', path: 'users/u1/FCMTokens/t1' }),
    );
  });
});

describe('pushTokens.listMyTokens', () => {
  it("lists the person's token documents as plain documents, oldest first", async () => {
    const newer = docSnapshot('t9', { ...stored, createdAt: new FakeTimestamp(900, 0), platform: 'symbian' });
    fs.getDocs.mockResolvedValue(querySnapshot([newer, docSnapshot('t1', stored)]));
    const tokens = await createFirebaseBackend(CONFIG).pushTokens.listMyTokens('u1');
    expect(fs.getDocs).toHaveBeenCalledWith(
      expect.objectContaining({ type: 'collection', path: 'users/u1/FCMTokens' }),
    );
    expect(tokens.map((t) => t.id)).toEqual(['t1', 't9']);
    expect(tokens[0]).toStrictEqual(plain);
    expect(tokens[1]?.platform).toBe('web');
  });
});
