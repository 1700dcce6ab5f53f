// MutesPort on Firebase: the person's mutes are read from users/{uid}/channelPrefs (firestore.rules
// let its owner read it), and written by the mute_channel and unmute_channel callables only, which check the
// duration and that the caller is in the channel and take the end from the functions' clock. Live: a snapshot
// listener on that collection, which the SDK raises again after a reconnect when something changed meanwhile.
import type { MutesPort } from '../ports';
import { toChannelMutes } from '@core/documents';
import { activeMutes } from '@core/mutes';
import { callFunction } from './callables';
import { toChannelMute } from './convert';
import { guarded } from './errors';
import { listenLazily, reportListenerError } from './live';
import type { FirebaseSdk } from './sdk';

export function createMutesPort(sdk: FirebaseSdk): MutesPort {
  return {
    listMutes: () =>
      guarded(async () => {
        const uid = sdk.requireUid();
        const { sdk: fs, db } = await sdk.firestore();
        const { docs } = await fs.getDocs(fs.collection(db, 'users', uid, 'channelPrefs'));
        return inForce(docs);
      }),

    muteChannel: (channelId, duration) =>
      callFunction(sdk, 'mute_channel', { channelId, duration }, toChannelMute),

    unmuteChannel: async (channelId) => {
      await callFunction(sdk, 'unmute_channel', { channelId }, () => undefined);
    },

    subscribeMutes: (listener) =>
      listenLazily(sdk, 'Live mutes', ({ sdk: fs, db }) => {
        const uid = sdk.auth().currentUser?.uid;
        if (!uid) return () => undefined;
        // Every snapshot, the first included (the mutes as they stand when the window starts listening).
        return fs.onSnapshot(
          fs.collection(db, 'users', uid, 'channelPrefs'),
          (snapshot) => listener(inForce(snapshot.docs)),
          reportListenerError('Live mutes'),
        );
      }),
  };
}

/** Ended mutes are not deleted by any job: the clock leaves them out. */
function inForce(docs: ReadonlyArray<{ id: string; data(): Record<string, unknown> }>) {
  return activeMutes(toChannelMutes(docs.map((doc) => ({ id: doc.id, data: doc.data() }))), Date.now());
}
