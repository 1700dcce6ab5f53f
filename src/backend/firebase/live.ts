// Live listeners on a lazily loaded SDK: the port's unsubscribe is returned at once, the listener starts once
// Firestore has loaded, and unsubscribing before that means it never starts. A listener that the backend ends
// (rules deny, the document goes) has no caller to throw to, so it is logged as the BackendError it maps to.
//
// And the LivePort on Firebase. Every Firestore listener of an app shares one watch stream, which the SDK
// reconnects by itself and resumes where it left off; what the stream's state is shows in each listener's
// snapshots: `metadata.fromCache` is true while the listener's results are only what the cache holds (offline, or
// not yet confirmed by the server) and false once the server has brought them up to date. So on Firebase:
//   'connecting'  until every tracked listener has had its first answer from the server;
//   'live'        while every tracked listener is current with the server (fromCache false);
//   'interrupted' from the moment a listener that was current falls back to the cache (the SDK has lost the
//                 stream), or the browser says it is offline, until every tracked listener is current again —
//                 which is after the SDK has delivered, to each of them, what changed while the stream was down.
// Tracked are the live message subscriptions (whose catching up the client waits for) and a sentinel: a
// listener on the person's own users/{uid} document, kept while anyone follows the status, so that there is a
// signal when no channel is open. It costs one document read, shared with subscribeUser's listener on the same
// document (the SDK listens to a query once however many listeners it has). Beside it, while the status is
// followed, a listener on the person's revocations/{uid} signs the window out when their sessions are ended
// elsewhere (as the embedded server closes a session's stream): one read, and one more per revocation.
import { onAuthStateChanged } from 'firebase/auth';
import type { LivePort, LiveStatus, Unsubscribe } from '../ports';
import { toBackendError } from './errors';
import type { FirebaseSdk, LoadedFirestore } from './sdk';
import type { SessionGuard } from './sessionGuard';

/** Server timestamps not yet written read as the local estimate, never as null. */
export const ESTIMATE = { serverTimestamps: 'estimate' } as const;

export function reportListenerError(what: string): (error: unknown) => void {
  return (error) => console.error(`${what} stopped`, toBackendError(error));
}

export function listenLazily(
  sdk: FirebaseSdk,
  what: string,
  start: (firestore: LoadedFirestore) => Unsubscribe,
): Unsubscribe {
  let stopped = false;
  let stop: Unsubscribe | null = null;
  sdk.firestore().then((firestore) => {
    if (!stopped) stop = start(firestore);
  }, reportListenerError(what));
  return () => {
    stopped = true;
    stop?.();
    stop = null;
  };
}

/** A listener whose snapshots count toward the live status. */
export interface TrackedListener {
  /** Every snapshot's `metadata.fromCache`, after the snapshot has been handled. */
  report(fromCache: boolean): void;
  /** The listener has ended (unsubscribed, or ended by the backend). */
  stop(): void;
}

/** The browser's own word on the network ('online' and 'offline' events), where there is one. */
export interface Connectivity {
  isOnline(): boolean;
  subscribe(listener: (online: boolean) => void): Unsubscribe;
}

export function browserConnectivity(): Connectivity | null {
  if (typeof window === 'undefined' || typeof window.addEventListener !== 'function') return null;
  return {
    isOnline: () => window.navigator?.onLine !== false,
    subscribe(listener) {
      const online = (): void => listener(true);
      const offline = (): void => listener(false);
      window.addEventListener('online', online);
      window.addEventListener('offline', offline);
      return () => {
        window.removeEventListener('online', online);
        window.removeEventListener('offline', offline);
      };
    },
  };
}

export interface LiveStatusTracker {
  port: LivePort;
  track(): TrackedListener;
}

export function createLiveStatus(
  sdk: FirebaseSdk,
  connectivity: Connectivity | null = browserConnectivity(),
  session?: Pick<SessionGuard, 'endIfRevoked'>,
): LiveStatusTracker {
  let status: LiveStatus = 'connecting';
  const followers = new Set<(status: LiveStatus) => void>();
  const tracked = new Set<{ current: boolean }>();
  let browserOnline = true;
  let stopFollowing: Unsubscribe | null = null;

  const set = (next: LiveStatus): void => {
    if (next === status) return;
    status = next;
    for (const follower of [...followers]) follower(status);
  };

  /** `dropped`: a listener that was current has just fallen back to the cache. */
  const judge = (dropped: boolean): void => {
    const allCurrent = browserOnline && tracked.size > 0 && [...tracked].every((entry) => entry.current);
    if (allCurrent) set('live');
    // A listener that is new and not yet current is catching up on a live stream, not an interruption.
    else if (status === 'live' && (dropped || !browserOnline)) set('interrupted');
  };

  const track = (): TrackedListener => {
    const entry = { current: false };
    tracked.add(entry);
    return {
      report(fromCache) {
        const dropped = entry.current && fromCache;
        entry.current = !fromCache;
        if (tracked.has(entry)) judge(dropped);
      },
      stop() {
        if (tracked.delete(entry)) judge(false);
      },
    };
  };

  /** The sentinel, for whoever is signed in; and the browser's events. */
  const follow = (): Unsubscribe => {
    let stopSentinel: Unsubscribe | null = null;
    const stopAuth = onAuthStateChanged(sdk.auth(), (user) => {
      stopSentinel?.();
      stopSentinel = null;
      if (!user) {
        set('connecting');
        return;
      }
      let entry: TrackedListener | null = null;
      const stopListening = listenLazily(sdk, 'Live status', ({ sdk: fs, db }) => {
        const sentinel = track();
        entry = sentinel;
        return fs.onSnapshot(
          fs.doc(db, 'users', user.uid),
          { includeMetadataChanges: true },
          (snapshot) => sentinel.report(snapshot.metadata.fromCache),
          (error) => {
            sentinel.stop();
            reportListenerError('Live status')(error);
          },
        );
      });
      // The embedded server ends a session's stream when the session ends; here the person's revocations/{uid}
      // says so, and the session guard signs this window out (sessionGuard.ts).
      const stopSession = session
        ? listenLazily(sdk, 'Session', ({ sdk: fs, db }) =>
            fs.onSnapshot(
              fs.doc(db, 'revocations', user.uid),
              (snapshot) => void session.endIfRevoked(snapshot.data()),
              reportListenerError('Session'),
            ),
          )
        : () => undefined;
      stopSentinel = () => {
        stopListening();
        stopSession();
        entry?.stop();
      };
    });
    browserOnline = connectivity?.isOnline() ?? true;
    const stopBrowser = connectivity?.subscribe((online) => {
      browserOnline = online;
      judge(false);
    });
    return () => {
      stopAuth();
      stopSentinel?.();
      stopBrowser?.();
      browserOnline = true;
    };
  };

  return {
    track,
    port: {
      subscribeStatus(listener) {
        followers.add(listener);
        if (followers.size === 1) stopFollowing = follow();
        listener(status);
        return () => {
          if (!followers.delete(listener) || followers.size > 0) return;
          stopFollowing?.();
          stopFollowing = null;
        };
      },
    },
  };
}
