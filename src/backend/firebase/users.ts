// UsersPort on Firestore users/{uid}. A user may change only their nickname, display name and notification
// settings (firestore.rules enforces the same list); role and balance fields are written by functions only.
import { BackendError } from '../ports';
import type { ProfilePatch, UsersPort } from '../ports';
import type { NotificationSettings, UserDoc } from '@core/model';
import { DELIVERY_CHANNELS, LIMITS } from '@core/limits';
import { toUserDoc } from './convert';
import { createPhotos } from './photos';
import type { DocumentData } from './convert';
import { guarded, OFFLINE_MESSAGE } from './errors';
import { ESTIMATE, listenLazily, reportListenerError } from './live';
import type { FirebaseSdk } from './sdk';

function invalid(message: string): BackendError {
  return new BackendError('INVALID_ARGUMENT', message);
}

function checkSettings(value: NotificationSettings): NotificationSettings {
  const channels: unknown = value?.delivery?.channels;
  if (typeof value?.enabled !== 'boolean' || !Array.isArray(channels))
    throw invalid('Those settings are not valid.');
  const known = channels.filter((c) => (DELIVERY_CHANNELS as readonly unknown[]).includes(c));
  if (known.length !== channels.length || new Set(known).size !== known.length) {
    throw invalid('Those delivery channels are not valid.');
  }
  // Rebuilt, so that nothing but these two fields is ever written.
  return {
    enabled: value.enabled,
    delivery: { channels: known as NotificationSettings['delivery']['channels'] },
  };
}

/** The fields of core/schemas.ts profilePatchBody, checked the same way; anything else in the patch is dropped. */
export function profileFields(patch: ProfilePatch): DocumentData {
  const fields: DocumentData = {};
  if (patch.nickname !== undefined) {
    const nickname = String(patch.nickname).trim();
    if (nickname.length > LIMITS.nicknameMax) {
      throw invalid(`A nickname can have at most ${LIMITS.nicknameMax} characters.`);
    }
    fields.nickname = nickname;
  }
  if (patch.displayName !== undefined) {
    const displayName = String(patch.displayName).trim();
    if (displayName.length === 0 || displayName.length > LIMITS.displayNameMax) {
      throw invalid(`A name needs 1 to ${LIMITS.displayNameMax} characters.`);
    }
    fields.displayName = displayName;
  }
  if (patch.notificationSettings !== undefined)
    fields.notificationSettings = checkSettings(patch.notificationSettings);
  if (Object.keys(fields).length === 0) throw invalid('There is nothing to change.');
  return fields;
}

/** The port's reading and profile verbs; leaving's two live in leaving.ts. */
export function createUsersPort(
  sdk: FirebaseSdk,
  onUserSeen: (user: UserDoc) => void,
): Omit<UsersPort, 'exportMyData' | 'deleteMyAccount'> {
  /** The account's email, for a document that does not carry one (the client never writes it). */
  const emailOf = (uid: string): string => {
    const user = sdk.auth().currentUser;
    return user?.uid === uid ? (user.email ?? '') : '';
  };
  const seen = (user: UserDoc): UserDoc => {
    onUserSeen(user);
    return user;
  };

  /**
   * The document as the server has it. Firestore answers from its cache when it cannot reach the server (offline,
   * or ten seconds without an answer): the last known, which the page keeps with its time, not the account as it
   * is; refused as the embedded server refuses offline, so the page says "as of" rather than showing it as live.
   */
  async function getUser(uid: string): Promise<UserDoc | null> {
    const { sdk: fs, db } = await sdk.firestore();
    const snapshot = await fs.getDoc(fs.doc(db, 'users', uid));
    if (snapshot.metadata.fromCache) throw new BackendError('UNAVAILABLE', OFFLINE_MESSAGE);
    if (!snapshot.exists()) return null;
    return seen(toUserDoc(uid, snapshot.data(ESTIMATE), emailOf(uid)));
  }

  return {
    getUser: (uid) => guarded(() => getUser(uid)),
    ...createPhotos(sdk, getUser),

    updateProfile: (uid, patch) =>
      guarded(async () => {
        const fields = profileFields(patch);
        const { sdk: fs, db } = await sdk.firestore();
        // An empty nickname removes it, as on the embedded server; the name then falls back to displayName.
        if (fields.nickname === '') fields.nickname = fs.deleteField();
        await fs.updateDoc(fs.doc(db, 'users', uid), fields);
        const user = await getUser(uid);
        if (!user) throw new BackendError('NOT_FOUND', "That profile doesn't exist (any more).");
        return user;
      }),

    subscribeUser: (uid, listener) =>
      listenLazily(sdk, 'Live profile updates', ({ sdk: fs, db }) => {
        const ref = fs.doc(db, 'users', uid);
        let named = false;
        // The cache's version is not news (see getUser): the server's is, also when it confirms the same data.
        return fs.onSnapshot(
          ref,
          { includeMetadataChanges: true },
          (snapshot) => {
            // A document that does not exist (yet) has nothing to report; the defaults stand.
            if (snapshot.metadata.fromCache || !snapshot.exists()) return;
            const data = snapshot.data(ESTIMATE);
            listener(seen(toUserDoc(uid, data, emailOf(uid))));
            // Sign-up names the document on_user_created writes (auth.ts nameUserDocument), unless the page was
            // left first: the account keeps the name, the document would not, and others would see the email's
            // local part. The person's own session gives it the name, once.
            const account = sdk.auth().currentUser;
            const name = account?.uid === uid ? account.displayName?.trim() : undefined;
            if (named || !name || (typeof data.displayName === 'string' && data.displayName.trim() !== '')) {
              return;
            }
            named = true;
            fs.updateDoc(ref, { displayName: name }).catch((error: unknown) =>
              console.warn(
                'The profile could not be named from the account',
                error instanceof Error ? error.message : error,
              ),
            );
          },
          reportListenerError('Live profile updates'),
        );
      }),
  };
}
