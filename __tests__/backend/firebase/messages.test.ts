import { createFirebaseBackend } from '@/backend/firebase';
import type { UserDoc } from '@core/model';
import {
  CONFIG,
  FakeFirebaseError,
  FakeTimestamp,
  SERVER_TIMESTAMP,
  docSnapshot,
  fakeUser,
  flushPromises,
  liveSnapshot,
  querySnapshot,
  resetSdkFakes,
} from './sdkFakes';
import type * as Fakes from './sdkFakes';
import type { AuthFake, FakeChange, FirestoreFake } from './sdkFakes';

jest.mock('firebase/app', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAppModule());
jest.mock('firebase/auth', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAuthModule());
jest.mock('firebase/firestore', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFirestoreModule());
jest.mock('firebase/functions', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFunctionsModule());
jest.mock('firebase/messaging', () => jest.requireActual<typeof Fakes>('./sdkFakes').createMessagingModule());

const auth = jest.requireMock<AuthFake>('firebase/auth');
const fs = jest.requireMock<FirestoreFake>('firebase/firestore');

beforeEach(() => resetSdkFakes());

const message = (id: string, seconds: number, text = `text ${id}`) =>
  docSnapshot(id, { senderId: 'u1', senderName: 'Ann', text, createdAt: new FakeTimestamp(seconds, 0) });

describe('messages.listMessages', () => {
  it('takes the newest page of channels/{id}/messages and answers it newest last', async () => {
    fs.getDocs.mockResolvedValue(querySnapshot([message('m3', 3), message('m2', 2), message('m1', 1)]));
    const messages = await createFirebaseBackend(CONFIG).messages.listMessages('ch1');
    expect(fs.getDocs).toHaveBeenCalledWith({
      type: 'query',
      path: 'channels/ch1/messages',
      constraints: [{ orderBy: ['createdAt', 'desc'] }, { limit: 50 }],
    });
    expect(messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
    expect(messages[0]).toStrictEqual({
      id: 'm1',
      channelId: 'ch1',
      senderId: 'u1',
      senderName: 'Ann',
      text: 'text m1',
      createdAt: 1000,
    });
  });

  it('pages back from `before` with startAfter on the same descending order', async () => {
    fs.getDocs.mockResolvedValue(querySnapshot([]));
    await createFirebaseBackend(CONFIG).messages.listMessages('ch1', {
      before: 1_700_000_000_500,
      limit: 20,
    });
    expect(fs.getDocs).toHaveBeenCalledWith({
      type: 'query',
      path: 'channels/ch1/messages',
      constraints: [
        { orderBy: ['createdAt', 'desc'] },
        { startAfter: [FakeTimestamp.fromMillis(1_700_000_000_500)] },
        { limit: 20 },
      ],
    });
  });

  it('keeps the page size within 1 and the page maximum of core/limits', async () => {
    fs.getDocs.mockResolvedValue(querySnapshot([]));
    const backend = createFirebaseBackend(CONFIG);
    await backend.messages.listMessages('ch1', { limit: 10_000 });
    await backend.messages.listMessages('ch1', { limit: 0 });
    expect(fs.limit.mock.calls).toEqual([[100], [1]]);
  });
});

describe('messages.sendMessage', () => {
  it('adds the message with the server time and answers it with its new id', async () => {
    auth.instance.currentUser = fakeUser({ uid: 'u1', displayName: 'Ann' });
    fs.addDoc.mockResolvedValue({ id: 'm9' });
    jest.spyOn(Date, 'now').mockReturnValue(1234);
    const sent = await createFirebaseBackend(CONFIG).messages.sendMessage('ch1', '  Hello there ');
    expect(fs.addDoc).toHaveBeenCalledWith(expect.objectContaining({ path: 'channels/ch1/messages' }), {
      senderId: 'u1',
      senderName: 'Ann',
      text: 'Hello there',
      createdAt: SERVER_TIMESTAMP,
    });
    expect(sent).toStrictEqual({
      id: 'm9',
      channelId: 'ch1',
      senderId: 'u1',
      senderName: 'Ann',
      text: 'Hello there',
      createdAt: 1234,
    });
  });

  it("signs the message with the person's nickname once their user document has been read", async () => {
    auth.instance.currentUser = fakeUser({ uid: 'u1', displayName: 'Ann' });
    const stored: Partial<UserDoc> = { nickname: 'annie' };
    fs.getDoc.mockResolvedValue(docSnapshot('u1', stored));
    const backend = createFirebaseBackend(CONFIG);
    await backend.users.getUser('u1');
    await backend.messages.sendMessage('ch1', 'hi');
    expect(fs.addDoc.mock.calls[0]?.[1]).toMatchObject({ senderName: 'annie' });
  });

  it.each([
    ['an empty message', '   '],
    ['a message over the limit of core/limits', 'x'.repeat(4001)],
  ])('refuses %s without writing', async (_what, text) => {
    auth.instance.currentUser = fakeUser();
    await expect(createFirebaseBackend(CONFIG).messages.sendMessage('ch1', text)).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
    });
    expect(fs.addDoc).not.toHaveBeenCalled();
  });

  it('asks to sign in when nobody is signed in', async () => {
    await expect(createFirebaseBackend(CONFIG).messages.sendMessage('ch1', 'hi')).rejects.toMatchObject({
      status: 'UNAUTHENTICATED',
    });
  });

  it('answers PERMISSION_DENIED when the rules refuse the write (not a member)', async () => {
    auth.instance.currentUser = fakeUser();
    fs.addDoc.mockRejectedValue(new FakeFirebaseError('permission-denied'));
    await expect(createFirebaseBackend(CONFIG).messages.sendMessage('ch1', 'hi')).rejects.toMatchObject({
      name: 'BackendError',
      status: 'PERMISSION_DENIED',
    });
  });
});

describe('messages.subscribeMessages', () => {
  type Next = (snapshot: ReturnType<typeof liveSnapshot>) => void;
  const added = (id: string, seconds: number): FakeChange => ({ type: 'added', doc: message(id, seconds) });

  async function subscribe() {
    const seen: string[] = [];
    const unsubscribe = createFirebaseBackend(CONFIG).messages.subscribeMessages('ch1', (m) =>
      seen.push(m.id),
    );
    await flushPromises();
    const [query, options, next] = fs.onSnapshot.mock.calls[0] ?? [];
    return { seen, unsubscribe, query, options, next: next as Next };
  }

  it('listens to the newest messages of the channel, metadata changes included', async () => {
    const { query, options } = await subscribe();
    expect(query).toEqual({
      type: 'query',
      path: 'channels/ch1/messages',
      constraints: [{ orderBy: ['createdAt', 'desc'] }, { limit: 50 }],
    });
    expect(options).toEqual({ includeMetadataChanges: true });
  });

  it('skips the messages that exist when it starts, then passes on each new one', async () => {
    const { seen, next } = await subscribe();
    next(liveSnapshot([added('old1', 1), added('old2', 2)]));
    next(liveSnapshot([added('new1', 3)]));
    expect(seen).toEqual(['new1']);
  });

  it("counts what the server's first answer brings as existing, even after a snapshot from the cache", async () => {
    const { seen, next } = await subscribe();
    next(liveSnapshot([added('cached', 2)], true));
    next(liveSnapshot([added('older-on-server', 1)]));
    next(liveSnapshot([added('new1', 3)]));
    expect(seen).toEqual(['new1']);
  });

  it('passes several new messages on oldest first, and ignores edits and messages leaving the window', async () => {
    const { seen, next } = await subscribe();
    next(liveSnapshot([]));
    next(
      liveSnapshot([
        added('b', 5),
        added('a', 4),
        { type: 'modified', doc: message('x', 1) },
        { type: 'removed', doc: message('y', 0) },
      ]),
    );
    expect(seen).toEqual(['a', 'b']);
  });

  it('passes messages on as plain documents with epoch-millisecond times', async () => {
    const received: unknown[] = [];
    createFirebaseBackend(CONFIG).messages.subscribeMessages('ch1', (m) => received.push(m));
    await flushPromises();
    const next = fs.onSnapshot.mock.calls[0]?.[2] as Next;
    next(liveSnapshot([]));
    next(liveSnapshot([added('m1', 7)]));
    expect(received).toStrictEqual([
      { id: 'm1', channelId: 'ch1', senderId: 'u1', senderName: 'Ann', text: 'text m1', createdAt: 7000 },
    ]);
  });

  it('stops the Firestore listener when unsubscribed', async () => {
    const stop = jest.fn();
    fs.onSnapshot.mockReturnValue(stop);
    const { unsubscribe } = await subscribe();
    unsubscribe();
    expect(stop).toHaveBeenCalledTimes(1);
  });
});
