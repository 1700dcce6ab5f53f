// The Firebase adapter's MessagesPort against the SDK's functions faked one by one: which queries and writes it
// makes, and what it answers for what Firestore answers, including the answers Firestore gives that the contract
// suite's fake never would (a snapshot repeating a document, a read failing after a denied write).
import { createFirebaseBackend } from '@/backend/firebase';
import type { ChatMessage, UserDoc } from '@core/model';
import {
  CONFIG,
  DOCUMENT_ID,
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
import type { AuthFake, FakeChange, FakeRef, FirestoreFake } from './sdkFakes';

jest.mock('firebase/app', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAppModule());
jest.mock('firebase/auth', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAuthModule());
jest.mock('firebase/firestore', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFirestoreModule());
jest.mock('firebase/functions', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFunctionsModule());
jest.mock('firebase/messaging', () => jest.requireActual<typeof Fakes>('./sdkFakes').createMessagingModule());

const auth = jest.requireMock<AuthFake>('firebase/auth');
const fs = jest.requireMock<FirestoreFake>('firebase/firestore');

beforeEach(() => resetSdkFakes());

const ID = {
  a: 'AAAAAAAAAAAAAAAAAAA1',
  b: 'BBBBBBBBBBBBBBBBBBB1',
  c: 'CCCCCCCCCCCCCCCCCCC1',
  d: 'DDDDDDDDDDDDDDDDDDD1',
  e: 'EEEEEEEEEEEEEEEEEEE1',
};

/** A stored message at `ms` (and `micros` past it: Firestore keeps microseconds), by `senderId`. */
const message = (id: string, ms: number, { text = `text ${id}`, senderId = 'u1', micros = 0 } = {}) => {
  const at = FakeTimestamp.fromMillis(ms);
  return docSnapshot(id, {
    senderId,
    senderName: 'Ann',
    text,
    createdAt: new FakeTimestamp(at.seconds, at.nanoseconds + micros * 1000),
  });
};
const ids = (messages: ChatMessage[]) => messages.map((m) => m.id);
const T = (ms: number) => FakeTimestamp.fromMillis(ms);

describe('messages.listMessages', () => {
  it('takes the newest page in (createdAt, documentId) order and answers it oldest first', async () => {
    fs.getDocs.mockResolvedValue(
      querySnapshot([message(ID.c, 3000), message(ID.b, 2000), message(ID.a, 1000)]),
    );
    const messages = await createFirebaseBackend(CONFIG).messages.listMessages('ch1');
    expect(fs.getDocs).toHaveBeenCalledTimes(1);
    expect(fs.getDocs).toHaveBeenCalledWith({
      type: 'query',
      path: 'channels/ch1/messages',
      constraints: [{ orderBy: ['createdAt', 'desc'] }, { orderBy: [DOCUMENT_ID, 'desc'] }, { limit: 50 }],
    });
    expect(ids(messages)).toEqual([ID.a, ID.b, ID.c]);
    expect(messages[0]).toStrictEqual({
      id: ID.a,
      channelId: 'ch1',
      senderId: 'u1',
      senderName: 'Ann',
      text: `text ${ID.a}`,
      createdAt: 1000,
    });
  });

  it('reads the millisecond a full page ends in whole, and takes its newest by id, not by stored time', async () => {
    // Three messages share 2000 ms; C was stored first, A last, so Firestore's newest two are 3000 and A.
    fs.getDocs
      .mockResolvedValueOnce(querySnapshot([message(ID.e, 3000), message(ID.a, 2000, { micros: 900 })]))
      .mockResolvedValueOnce(
        querySnapshot([
          message(ID.c, 2000, { micros: 100 }),
          message(ID.b, 2000, { micros: 500 }),
          message(ID.a, 2000, { micros: 900 }),
        ]),
      );
    const page = await createFirebaseBackend(CONFIG).messages.listMessages('ch1', { limit: 2 });
    expect(fs.getDocs).toHaveBeenLastCalledWith({
      type: 'query',
      path: 'channels/ch1/messages',
      constraints: [{ where: ['createdAt', '>=', T(2000)] }, { where: ['createdAt', '<', T(2001)] }],
    });
    expect(ids(page)).toEqual([ID.c, ID.e]);
  });

  it('pages back from a cursor: the earlier ids of its millisecond, then what is older', async () => {
    fs.getDocs
      .mockResolvedValueOnce(querySnapshot([message(ID.c, 2000), message(ID.a, 2000), message(ID.b, 2000)]))
      .mockResolvedValueOnce(querySnapshot([message(ID.e, 1000)]));
    const page = await createFirebaseBackend(CONFIG).messages.listMessages('ch1', {
      before: { createdAt: 2000, id: ID.c },
      limit: 5,
    });
    expect(fs.getDocs.mock.calls[1]?.[0]).toEqual({
      type: 'query',
      path: 'channels/ch1/messages',
      constraints: [
        { where: ['createdAt', '<', T(2000)] },
        { orderBy: ['createdAt', 'desc'] },
        { orderBy: [DOCUMENT_ID, 'desc'] },
        { limit: 3 },
      ],
    });
    expect(ids(page)).toEqual([ID.e, ID.a, ID.b]);
  });

  it('reads nothing of the millisecond of a cursor without an id (it stands before all of it)', async () => {
    fs.getDocs.mockResolvedValue(querySnapshot([]));
    await createFirebaseBackend(CONFIG).messages.listMessages('ch1', { before: { createdAt: 2000, id: '' } });
    expect(fs.getDocs).toHaveBeenCalledTimes(1);
    expect(fs.where.mock.calls).toEqual([['createdAt', '<', T(2000)]]);
  });

  it('answers a page within the cursor’s millisecond without reading further', async () => {
    fs.getDocs.mockResolvedValueOnce(
      querySnapshot([message(ID.a, 2000), message(ID.b, 2000), message(ID.c, 2000), message(ID.d, 2000)]),
    );
    const page = await createFirebaseBackend(CONFIG).messages.listMessages('ch1', {
      before: { createdAt: 2000, id: ID.d },
      limit: 2,
    });
    expect(ids(page)).toEqual([ID.b, ID.c]);
    expect(fs.getDocs).toHaveBeenCalledTimes(1);
  });

  it('catches up after a cursor: the later ids of its millisecond, then the oldest that follow', async () => {
    fs.getDocs
      .mockResolvedValueOnce(querySnapshot([message(ID.c, 2000), message(ID.a, 2000)]))
      .mockResolvedValueOnce(querySnapshot([message(ID.d, 2001), message(ID.e, 4000)]))
      .mockResolvedValueOnce(querySnapshot([message(ID.e, 4000), message(ID.b, 4000)]));
    const page = await createFirebaseBackend(CONFIG).messages.listMessages('ch1', {
      after: { createdAt: 2000, id: ID.b },
      limit: 3,
    });
    expect(fs.getDocs.mock.calls[1]?.[0]).toEqual({
      type: 'query',
      path: 'channels/ch1/messages',
      constraints: [
        { where: ['createdAt', '>=', T(2001)] },
        { orderBy: ['createdAt', 'asc'] },
        { orderBy: [DOCUMENT_ID, 'asc'] },
        { limit: 2 },
      ],
    });
    // The page after the cursor was full: 4000's millisecond is read whole too, and its first id taken.
    expect(fs.getDocs).toHaveBeenCalledTimes(3);
    expect(ids(page)).toEqual([ID.c, ID.d, ID.b]);
  });

  it.each([
    ['both cursors', { before: { createdAt: 1, id: '' }, after: { createdAt: 1, id: '' } }],
    ['a cursor with a negative time', { before: { createdAt: -1, id: '' } }],
    ['a cursor with an id of the wrong shape', { after: { createdAt: 5, id: 'short' } }],
  ])('refuses %s as INVALID_ARGUMENT without reading', async (_what, options) => {
    await expect(createFirebaseBackend(CONFIG).messages.listMessages('ch1', options)).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
    });
    expect(fs.getDocs).not.toHaveBeenCalled();
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
  const path = (ref: unknown) => (ref as FakeRef).path;
  const stored = (data: Record<string, unknown>) => docSnapshot(ID.a, data);

  beforeEach(() => {
    auth.instance.currentUser = fakeUser({ uid: 'u1', displayName: 'Ann', email: 'ann@example.com' });
  });

  it('writes the message under the client’s id with the server’s time, and answers it as stored', async () => {
    fs.getDoc.mockImplementation(async (ref: FakeRef) =>
      ref.path === 'users/u1'
        ? docSnapshot('u1', { nickname: 'annie' })
        : stored({
            senderId: 'u1',
            senderName: 'annie',
            text: 'Hello there',
            createdAt: new FakeTimestamp(7, 5e8),
          }),
    );
    const sent = await createFirebaseBackend(CONFIG).messages.sendMessage('ch1', {
      id: ID.a,
      text: '  Hello there ',
    });
    expect(fs.setDoc).toHaveBeenCalledTimes(1);
    expect(path(fs.setDoc.mock.calls[0]?.[0])).toBe(`channels/ch1/messages/${ID.a}`);
    expect(fs.setDoc.mock.calls[0]?.[1]).toStrictEqual({
      senderId: 'u1',
      senderName: 'annie',
      text: 'Hello there',
      createdAt: SERVER_TIMESTAMP,
    });
    expect(fs.addDoc).not.toHaveBeenCalled();
    expect(sent).toStrictEqual({
      id: ID.a,
      channelId: 'ch1',
      senderId: 'u1',
      senderName: 'annie',
      text: 'Hello there',
      createdAt: 7500,
    });
  });

  it('reads the sender’s name once, as the backend derives it, and not at all once their document was read', async () => {
    fs.getDoc.mockImplementation(async (ref: FakeRef) =>
      ref.path === 'users/u1'
        ? docSnapshot('u1', { nickname: 'annie' } satisfies Partial<UserDoc>)
        : stored({}),
    );
    const backend = createFirebaseBackend(CONFIG);
    await backend.messages.sendMessage('ch1', { id: ID.a, text: 'one' });
    await backend.messages.sendMessage('ch1', { id: ID.b, text: 'two' });
    expect(fs.getDoc.mock.calls.filter(([ref]) => path(ref) === 'users/u1')).toHaveLength(1);
    expect(fs.setDoc.mock.calls.map(([, data]) => data.senderName)).toEqual(['annie', 'annie']);

    fs.getDoc.mockClear();
    const other = createFirebaseBackend(CONFIG);
    await other.users.getUser('u1');
    await other.messages.sendMessage('ch1', { id: ID.c, text: 'three' });
    expect(fs.getDoc.mock.calls.filter(([ref]) => path(ref) === 'users/u1')).toHaveLength(1);
  });

  it('signs with the account’s name when the user document cannot be read', async () => {
    fs.getDoc.mockImplementation(async (ref: FakeRef) =>
      ref.path === 'users/u1' ? Promise.reject(new FakeFirebaseError('unavailable')) : stored({}),
    );
    await createFirebaseBackend(CONFIG).messages.sendMessage('ch1', { id: ID.a, text: 'hi' });
    expect(fs.setDoc.mock.calls[0]?.[1]).toMatchObject({ senderName: 'Ann' });
  });

  describe('a repeated id (the rules deny the write: it would be an update)', () => {
    beforeEach(() => {
      fs.setDoc.mockRejectedValue(new FakeFirebaseError('permission-denied'));
    });
    const original = {
      senderId: 'u1',
      senderName: 'Ann',
      text: 'The real text',
      createdAt: new FakeTimestamp(9, 0),
    };

    it('answers the stored message of the caller, whatever text the repeat carries', async () => {
      fs.getDoc.mockImplementation(async (ref: FakeRef) =>
        ref.path === 'users/u1' ? docSnapshot('u1') : stored(original),
      );
      const again = await createFirebaseBackend(CONFIG).messages.sendMessage('ch1', {
        id: ID.a,
        text: 'Something else entirely',
      });
      expect(again).toStrictEqual({
        id: ID.a,
        channelId: 'ch1',
        senderId: 'u1',
        senderName: 'Ann',
        text: 'The real text',
        createdAt: 9000,
      });
      expect(fs.setDoc).toHaveBeenCalledTimes(1);
    });

    it('answers ALREADY_EXISTS for an id someone else used', async () => {
      fs.getDoc.mockImplementation(async (ref: FakeRef) =>
        ref.path === 'users/u1' ? docSnapshot('u1') : stored({ ...original, senderId: 'someone-else' }),
      );
      await expect(
        createFirebaseBackend(CONFIG).messages.sendMessage('ch1', { id: ID.a, text: 'Mine?' }),
      ).rejects.toMatchObject({ name: 'BackendError', status: 'ALREADY_EXISTS' });
    });

    it('answers the denial itself when nothing is stored under the id (not a member)', async () => {
      fs.getDoc.mockImplementation(async (ref: FakeRef) =>
        ref.path === 'users/u1' ? docSnapshot('u1') : docSnapshot(ID.a),
      );
      await expect(
        createFirebaseBackend(CONFIG).messages.sendMessage('ch1', { id: ID.a, text: 'hi' }),
      ).rejects.toMatchObject({ name: 'BackendError', status: 'PERMISSION_DENIED' });
    });

    it('answers the denial itself when the stored message cannot be read either', async () => {
      fs.getDoc.mockImplementation(async (ref: FakeRef) =>
        ref.path === 'users/u1'
          ? docSnapshot('u1')
          : Promise.reject(new FakeFirebaseError('permission-denied')),
      );
      await expect(
        createFirebaseBackend(CONFIG).messages.sendMessage('ch1', { id: ID.a, text: 'hi' }),
      ).rejects.toMatchObject({ status: 'PERMISSION_DENIED' });
    });
  });

  it('passes any other failure on without looking for a stored message', async () => {
    fs.getDoc.mockResolvedValue(docSnapshot('u1'));
    fs.setDoc.mockRejectedValue(new FakeFirebaseError('unavailable'));
    await expect(
      createFirebaseBackend(CONFIG).messages.sendMessage('ch1', { id: ID.a, text: 'hi' }),
    ).rejects.toMatchObject({ status: 'UNAVAILABLE' });
    expect(fs.getDoc.mock.calls.filter(([ref]) => path(ref) !== 'users/u1')).toHaveLength(0);
  });

  it('answers the message with the device’s time when the read after the write fails', async () => {
    jest.spyOn(Date, 'now').mockReturnValue(1234);
    fs.getDoc.mockImplementation(async (ref: FakeRef) =>
      ref.path === 'users/u1' ? docSnapshot('u1') : Promise.reject(new FakeFirebaseError('unavailable')),
    );
    await expect(
      createFirebaseBackend(CONFIG).messages.sendMessage('ch1', { id: ID.a, text: 'hi' }),
    ).resolves.toStrictEqual({
      id: ID.a,
      channelId: 'ch1',
      senderId: 'u1',
      senderName: 'Ann',
      text: 'hi',
      createdAt: 1234,
    });
  });

  it.each([
    ['an empty message', { id: ID.a, text: '   ' }],
    ['a message over the limit of core/limits', { id: ID.a, text: 'x'.repeat(4001) }],
    ['a message without an id', { id: '', text: 'hi' }],
    ['an id of the wrong shape', { id: 'not/a-document-id!!!', text: 'hi' }],
  ])('refuses %s as INVALID_ARGUMENT without writing', async (_what, input) => {
    await expect(createFirebaseBackend(CONFIG).messages.sendMessage('ch1', input)).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
    });
    expect(fs.setDoc).not.toHaveBeenCalled();
  });

  it('asks to sign in when nobody is signed in', async () => {
    auth.instance.currentUser = null;
    await expect(
      createFirebaseBackend(CONFIG).messages.sendMessage('ch1', { id: ID.a, text: 'hi' }),
    ).rejects.toMatchObject({ status: 'UNAUTHENTICATED' });
  });
});

describe('messages.sendMessage with a file', () => {
  const FILE = {
    id: 'UploadPlan0000000001',
    kind: 'document' as const,
    name: 'plan.pdf',
    contentType: 'application/pdf' as const,
    size: 1200,
  };
  const send = () =>
    createFirebaseBackend(CONFIG).messages.sendMessage('ch1', { id: ID.a, text: '', attachments: [FILE] });
  /** What Firestore holds, by path; a value that is an Error is a read the rules refuse. */
  const holding = (docs: Record<string, Record<string, unknown> | Error>) =>
    fs.getDoc.mockImplementation(async (ref: FakeRef) => {
      const found = docs[ref.path];
      if (found instanceof Error) throw found;
      return docSnapshot(ref.id, found);
    });
  const CHANNEL = { ownerId: 'owner', members: ['u1'] };

  beforeEach(() => {
    auth.instance.currentUser = fakeUser({ uid: 'u1', displayName: 'Ann', email: 'ann@example.com' });
  });

  it('writes the message and the claim of its upload in one batch', async () => {
    holding({ 'users/u1': { nickname: 'Ann' } });
    await send();
    expect(fs.setDoc).not.toHaveBeenCalled();
    const batch = fs.writeBatch.mock.results[0]?.value as { writes: unknown[] };
    expect(batch.writes).toEqual([
      {
        op: 'set',
        path: `channels/ch1/messages/${ID.a}`,
        data: {
          senderId: 'u1',
          senderName: 'Ann',
          text: '',
          createdAt: SERVER_TIMESTAMP,
          attachments: [FILE],
        },
      },
      { op: 'update', path: `channels/ch1/uploads/${FILE.id}`, data: { messageId: ID.a } },
    ]);
    expect(fs.commitBatch).toHaveBeenCalledTimes(1);
  });

  describe('refused by the rules, in the embedded server’s words', () => {
    beforeEach(() => fs.commitBatch.mockRejectedValue(new FakeFirebaseError('permission-denied')));

    it.each([
      ['an upload this channel does not have', {}, 'NOT_FOUND', 'This file is not available any more.'],
      [
        "someone else's upload",
        { [`channels/ch1/uploads/${FILE.id}`]: new FakeFirebaseError('permission-denied') },
        'PERMISSION_DENIED',
        'This file was uploaded by someone else.',
      ],
      [
        'an upload already sent with another message',
        {
          [`channels/ch1/uploads/${FILE.id}`]: { uploaderId: 'u1', attachment: FILE, messageId: ID.b },
        },
        'ALREADY_EXISTS',
        'This file was already sent with another message.',
      ],
    ])('%s', async (_label, docs, status, message) => {
      holding({ 'users/u1': { nickname: 'Ann' }, 'channels/ch1': CHANNEL, ...docs });
      await expect(send()).rejects.toMatchObject({ name: 'BackendError', status, message });
    });

    it('answers the stored message of a repeat, whose upload it already claimed', async () => {
      holding({
        'users/u1': { nickname: 'Ann' },
        [`channels/ch1/messages/${ID.a}`]: {
          senderId: 'u1',
          senderName: 'Ann',
          text: '',
          attachment: FILE,
          createdAt: new FakeTimestamp(9, 0),
        },
      });
      await expect(send()).resolves.toMatchObject({ id: ID.a, attachments: [FILE] });
    });

    it('leaves the refusal as it came for someone not in the channel', async () => {
      holding({ 'users/u1': { nickname: 'Ann' }, 'channels/ch1': { ownerId: 'owner', members: [] } });
      await expect(send()).rejects.toMatchObject({
        status: 'PERMISSION_DENIED',
        message: "You don't have access to that.",
      });
    });
  });
});

describe('messages.subscribeMessages', () => {
  type Next = (snapshot: ReturnType<typeof liveSnapshot>) => void;
  const added = (doc: ReturnType<typeof message>): FakeChange => ({ type: 'added', doc });
  const modified = (doc: ReturnType<typeof message>): FakeChange => ({ type: 'modified', doc });
  const pending = (id: string, ms: number) =>
    docSnapshot(
      id,
      { senderId: 'u1', senderName: 'Ann', text: 'mine', createdAt: T(ms) },
      { hasPendingWrites: true },
    );

  async function subscribe(since = { createdAt: 1000, ids: [ID.a] }) {
    const batches: string[][] = [];
    const received: ChatMessage[] = [];
    const unsubscribe = createFirebaseBackend(CONFIG).messages.subscribeMessages('ch1', since, (messages) => {
      batches.push(ids(messages));
      received.push(...messages);
    });
    await flushPromises();
    const [query, options, next] = fs.onSnapshot.mock.calls[0] ?? [];
    return { batches, received, unsubscribe, query, options, next: next as Next };
  }

  it('listens to everything from the millisecond it holds on, without a limit, metadata changes included', async () => {
    const { query, options } = await subscribe({ createdAt: 1000, ids: [ID.a] });
    expect(query).toEqual({
      type: 'query',
      path: 'channels/ch1/messages',
      constraints: [
        { where: ['createdAt', '>=', T(1000)] },
        { orderBy: ['createdAt', 'asc'] },
        { orderBy: [DOCUMENT_ID, 'asc'] },
      ],
    });
    expect(options).toEqual({ includeMetadataChanges: true });
    expect(fs.limit).not.toHaveBeenCalled();
  });

  it('delivers what it does not hold yet, each snapshot’s as one batch in (createdAt, id) order', async () => {
    const { batches, next } = await subscribe({ createdAt: 1000, ids: [ID.a] });
    next(liveSnapshot([added(message(ID.a, 1000)), added(message(ID.c, 1000)), added(message(ID.b, 1000))]));
    next(liveSnapshot([added(message(ID.e, 3000)), added(message(ID.d, 2000))]));
    expect(batches).toEqual([
      [ID.b, ID.c],
      [ID.d, ID.e],
    ]);
  });

  it('delivers a burst of any size in one batch: no window a burst could overflow', async () => {
    const { batches, next } = await subscribe({ createdAt: 0, ids: [] });
    const burst = Array.from({ length: 500 }, (_, i) =>
      added(message(`Burst${String(i).padStart(15, '0')}`, 1000 + i)),
    );
    next(liveSnapshot(burst));
    expect(batches.map((batch) => batch.length)).toEqual([500]);
  });

  it('delivers a document once, however often snapshots repeat it', async () => {
    const { received, next } = await subscribe({ createdAt: 0, ids: [] });
    next(liveSnapshot([added(message(ID.b, 2000)), added(message(ID.b, 2000))]));
    next(liveSnapshot([modified(message(ID.b, 2000, { text: 'edited' }))]));
    next(liveSnapshot([added(message(ID.b, 2000))], true));
    expect(ids(received)).toEqual([ID.b]);
    expect(received[0]?.text).toBe(`text ${ID.b}`);
  });

  it('holds this device’s own message until the server confirms it, then delivers it once with the server’s time', async () => {
    const { received, next } = await subscribe({ createdAt: 0, ids: [] });
    next(liveSnapshot([added(pending(ID.d, 1234))]));
    expect(received).toEqual([]);
    next(liveSnapshot([modified(message(ID.d, 5678, { text: 'mine' }))]));
    next(liveSnapshot([modified(message(ID.d, 5678, { text: 'mine' }))]));
    expect(received).toStrictEqual([
      { id: ID.d, channelId: 'ch1', senderId: 'u1', senderName: 'Ann', text: 'mine', createdAt: 5678 },
    ]);
  });

  it('asks the snapshot for metadata-only changes too (a confirmation can be one)', async () => {
    const { next } = await subscribe();
    const snapshot = liveSnapshot([]);
    next(snapshot);
    expect(snapshot.docChanges).toHaveBeenCalledWith({ includeMetadataChanges: true });
  });

  it('ignores documents leaving the query, and delivers nothing when a snapshot brings nothing new', async () => {
    const { batches, next } = await subscribe({ createdAt: 0, ids: [] });
    next(liveSnapshot([{ type: 'removed', doc: message(ID.b, 2000) }]));
    next(liveSnapshot([], true));
    expect(batches).toEqual([]);
  });

  it('stops both Firestore listeners (new messages, changed ones) when unsubscribed', async () => {
    const stop = jest.fn();
    fs.onSnapshot.mockReturnValue(stop);
    const { unsubscribe } = await subscribe();
    expect(stop).not.toHaveBeenCalled();
    unsubscribe();
    expect(stop).toHaveBeenCalledTimes(2);
  });

  it('never starts a listener when unsubscribed before Firestore has loaded', async () => {
    const unsubscribe = createFirebaseBackend(CONFIG).messages.subscribeMessages(
      'ch1',
      { createdAt: 0, ids: [] },
      () => undefined,
    );
    unsubscribe();
    await flushPromises();
    expect(fs.onSnapshot).not.toHaveBeenCalled();
  });
});
