// PendingPort on Firestore users/{uid}/pending: one document per source (a channel) with its count.
import type { PendingPort } from '../ports';
import { toPendingCounts } from './convert';
import { guarded } from './errors';
import { ESTIMATE, listenLazily } from './live';
import type { FirebaseSdk } from './sdk';

export function createPendingPort(sdk: FirebaseSdk): PendingPort {
  return {
    getPendingCounts: (uid) =>
      guarded(async () => {
        const { sdk: fs, db } = await sdk.firestore();
        const { docs } = await fs.getDocs(fs.collection(db, 'users', uid, 'pending'));
        return toPendingCounts(docs.map((doc) => ({ id: doc.id, data: doc.data(ESTIMATE) })));
      }),
    subscribePending: (uid, listener) =>
      listenLazily(sdk, 'Live pending notifications', ({ sdk: fs, db }) =>
        fs.onSnapshot(fs.collection(db, 'users', uid, 'pending'), (snapshot) =>
          listener(toPendingCounts(snapshot.docs.map((doc) => ({ id: doc.id, data: doc.data(ESTIMATE) })))),
        ),
      ),
  };
}
