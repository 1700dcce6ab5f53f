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
import type { FirestoreFake } from './sdkFakes';

jest.mock('firebase/app', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAppModule());
jest.mock('firebase/auth', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAuthModule());
jest.mock('firebase/firestore', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFirestoreModule());
jest.mock('firebase/functions', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFunctionsModule());
jest.mock('firebase/messaging', () => jest.requireActual<typeof Fakes>('./sdkFakes').createMessagingModule());

const fs = jest.requireMock<FirestoreFake>('firebase/firestore');

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

  beforeEach(() => {
    fs.getDocs.mockResolvedValue(querySnapshot([]));
    fs.addDoc.mockResolvedValue({ id: 't2' });
  });

  it('adds an active token document with the server time as createdAt and lastUsed', async () => {
    jest.spyOn(Date, 'now').mockReturnValue(5000);
    const added = await createFirebaseBackend(CONFIG).pushTokens.addToken('u1', input);
    expect(fs.addDoc).toHaveBeenCalledWith(
      expect.objectContaining({ type: 'collection', path: 'users/u1/FCMTokens' }),
      {
        token: TOKEN,
        deviceId: 'device-1',
        platform: 'web',
        userAgent: 'UA',
        status: 'active',
        createdAt: SERVER_TIMESTAMP,
        lastUsed: SERVER_TIMESTAMP,
      },
    );
    expect(added).toStrictEqual({ id: 't2', ...input, status: 'active', createdAt: 5000, lastUsed: 5000 });
  });

  it('writes nothing but the fields of a token document', async () => {
    await createFirebaseBackend(CONFIG).pushTokens.addToken('u1', {
      ...input,
      isOwner: true,
    } as typeof input);
    expect(fs.addDoc.mock.calls[0]?.[1]).not.toHaveProperty('isOwner');
  });

  it('answers the document there is for the same token on the same device, and writes nothing', async () => {
    fs.getDocs.mockResolvedValue(querySnapshot([docSnapshot('t1', stored)]));
    const found = await createFirebaseBackend(CONFIG).pushTokens.addToken('u1', {
      ...input,
      platform: 'android',
    });
    expect(found.id).toBe('t1');
    expect(fs.addDoc).not.toHaveBeenCalled();
    expect(fs.deleteDoc).not.toHaveBeenCalled();
  });

  it("replaces the device's document when the device has a new token (spec §4)", async () => {
    fs.getDocs.mockImplementation(async (q) => {
      const [constraint] = (q as { constraints: Array<{ where: unknown[] }> }).constraints;
      return querySnapshot(constraint?.where[0] === 'deviceId' ? [docSnapshot('t1', stored)] : []);
    });
    const added = await createFirebaseBackend(CONFIG).pushTokens.addToken('u1', {
      ...input,
      token: `${TOKEN}-new`,
    });
    expect(fs.deleteDoc).toHaveBeenCalledWith(expect.objectContaining({ path: 'users/u1/FCMTokens/t1' }));
    expect(added.id).toBe('t2');
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
    expect(fs.getDocs).not.toHaveBeenCalled();
    expect(fs.addDoc).not.toHaveBeenCalled();
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
