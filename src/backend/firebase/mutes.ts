// MutesPort on Firebase (issue #13 part 6): the person's mutes are read from users/{uid}/channelPrefs (firestore.rules
// let its owner read it), and written by the mute_channel and unmute_channel callables only, which check the
// duration and that the caller is in the channel and take the end from the functions' clock.
import type { MutesPort } from '../ports';
import { toChannelMutes } from '@core/documents';
import { activeMutes } from '@core/mutes';
import { callFunction } from './callables';
import { toChannelMute } from './convert';
import { guarded } from './errors';
import type { FirebaseSdk } from './sdk';

export function createMutesPort(sdk: FirebaseSdk): MutesPort {
  return {
    listMutes: () =>
      guarded(async () => {
        const uid = sdk.requireUid();
        const { sdk: fs, db } = await sdk.firestore();
        const { docs } = await fs.getDocs(fs.collection(db, 'users', uid, 'channelPrefs'));
        // Ended mutes are not deleted by any job: the clock leaves them out.
        return activeMutes(toChannelMutes(docs.map((doc) => ({ id: doc.id, data: doc.data() }))), Date.now());
      }),

    muteChannel: (channelId, duration) =>
      callFunction(sdk, 'mute_channel', { channelId, duration }, toChannelMute),

    unmuteChannel: async (channelId) => {
      await callFunction(sdk, 'unmute_channel', { channelId }, () => undefined);
    },
  };
}
