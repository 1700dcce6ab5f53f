// Live listeners on a lazily loaded SDK: the port's unsubscribe is returned at once, the listener starts once
// Firestore has loaded, and unsubscribing before that means it never starts. A listener that the backend ends
// (rules deny, the document goes) has no caller to throw to, so it is logged as the BackendError it maps to.
import type { Unsubscribe } from '../ports';
import { toBackendError } from './errors';
import type { FirebaseSdk, LoadedFirestore } from './sdk';

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
