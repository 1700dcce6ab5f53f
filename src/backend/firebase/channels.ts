// ChannelsPort on Firestore channels/{id}: one by id, one by its public handle (channelHandles/{handle} → id, then
// the channel by id), and the caller's own: those they own and those they are a member of, read and followed live. What
// rules alone cannot guard (creating with a unique handle, members' names, unread counts) goes through callables.
import type { QuerySnapshot } from 'firebase/firestore';
import type { ChannelsPort } from '../ports';
import type { Channel } from '@core/model';
import { CHANNEL_HANDLE_PATTERN } from '@core/channels';
import { DOCUMENT_ID_PATTERN } from '@core/ids';
import { callFunction } from './callables';
import { listOf, toChannel, toChannelAnswer, toChannelMember, toChannelOverview } from './convert';
import { guarded, toBackendError } from './errors';
import { ESTIMATE, listenLazily } from './live';
import type { FirebaseSdk } from './sdk';
import type { SessionGuard } from './sessionGuard';

const byCreatedAt = (a: Channel, b: Channel): number => a.createdAt - b.createdAt || a.id.localeCompare(b.id);

export function createChannelsPort(sdk: FirebaseSdk, session?: SessionGuard): ChannelsPort {
  return {
    getChannel: (id) =>
      guarded(async () => {
        const { sdk: fs, db } = await sdk.firestore();
        const snapshot = await fs.getDoc(fs.doc(db, 'channels', id));
        return snapshot.exists() ? toChannel(snapshot.id, snapshot.data(ESTIMATE)) : null;
      }),

    // spec §7's lookup by handle, without a query over channels (which would let anyone page through
    // them): channelHandles/{handle} holds only the channel's id, readable only by those who may read the
    // channel (firestore.rules), and the channel is then read under its own rules (owner, members, admins). A
    // channel the caller may not read, or no channel, is no answer, as on the embedded server — unless the
    // refusal was of a session ended elsewhere (the guard signs out and says so).
    findChannelByHandle: (channelId) =>
      guarded(async () => {
        sdk.requireUid();
        if (!CHANNEL_HANDLE_PATTERN.test(channelId)) return null;
        const { sdk: fs, db } = await sdk.firestore();
        try {
          const handle = await fs.getDoc(fs.doc(db, 'channelHandles', channelId));
          const id: unknown = handle.exists() ? handle.data()?.id : undefined;
          if (typeof id !== 'string' || !DOCUMENT_ID_PATTERN.test(id)) return null;
          const snapshot = await fs.getDoc(fs.doc(db, 'channels', id));
          return snapshot.exists() ? toChannel(snapshot.id, snapshot.data(ESTIMATE)) : null;
        } catch (error) {
          const failure = toBackendError(error);
          if (failure.status !== 'PERMISSION_DENIED') throw failure;
          await session?.check(failure);
          return null;
        }
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
