// What the contract suite needs of a backend under test: the world of world.ts in it, and the client's
// adapter for that backend signed in as one of its people.
import type { Backend } from '@/backend/ports';
import type { Who } from './world';

/**
 * What a run of the contract cannot do, each case needing it being left to a run that can (README "Test it" lists
 * them): Cloud Storage has no emulator on these machines, and the emulators' clocks (Firestore's request.time, the
 * Firebase SDK's own) are the machine's, which a test cannot move by hours.
 */
export type Limitation = 'storage' | 'clock';

export interface Harness {
  readonly kind: 'local' | 'firebase';
  /** A fresh adapter (a device of its own) signed in as `who`. */
  as(who: Who): Promise<Backend>;
  /** A fresh adapter with nobody signed in. */
  signedOut(): Backend;
  /** Signs up a new account through the adapter and answers it signed in. */
  signUp(input: { email: string; password: string; displayName?: string }): Promise<Backend>;
  /**
   * The pending notification counts the backend keeps for `uid` behind the badge (users/{uid}/pending), by
   * channel. No port reads them (the badge comes with each push), so the harness reads the backend's store.
   */
  pendingCounts(uid: string): Promise<Record<string, number>>;
  /** Lets whatever the backend does after it has answered (Firebase's triggers) finish. */
  settle(): Promise<void>;
  /**
   * A push token of this backend's provider: an FCM registration token on Firebase, a Web Push subscription
   * (base64url JSON, src/backend/local/webPush.ts) on the embedded server, which refuses anything else.
   */
  pushToken(seed: string): string;
  /**
   * Cuts `backend`'s live connection as a network drop would: its subscriptions receive nothing, and it reports
   * 'interrupted', until reconnect().
   */
  disconnect(backend: Backend): void;
  reconnect(backend: Backend): void;
  /**
   * The token of the newest link the backend mailed to `email` for `purpose` (issue #15): read from the mail the
   * embedded server sent, or from the action codes Firebase Auth mailed. Throws when there is none.
   */
  mailedToken(email: string, purpose: 'verify-email' | 'reset-password' | 'change-email'): Promise<string>;
  /**
   * Moves the backend's clock. On the emulators, whose clocks are the machine's, functions/' clock moves, and a
   * short step (a few seconds at most) is also waited out, so that the emulators' time moves with it.
   */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}
