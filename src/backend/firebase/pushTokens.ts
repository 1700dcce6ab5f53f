// PushTokensPort on Firestore users/{uid}/FCMTokens (spec §3 push token documents, spec §7 token calls).
import { BackendError } from '../ports';
import type { NewPushToken, PushTokensPort } from '../ports';
import type { PushTokenDoc } from '@core/model';
import { DEVICE_ID_PATTERN, LIMITS, PLATFORMS, PUSH_TOKEN_PATTERN } from '@core/limits';
import { toPushTokenDoc } from './convert';
import { guarded } from './errors';
import { ESTIMATE } from './live';
import type { FirebaseSdk } from './sdk';

const byCreatedAt = (a: PushTokenDoc, b: PushTokenDoc): number =>
  a.createdAt - b.createdAt || a.id.localeCompare(b.id);

/** The bounds of core/schemas.ts pushTokenCreateBody (firestore.rules holds the same), checked before any call. */
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
  // Rebuilt, so that nothing but these fields is ever written.
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

    addToken: (uid, input) =>
      guarded(async () => {
        const { token, deviceId, platform, userAgent } = checkNewToken(input);
        const { fs, collection } = await tokens(uid);
        // One document per (user, device), as the embedded server keeps them (server/README.md "Push tokens"):
        // the same token again is the document there is; a new token for this device replaces the old one.
        const [sameDevice, sameToken] = await Promise.all([
          fs.getDocs(fs.query(collection, fs.where('deviceId', '==', deviceId))),
          fs.getDocs(fs.query(collection, fs.where('token', '==', token))),
        ]);
        const existing = new Map([...sameDevice.docs, ...sameToken.docs].map((doc) => [doc.id, doc]));
        for (const doc of existing.values()) {
          const data = doc.data(ESTIMATE);
          if (data?.token === token && data.deviceId === deviceId) return toPushTokenDoc(doc.id, data);
        }
        await Promise.all(
          [...existing.keys()].map(async (id) => {
            const { ref } = await tokenDoc(uid, id);
            await fs.deleteDoc(ref);
          }),
        );
        // The server's clock, so that the daily prune of tokens unused for 30 days never trusts a device's.
        const ref = await fs.addDoc(collection, {
          token,
          deviceId,
          platform,
          userAgent,
          status: 'active',
          createdAt: fs.serverTimestamp(),
          lastUsed: fs.serverTimestamp(),
        });
        const now = Date.now();
        return {
          id: ref.id,
          token,
          deviceId,
          platform,
          userAgent,
          status: 'active',
          createdAt: now,
          lastUsed: now,
        };
      }),

    touchToken: (uid, id) =>
      guarded(async () => {
        const { fs, ref } = await tokenDoc(uid, id);
        await fs.updateDoc(ref, { lastUsed: fs.serverTimestamp() });
        const snapshot = await fs.getDoc(ref);
        if (!snapshot.exists())
          throw new BackendError('NOT_FOUND', "That device isn't registered (any more).");
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
