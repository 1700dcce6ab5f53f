// The LivePort on Firebase: the status follows the SDK's own signals — each tracked listener's fromCache (a
// sentinel on the person's users/{uid} document, and every live message subscription) and the browser's online
// and offline events — and says 'live' after an interruption only once every tracked listener is current again.
import { createFirebaseBackend } from '@/backend/firebase';
import { createLiveStatus } from '@/backend/firebase/live';
import type { Connectivity } from '@/backend/firebase/live';
import { createFirebaseSdk } from '@/backend/firebase/sdk';
import type { LiveStatus } from '@/backend/ports';
import { CONFIG, fakeUser, flushPromises, liveSnapshot, resetSdkFakes } from './sdkFakes';
import type * as Fakes from './sdkFakes';
import type { AuthFake, FakeQuery, FakeRef, FirestoreFake } from './sdkFakes';

jest.mock('firebase/app', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAppModule());
jest.mock('firebase/auth', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAuthModule());
jest.mock('firebase/firestore', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFirestoreModule());
jest.mock('firebase/functions', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFunctionsModule());
jest.mock('firebase/messaging', () => jest.requireActual<typeof Fakes>('./sdkFakes').createMessagingModule());

const auth = jest.requireMock<AuthFake>('firebase/auth');
const fs = jest.requireMock<FirestoreFake>('firebase/firestore');

type Next = (snapshot: { metadata: { fromCache: boolean } }) => void;

let signedIn: ((user: ReturnType<typeof fakeUser> | null) => void) | null;
beforeEach(() => {
  resetSdkFakes();
  signedIn = null;
  auth.instance.currentUser = fakeUser({ uid: 'u1' });
  // Firebase calls back with the restored session, then on every change.
  auth.onAuthStateChanged.mockImplementation((_auth, next) => {
    signedIn = next;
    next(auth.instance.currentUser);
    return jest.fn();
  });
});

/**
 * The listeners started on `path` (a document, or a query's collection) and their callbacks: `next` gives a
 * snapshot to each (a channel's live messages are two queries, the new messages and the changed ones).
 */
function listenerOn(path: string) {
  const calls = fs.onSnapshot.mock.calls.filter(
    ([target]) => (target as FakeRef | FakeQuery).path === path,
  ) as Array<[unknown, { includeMetadataChanges?: boolean }, Next]>;
  const first = calls[0];
  if (!first) throw new Error(`no listener on ${path}`);
  return {
    options: first[1],
    next: (snapshot: Parameters<Next>[0]) => {
      for (const call of calls) call[2](snapshot);
    },
  };
}
const server = { metadata: { fromCache: false } };
const cache = { metadata: { fromCache: true } };

async function follow(backend = createFirebaseBackend(CONFIG)) {
  const seen: LiveStatus[] = [];
  const stop = backend.live.subscribeStatus((status) => seen.push(status));
  await flushPromises();
  return { backend, seen, stop, now: () => seen.at(-1) };
}

describe('live.subscribeStatus', () => {
  it("answers 'connecting' at once, and 'live' once the sentinel has heard from the server", async () => {
    const { seen } = await follow();
    const sentinel = listenerOn('users/u1');
    expect(sentinel.options).toEqual({ includeMetadataChanges: true });
    expect(seen).toEqual(['connecting']);
    sentinel.next(cache);
    expect(seen).toEqual(['connecting']);
    sentinel.next(server);
    expect(seen).toEqual(['connecting', 'live']);
  });

  it("is 'interrupted' when a current listener falls back to the cache, and 'live' again only once every one is current", async () => {
    const { backend, now } = await follow();
    backend.messages.subscribeMessages('ch1', { createdAt: 0, ids: [] }, () => undefined);
    await flushPromises();
    const sentinel = listenerOn('users/u1');
    const messages = listenerOn('channels/ch1/messages');
    sentinel.next(server);
    expect(now()).toBe('connecting');
    messages.next(liveSnapshot([]));
    expect(now()).toBe('live');

    messages.next(liveSnapshot([], true));
    expect(now()).toBe('interrupted');
    sentinel.next(cache);
    sentinel.next(server);
    expect(now()).toBe('interrupted');
    messages.next(liveSnapshot([]));
    expect(now()).toBe('live');
  });

  it('reports live after the catching-up batch has been delivered, not before', async () => {
    const { backend, seen } = await follow();
    const order: string[] = [];
    backend.live.subscribeStatus((status) => order.push(`status ${status}`));
    backend.messages.subscribeMessages('ch1', { createdAt: 0, ids: [] }, (batch) =>
      order.push(`batch of ${batch.length}`),
    );
    await flushPromises();
    listenerOn('users/u1').next(server);
    const messages = listenerOn('channels/ch1/messages');
    const doc = {
      id: 'MessageMissed0000001',
      exists: () => true,
      data: jest.fn(() => ({
        senderId: 'u2',
        senderName: 'B',
        text: 'missed',
        createdAt: { seconds: 5, nanoseconds: 0 },
      })),
      metadata: { hasPendingWrites: false, fromCache: false },
    };
    messages.next(liveSnapshot([{ type: 'added', doc }]));
    expect(order).toEqual(['status connecting', 'batch of 1', 'status live']);
    expect(seen.at(-1)).toBe('live');
  });

  it('stays live while a new listener catches up on a live stream', async () => {
    const { backend, now } = await follow();
    listenerOn('users/u1').next(server);
    backend.messages.subscribeMessages('ch2', { createdAt: 0, ids: [] }, () => undefined);
    await flushPromises();
    listenerOn('channels/ch2/messages').next(liveSnapshot([], true));
    expect(now()).toBe('live');
  });

  it('no longer waits for a listener that has been unsubscribed or ended by the backend', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { backend, now } = await follow();
    const stop = backend.messages.subscribeMessages('ch1', { createdAt: 0, ids: [] }, () => undefined);
    backend.messages.subscribeMessages('ch2', { createdAt: 0, ids: [] }, () => undefined);
    await flushPromises();
    const sentinel = listenerOn('users/u1');
    const one = listenerOn('channels/ch1/messages');
    const two = listenerOn('channels/ch2/messages');
    sentinel.next(server);
    one.next(liveSnapshot([]));
    two.next(liveSnapshot([]));
    expect(now()).toBe('live');
    one.next(liveSnapshot([], true));
    two.next(liveSnapshot([], true));
    expect(now()).toBe('interrupted');
    stop();
    expect(now()).toBe('interrupted');
    // The rules now refuse the other one (the person left the channel): the SDK ends both its queries with an
    // error.
    const ended = fs.onSnapshot.mock.calls.filter(
      ([target]) => (target as FakeQuery).path === 'channels/ch2/messages',
    );
    expect(ended).toHaveLength(2);
    (ended[0]?.[3] as (error: unknown) => void)(new Error('permission-denied'));
    expect(now()).toBe('interrupted');
    (ended[1]?.[3] as (error: unknown) => void)(new Error('permission-denied'));
    expect(now()).toBe('live');
  });

  /** The sentinel's unsubscribe (the person's revocations listener has its own). */
  const sentinelStopping = (stopSentinel: jest.Mock) =>
    fs.onSnapshot.mockImplementation((target: unknown) =>
      (target as FakeRef).path.startsWith('users/') ? stopSentinel : jest.fn(),
    );

  it("goes back to 'connecting' at sign-out and follows the next person's document", async () => {
    const stopSentinel = jest.fn();
    sentinelStopping(stopSentinel);
    const { now } = await follow();
    listenerOn('users/u1').next(server);
    expect(now()).toBe('live');
    signedIn?.(null);
    expect(stopSentinel).toHaveBeenCalledTimes(1);
    expect(now()).toBe('connecting');
    signedIn?.(fakeUser({ uid: 'u2' }));
    await flushPromises();
    listenerOn('users/u2').next(server);
    expect(now()).toBe('live');
  });

  it('stops the sentinel when the last follower leaves', async () => {
    const stopSentinel = jest.fn();
    sentinelStopping(stopSentinel);
    const first = await follow();
    const second = first.backend.live.subscribeStatus(() => undefined);
    first.stop();
    expect(stopSentinel).not.toHaveBeenCalled();
    second();
    expect(stopSentinel).toHaveBeenCalledTimes(1);
  });

  describe('while it is followed, the person’s revocations', () => {
    /** What the listener on revocations/u1 hears: the document's data. */
    const revocation = (data: Record<string, unknown> | undefined) => {
      const call = fs.onSnapshot.mock.calls.find(([target]) => (target as FakeRef).path === 'revocations/u1');
      if (!call) throw new Error('no listener on revocations/u1');
      (call[1] as (snapshot: { data: () => unknown }) => void)({ data: () => data });
    };
    beforeEach(() => {
      // This session began at 1000 s (its ID token's auth_time).
      auth.getIdTokenResult.mockResolvedValue({ claims: { auth_time: '1000' } });
    });

    it('sign this window out at once when its sessions are ended elsewhere, as the embedded server ends its stream', async () => {
      await follow();
      revocation({ revokedBefore: 1001 });
      await flushPromises();
      expect(auth.signOut).toHaveBeenCalledTimes(1);
    });

    it('leave a session begun after (or in the second of) the last revocation alone', async () => {
      await follow();
      revocation(undefined);
      revocation({ revokedBefore: 1000 });
      await flushPromises();
      expect(auth.signOut).not.toHaveBeenCalled();
    });
  });

  it('starts nothing (no Firestore load) until someone follows the status', async () => {
    createFirebaseBackend(CONFIG);
    await flushPromises();
    expect(fs.initializeFirestore).not.toHaveBeenCalled();
    expect(auth.onAuthStateChanged).not.toHaveBeenCalled();
  });
});

describe("the browser's word on the network", () => {
  function connectivity(online = true) {
    let notify: (online: boolean) => void = () => undefined;
    const unsubscribe = jest.fn();
    const fake: Connectivity = {
      isOnline: () => online,
      subscribe(listener) {
        notify = listener;
        return unsubscribe;
      },
    };
    return { fake, notify: (value: boolean) => notify(value), unsubscribe };
  }

  it("makes a live status 'interrupted' at once when offline, and 'live' at online if the listeners stayed current", async () => {
    const browser = connectivity();
    const live = createLiveStatus(createFirebaseSdk(CONFIG), browser.fake);
    const seen: LiveStatus[] = [];
    const stop = live.port.subscribeStatus((status) => seen.push(status));
    await flushPromises();
    listenerOn('users/u1').next(server);
    browser.notify(false);
    expect(seen.at(-1)).toBe('interrupted');
    browser.notify(true);
    expect(seen).toEqual(['connecting', 'live', 'interrupted', 'live']);
    stop();
    expect(browser.unsubscribe).toHaveBeenCalledTimes(1);
  });

  it('waits, when back online, for the listeners the SDK had moved to the cache', async () => {
    const browser = connectivity();
    const live = createLiveStatus(createFirebaseSdk(CONFIG), browser.fake);
    const seen: LiveStatus[] = [];
    live.port.subscribeStatus((status) => seen.push(status));
    await flushPromises();
    const sentinel = listenerOn('users/u1');
    sentinel.next(server);
    browser.notify(false);
    sentinel.next(cache);
    browser.notify(true);
    expect(seen.at(-1)).toBe('interrupted');
    sentinel.next(server);
    expect(seen.at(-1)).toBe('live');
  });

  it('is not live while the browser starts offline', async () => {
    const browser = connectivity(false);
    const live = createLiveStatus(createFirebaseSdk(CONFIG), browser.fake);
    const seen: LiveStatus[] = [];
    live.port.subscribeStatus((status) => seen.push(status));
    await flushPromises();
    listenerOn('users/u1').next(server);
    expect(seen).toEqual(['connecting']);
    browser.notify(true);
    expect(seen).toEqual(['connecting', 'live']);
  });
});
