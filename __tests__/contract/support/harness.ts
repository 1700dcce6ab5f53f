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

/**
 * What a mailed link is for: confirming an address, choosing a new password, changing the address, finishing a
 * sign-up (Firebase: its confirmation link), and the notice to a taken address's owner (its link to choose a new
 * password; Firebase: its password-reset mail).
 */
export type MailPurpose = 'verify-email' | 'reset-password' | 'change-email' | 'sign-up' | 'sign-up-notice';

export interface Harness {
  readonly kind: 'local' | 'firebase';
  /** A fresh adapter (a device of its own) signed in as `who`. */
  as(who: Who): Promise<Backend>;
  /** A fresh adapter with nobody signed in. */
  signedOut(): Backend;
  /**
   * A new account made as a person makes one (signUpThroughMail): asked for through the adapter, the link mailed
   * to the address opened, then signed in. Answers it signed in.
   */
  signUp(input: { email: string; password: string; displayName?: string }): Promise<Backend>;
  /**
   * An account whose address is not confirmed, signed in: on the embedded server one from before sign-up
   * confirmed addresses (no other can be), on Firebase one whose sign-up link was not opened.
   */
  unconfirmedAccount(input: { email: string; password: string }): Promise<Backend>;
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
   * The token of the newest link the backend mailed to `email` for `purpose`: read from the mail the
   * embedded server sent, or from the action codes Firebase Auth mailed. Throws when there is none.
   */
  mailedToken(email: string, purpose: MailPurpose): Promise<string>;
  /**
   * Makes `who`'s files take up `bytes` as the backend counts them for the storage quota (a file row on the
   * embedded server, users/{uid}.attachmentBytes on Firebase): uploading a gigabyte would take minutes.
   */
  fillStorage(who: Who, bytes: number): Promise<void>;
  /**
   * Moves the backend's clock. On the emulators, whose clocks are the machine's, functions/' clock moves, and a
   * short step (a few seconds at most) is also waited out, so that the emulators' time moves with it.
   */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Sign-up as a person does it: asked for signed out, the mailed link opened, then signed in. */
export async function signUpThroughMail(
  h: Pick<Harness, 'signedOut' | 'settle' | 'mailedToken'>,
  input: { email: string; password: string; displayName?: string },
): Promise<Backend> {
  const email = input.email.trim().toLowerCase();
  const backend = h.signedOut();
  await backend.auth.signUp(input);
  await h.settle();
  await backend.auth.verifyEmail(await h.mailedToken(email, 'sign-up'));
  await backend.auth.signIn({ email, password: input.password });
  return backend;
}
