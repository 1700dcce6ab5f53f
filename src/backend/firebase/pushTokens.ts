// PushTokensPort on Firestore users/{uid}/FCMTokens (spec §3 push token documents, spec §7 token calls): saved
// through the save_push_token callable, read, touched and deleted directly.
import { BackendError } from '../ports';
import type { NewPushToken, PushTokensPort } from '../ports';
import type { PushTokenDoc } from '@core/model';
import { DEVICE_ID_PATTERN, LIMITS, PLATFORMS, PUSH_TOKEN_PATTERN } from '@core/limits';
import { callFunction } from './callables';
import { toPushTokenAnswer, toPushTokenDoc } from './convert';
import { guarded } from './errors';
import { ESTIMATE } from './live';
import type { FirebaseSdk } from './sdk';

const byCreatedAt = (a: PushTokenDoc, b: PushTokenDoc): number =>
  a.createdAt - b.createdAt || a.id.localeCompare(b.id);

/** The bounds of core/schemas.ts pushTokenCreateBody (the callable checks them too), checked before any call. */
function checkNewToken({ token, deviceId, platform, userAgent }: NewPushToken): NewPushToken {
  const valid =
    typeof token === 'string' &&
    token.length >= LIMITS.pushTokenMin &&
    token.length <= LIMITS.pushTokenMax &&
    PUSH_TOKEN_PATTERN.test(token) &&
    typeof deviceId === 'string' &&
    deviceId.length >= 1 &&
    deviceId.length <= LIMITS.deviceIdMax &&
    DEVICE_ID_PATTERN.test(deviceId) &&
    PLATFORMS.includes(platform) &&
    typeof userAgent === 'string' &&
    userAgent.length <= LIMITS.userAgentMax;
  if (!valid) throw new BackendError('INVALID_ARGUMENT', "This device's push registration is not valid.");
  // Rebuilt, so that nothing but these fields is ever sent.
  return { token, deviceId, platform, userAgent };
}

export function createPushTokensPort(sdk: FirebaseSdk): PushTokensPort {
  const tokens = async (uid: string) => {
    const { sdk: fs, db } = await sdk.firestore();
    return { fs, collection: fs.collection(db, 'users', uid, 'FCMTokens') };
  };
  const tokenDoc = async (uid: string, id: string) => {
    const { sdk: fs, db } = await sdk.firestore();
    return { fs, ref: fs.doc(db, 'users', uid, 'FCMTokens', id) };
  };

  return {
    findActiveToken: (uid, token) =>
      guarded(async () => {
        const { fs, collection } = await tokens(uid);
        const { docs } = await fs.getDocs(
          fs.query(
            collection,
            fs.where('token', '==', token),
            fs.where('status', '==', 'active'),
            fs.limit(1),
          ),
        );
        const first = docs[0];
        return first ? toPushTokenDoc(first.id, first.data(ESTIMATE)) : null;
      }),

    // The backend owns "one document per device" (functions/src/handlers/tokens.ts save_push_token, in one
    // transaction; firestore.rules let no client create a token document): the answer is the device's document.
    addToken: (uid, input) =>
      guarded(async () => {
        const payload = { userId: uid, ...checkNewToken(input) };
        return callFunction(sdk, 'save_push_token', payload, toPushTokenAnswer);
      }),

    // Rules refuse an update of a document that is not stored (isTouch reads resource.data) as PERMISSION_DENIED,
    // not NOT_FOUND: a token document pruned after 30 days would read as "not allowed", and the client would keep
    // a token no document holds. So a refused touch looks again: a document that is gone is NOT_FOUND, and the
    // token lifecycle saves the token anew.
    touchToken: (uid, id) =>
      guarded(async () => {
        const { fs, ref } = await tokenDoc(uid, id);
        const gone = () => new BackendError('NOT_FOUND', "That device isn't registered (any more).");
        try {
          await fs.updateDoc(ref, { lastUsed: fs.serverTimestamp() });
        } catch (error) {
          const missing = await fs.getDoc(ref).then(
            (snapshot) => !snapshot.exists(),
            () => false,
          );
          throw missing ? gone() : error;
        }
        const snapshot = await fs.getDoc(ref);
        if (!snapshot.exists()) throw gone();
        return toPushTokenDoc(snapshot.id, snapshot.data(ESTIMATE));
      }),

    deleteToken: (uid, id) =>
      guarded(async () => {
        const { fs, ref } = await tokenDoc(uid, id);
        await fs.deleteDoc(ref);
      }),

    listMyTokens: (uid) =>
      guarded(async () => {
        const { fs, collection } = await tokens(uid);
        const { docs } = await fs.getDocs(collection);
        return docs.map((doc) => toPushTokenDoc(doc.id, doc.data(ESTIMATE))).sort(byCreatedAt);
      }),
  };
}
