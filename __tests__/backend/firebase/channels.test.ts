import { createFirebaseBackend } from '@/backend/firebase';
import { OFFLINE_MESSAGE } from '@/backend/firebase/errors';
import {
  CONFIG,
  FakeFirebaseError,
  FakeTimestamp,
  docSnapshot,
  fakeUser,
  querySnapshot,
  resetSdkFakes,
} from './sdkFakes';
import type * as Fakes from './sdkFakes';
import type { AuthFake, FirestoreFake, FunctionsFake } from './sdkFakes';

jest.mock('firebase/app', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAppModule());
jest.mock('firebase/auth', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAuthModule());
jest.mock('firebase/firestore', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFirestoreModule());
jest.mock('firebase/functions', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFunctionsModule());
jest.mock('firebase/messaging', () => jest.requireActual<typeof Fakes>('./sdkFakes').createMessagingModule());

const auth = jest.requireMock<AuthFake>('firebase/auth');
const fs = jest.requireMock<FirestoreFake>('firebase/firestore');
const fn = jest.requireMock<FunctionsFake>('firebase/functions');

beforeEach(() => resetSdkFakes());

const channelData = (overrides: Record<string, unknown> = {}) => ({
  channelId: 'tax-help',
  ownerId: 'c1',
  title: 'Tax help',
  description: 'Questions about taxes',
  members: ['u1', 'u2'],
  createdAt: new FakeTimestamp(1_700_000_000, 250_900_000),
  ...overrides,
});

describe('channels.getChannel', () => {
  it('reads channels/{id} and turns its Timestamp into whole epoch milliseconds', async () => {
    fs.getDoc.mockResolvedValue(docSnapshot('ch1', channelData()));
    const channel = await createFirebaseBackend(CONFIG).channels.getChannel('ch1');
    expect(fs.doc).toHaveBeenCalledWith(fs.db, 'channels', 'ch1');
    expect(channel).toStrictEqual({
      id: 'ch1',
      channelId: 'tax-help',
      ownerId: 'c1',
      title: 'Tax help',
      description: 'Questions about taxes',
      members: ['u1', 'u2'],
      createdAt: 1_700_000_000_250,
    });
  });

  it('reads pending server timestamps as the local estimate', async () => {
    const snapshot = docSnapshot('ch1', channelData());
    fs.getDoc.mockResolvedValue(snapshot);
    await createFirebaseBackend(CONFIG).channels.getChannel('ch1');
    expect(snapshot.data).toHaveBeenCalledWith({ serverTimestamps: 'estimate' });
  });

  it('is null when the channel does not exist', async () => {
    fs.getDoc.mockResolvedValue(docSnapshot('ch1'));
    await expect(createFirebaseBackend(CONFIG).channels.getChannel('ch1')).resolves.toBeNull();
  });

  it('answers PERMISSION_DENIED for a channel the person is not in', async () => {
    fs.getDoc.mockRejectedValue(new FakeFirebaseError('permission-denied'));
    await expect(createFirebaseBackend(CONFIG).channels.getChannel('ch1')).rejects.toMatchObject({
      name: 'BackendError',
      status: 'PERMISSION_DENIED',
    });
  });
});

describe('channels.findChannelByHandle', () => {
  const ID = 'ChannelTaxHelp000001';
  /** channelHandles/{handle} → {id}, and channels/{id}: what the fake Firestore holds, by path. */
  const holding = (documents: Record<string, Record<string, unknown> | Error>) =>
    fs.getDoc.mockImplementation(async (ref) => {
      const stored = documents[ref.path];
      if (stored instanceof Error) throw stored;
      return docSnapshot(ref.path.split('/').at(-1) ?? '', stored);
    });

  beforeEach(() => {
    auth.instance.currentUser = fakeUser({ uid: 'u1' });
  });

  it('reads the handle (channelHandles/{handle} → id), then the channel by id: no query over channels', async () => {
    holding({ 'channelHandles/tax-help': { id: ID }, [`channels/${ID}`]: channelData() });
    const channel = await createFirebaseBackend(CONFIG).channels.findChannelByHandle('tax-help');
    expect(channel?.id).toBe(ID);
    expect(fs.getDoc.mock.calls.map(([ref]) => ref.path)).toEqual([
      'channelHandles/tax-help',
      `channels/${ID}`,
    ]);
    expect(fs.getDocs).not.toHaveBeenCalled();
  });

  it('is null when no channel has that handle', async () => {
    holding({});
    await expect(createFirebaseBackend(CONFIG).channels.findChannelByHandle('nope')).resolves.toBeNull();
  });

  it('is null for a channel the person may not read (rules refuse the get), as on the embedded server', async () => {
    holding({
      'channelHandles/tax-help': { id: ID },
      [`channels/${ID}`]: new FakeFirebaseError('permission-denied', 'Missing or insufficient permissions.'),
    });
    await expect(createFirebaseBackend(CONFIG).channels.findChannelByHandle('tax-help')).resolves.toBeNull();
  });

  it('reads nothing for what is no handle, and trusts no handle document that holds no id', async () => {
    holding({ 'channelHandles/tax-help': { id: '../users/u2' } });
    await expect(
      createFirebaseBackend(CONFIG).channels.findChannelByHandle('Tax Help/..'),
    ).resolves.toBeNull();
    expect(fs.getDoc).not.toHaveBeenCalled();
    await expect(createFirebaseBackend(CONFIG).channels.findChannelByHandle('tax-help')).resolves.toBeNull();
    expect(fs.getDoc).toHaveBeenCalledTimes(1);
  });

  it('passes on other failures (offline) as theirs', async () => {
    holding({
      'channelHandles/tax-help': { id: ID },
      [`channels/${ID}`]: new FakeFirebaseError('unavailable', 'offline'),
    });
    await expect(
      createFirebaseBackend(CONFIG).channels.findChannelByHandle('tax-help'),
    ).rejects.toMatchObject({ name: 'BackendError', message: OFFLINE_MESSAGE });
  });

  it('answers UNAUTHENTICATED when nobody is signed in', async () => {
    auth.instance.currentUser = null;
    await expect(
      createFirebaseBackend(CONFIG).channels.findChannelByHandle('tax-help'),
    ).rejects.toMatchObject({
      status: 'UNAUTHENTICATED',
    });
  });
});

describe('channels.listMyChannels', () => {
  it('merges the channels the person owns and those they are a member of, each once, oldest first', async () => {
    auth.instance.currentUser = fakeUser({ uid: 'c1' });
    const owned = docSnapshot('a', channelData({ createdAt: new FakeTimestamp(300, 0) }));
    const both = docSnapshot('b', channelData({ createdAt: new FakeTimestamp(100, 0) }));
    const joined = docSnapshot('c', channelData({ ownerId: 'c2', createdAt: new FakeTimestamp(200, 0) }));
    fs.getDocs.mockImplementation(async (q) => {
      const [constraint] = (q as { constraints: Array<{ where: unknown[] }> }).constraints;
      return querySnapshot(constraint?.where[0] === 'ownerId' ? [owned, both] : [both, joined]);
    });
    const channels = await createFirebaseBackend(CONFIG).channels.listMyChannels();
    expect(fs.getDocs).toHaveBeenCalledWith({
      type: 'query',
      path: 'channels',
      constraints: [{ where: ['ownerId', '==', 'c1'] }],
    });
    expect(fs.getDocs).toHaveBeenCalledWith({
      type: 'query',
      path: 'channels',
      constraints: [{ where: ['members', 'array-contains', 'c1'] }],
    });
    expect(channels.map((c) => c.id)).toEqual(['b', 'c', 'a']);
  });

  it('asks to sign in when nobody is signed in, without querying', async () => {
    await expect(createFirebaseBackend(CONFIG).channels.listMyChannels()).rejects.toMatchObject({
      status: 'UNAUTHENTICATED',
    });
    expect(fs.getDocs).not.toHaveBeenCalled();
  });
});

describe('channels.markRead', () => {
  const MESSAGE = 'MessageStudio0000003';

  it('calls mark_channel_read with the channel and the message read up to', async () => {
    fn.callable.mockResolvedValue({ data: { success: true } });
    await expect(createFirebaseBackend(CONFIG).channels.markRead('ch1', MESSAGE)).resolves.toBeUndefined();
    expect(fn.httpsCallable).toHaveBeenCalledWith(fn.functions, 'mark_channel_read');
    expect(fn.callable).toHaveBeenCalledWith({ channelId: 'ch1', messageId: MESSAGE });
  });

  it('sends a mark made while leaving the same way, at once (a callable cannot outlive the page)', async () => {
    fn.callable.mockResolvedValue({ data: { success: true } });
    await createFirebaseBackend(CONFIG).channels.markRead('ch1', MESSAGE, { leaving: true });
    expect(fn.callable).toHaveBeenCalledWith({ channelId: 'ch1', messageId: MESSAGE });
  });

  it('answers NOT_FOUND for a message the channel does not have, with the backend’s words', async () => {
    fn.callable.mockRejectedValue(
      new FakeFirebaseError('functions/not-found', 'There is no such message in this channel.'),
    );
    await expect(createFirebaseBackend(CONFIG).channels.markRead('ch1', MESSAGE)).rejects.toMatchObject({
      name: 'BackendError',
      status: 'NOT_FOUND',
      message: 'There is no such message in this channel.',
    });
  });
});
