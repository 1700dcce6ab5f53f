// ChannelsPort on Firestore channels/{id}: one by id, one by its public handle (spec §7: the channelId field,
// limit 1), and the caller's own: those they own and those they are a member of, read and followed live. What
// rules alone cannot guard (creating with a unique handle, members' names, unread counts) goes through callables.
import { getIdTokenResult } from 'firebase/auth';
import type { QuerySnapshot } from 'firebase/firestore';
import type { ChannelsPort } from '../ports';
import type { Channel } from '@core/model';
import { canMessage } from '@core/permissions';
import { callFunction } from './callables';
import { listOf, toChannel, toChannelAnswer, toChannelMember, toChannelOverview } from './convert';
import { guarded } from './errors';
import { ESTIMATE, listenLazily } from './live';
import type { FirebaseSdk } from './sdk';

const byCreatedAt = (a: Channel, b: Channel): number => a.createdAt - b.createdAt || a.id.localeCompare(b.id);

export function createChannelsPort(sdk: FirebaseSdk): ChannelsPort {
  return {
    getChannel: (id) =>
      guarded(async () => {
        const { sdk: fs, db } = await sdk.firestore();
        const snapshot = await fs.getDoc(fs.doc(db, 'channels', id));
        return snapshot.exists() ? toChannel(snapshot.id, snapshot.data(ESTIMATE)) : null;
      }),

    findChannelByHandle: (channelId) =>
      guarded(async () => {
        const uid = sdk.requireUid();
        const { sdk: fs, db } = await sdk.firestore();
        const { docs } = await fs.getDocs(
          fs.query(fs.collection(db, 'channels'), fs.where('channelId', '==', channelId), fs.limit(1)),
        );
        const first = docs[0];
        const channel = first ? toChannel(first.id, first.data(ESTIMATE)) : null;
        // Rules let any signed-in person look a handle up (spec §7); the port answers only a channel the caller
        // may read (core/permissions.ts canReadChannel), as the embedded server does.
        if (!channel || canMessage(channel, uid)) return channel;
        const user = sdk.auth().currentUser;
        const isAdmin = user ? (await getIdTokenResult(user)).claims.isAdmin === true : false;
        return isAdmin ? channel : null;
      }),

    listMyChannels: () =>
      guarded(async () => {
        const uid = sdk.requireUid();
        const { sdk: fs, db } = await sdk.firestore();
        const channels = fs.collection(db, 'channels');
        // Firestore has no OR across these two fields that rules can check, so: two queries, merged by id.
        const [owned, joined] = await Promise.all([
          fs.getDocs(fs.query(channels, fs.where('ownerId', '==', uid))),
          fs.getDocs(fs.query(channels, fs.where('members', 'array-contains', uid))),
        ]);
        const mine = new Map<string, Channel>();
        for (const doc of [...owned.docs, ...joined.docs]) {
          if (!mine.has(doc.id)) mine.set(doc.id, toChannel(doc.id, doc.data(ESTIMATE)));
        }
        return [...mine.values()].sort(byCreatedAt);
      }),

    listOverview: () =>
      callFunction(sdk, 'get_channel_overview', null, (data) => listOf(data, 'channels', toChannelOverview)),

    createChannel: (input) => callFunction(sdk, 'create_channel', input, toChannelAnswer),

    // A callable: who may open one with whom depends on a channel both are in, and its id is the pair's.
    openPrivateChannel: (input) => callFunction(sdk, 'open_private_channel', input, toChannelAnswer),

    updateChannel: (id, patch) => callFunction(sdk, 'update_channel', { id, ...patch }, toChannelAnswer),

    listMembers: (id) =>
      callFunction(sdk, 'list_channel_members', { channelId: id }, (data) =>
        listOf(data, 'members', toChannelMember),
      ),

    // `leaving` (the page is going away) changes nothing here: a callable is a fetch the Functions SDK makes,
    // which it cannot mark keepalive, so no call can be made to outlive the page. The best there is: the mark is
    // sent at once, and a page that is only hidden (where the client flushes marks) usually lives long enough for
    // it to finish. What does not arrive is not lost: the client keeps a mark until it is acknowledged and sends
    // it again at its next start, and a late or repeated mark changes nothing (the mark only moves forward).
    markRead: async (id, upTo) => {
      await callFunction(sdk, 'mark_channel_read', { channelId: id, messageId: upTo }, () => undefined);
    },

    subscribeChannels: (listener) =>
      listenLazily(sdk, 'Live channels', ({ sdk: fs, db }) => {
        const uid = sdk.requireUid();
        const channels = fs.collection(db, 'channels');
        const onChange = (snapshot: QuerySnapshot): void => {
          for (const change of snapshot.docChanges()) {
            if (change.type !== 'removed') listener(toChannel(change.doc.id, change.doc.data(ESTIMATE)));
          }
        };
        const stops = [
          fs.onSnapshot(fs.query(channels, fs.where('ownerId', '==', uid)), onChange),
          fs.onSnapshot(fs.query(channels, fs.where('members', 'array-contains', uid)), onChange),
        ];
        return () => stops.forEach((stop) => stop());
      }),
  };
}
