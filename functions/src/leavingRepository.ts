// The Repository's leaving part on Cloud Firestore through the Admin SDK: what "Download my
// data" reads of an account, and what "Delete my account" removes or hands to the former member
// (core/leaving.ts), as the embedded server does (server/repo/leaving.ts).
import type { DocumentReference, DocumentSnapshot } from 'firebase-admin/firestore';
import {
  text,
  toChannel,
  toChannelMutes,
  toChatMessage,
  toInvitation,
  toPushTokenDoc,
  toStoredOffer,
} from '../../core/documents';
import type { ExportedMessage } from '../../core/leaving';
import {
  FORMER_MEMBER_ID,
  FORMER_MEMBER_NAME,
  privateChannelAfterLeaving,
  privateChannelAfterOwnerLeft,
  toExportedMessage,
} from '../../core/leaving';
import type { Channel, Invitation } from '../../core/model';
import { toOffer } from '../../core/offers';
import { channelDisplayName, isPrivateChannel } from '../../core/privateChannels';
import { publicName } from '../../core/users';
import { toUserDoc } from '../../core/documents';
import type { Data } from './documents';
import type { FirestoreSdk } from './firestoreRepository';
import type { AccountData, Repository } from './repository';

type LeavingRepository = Pick<Repository, 'readAccountData' | 'ownedChannelTitles' | 'deleteAccountData'>;

/** Firestore's limit of writes in one batch. */
const BATCH_LIMIT = 500;

const dataOf = (snapshot: DocumentSnapshot): Data | null =>
  snapshot.exists ? ((snapshot.data() ?? {}) as Data) : null;

/** channels/{channelId}/messages/{id} → channelId. */
const channelOfMessage = (ref: DocumentReference): string => ref.path.split('/')[1] ?? '';

export function createLeavingRepository({ db, timestampFromMillis }: FirestoreSdk): LeavingRepository {
  const userRef = (uid: string) => db.doc(`users/${uid}`);
  const channelRef = (id: string) => db.doc(`channels/${id}`);
  const sentBy = (uid: string) => db.collectionGroup('messages').where('senderId', '==', uid).get();

  /** Writes in batches of at most 500 (Firestore's limit). */
  async function inBatches(
    writes: ReadonlyArray<(batch: ReturnType<typeof db.batch>) => void>,
  ): Promise<void> {
    for (let i = 0; i < writes.length; i += BATCH_LIMIT) {
      const batch = db.batch();
      for (const write of writes.slice(i, i + BATCH_LIMIT)) write(batch);
      await batch.commit();
    }
  }

  /** Invitations with the names they are shown with (their channel's title, their consultant's name). */
  async function named(docs: DocumentSnapshot[]): Promise<Invitation[]> {
    const titles = new Map<string, string>();
    const names = new Map<string, string>();
    const out: Invitation[] = [];
    for (const doc of docs) {
      const data = dataOf(doc) ?? {};
      const channelId = text(data.channelId);
      const consultantId = text(data.consultantId);
      if (!titles.has(channelId)) {
        const channel = dataOf(await channelRef(channelId).get());
        titles.set(channelId, channel ? text(channel.title) : '');
      }
      if (!names.has(consultantId)) {
        const user = dataOf(await userRef(consultantId).get());
        names.set(consultantId, user ? publicName(toUserDoc(consultantId, user)) : FORMER_MEMBER_NAME);
      }
      out.push(
        toInvitation(doc.id, data, {
          channelTitle: titles.get(channelId) ?? '',
          consultantName: names.get(consultantId) ?? '',
        }),
      );
    }
    return out;
  }

  return {
    async readAccountData(uid, normalizedEmail): Promise<AccountData> {
      const [messages, offers, sent, accepted, addressed, tokens, prefs] = await Promise.all([
        sentBy(uid),
        db.collection('offers').where('userId', '==', uid).get(),
        db.collection('invitations').where('consultantId', '==', uid).get(),
        db.collection('invitations').where('acceptedBy', '==', uid).get(),
        normalizedEmail
          ? db.collection('invitations').where('inviteeEmail', '==', normalizedEmail).get()
          : Promise.resolve({ docs: [] as DocumentSnapshot[] }),
        userRef(uid).collection('FCMTokens').get(),
        userRef(uid).collection('channelPrefs').get(),
      ]);
      const channels = new Map<string, Channel | null>();
      const exported: ExportedMessage[] = [];
      for (const doc of messages.docs) {
        const channelId = channelOfMessage(doc.ref);
        if (!channels.has(channelId)) {
          const data = dataOf(await channelRef(channelId).get());
          channels.set(channelId, data ? toChannel(channelId, data) : null);
        }
        const channel = channels.get(channelId);
        const message = toChatMessage(channelId, doc.id, (doc.data() ?? {}) as Data);
        exported.push(toExportedMessage(message, channel ? channelDisplayName(channel, uid) : ''));
      }
      const received = new Map<string, DocumentSnapshot>();
      for (const doc of [...accepted.docs, ...addressed.docs]) received.set(doc.id, doc);
      return {
        mutes: toChannelMutes(prefs.docs.map((doc) => ({ id: doc.id, data: (doc.data() ?? {}) as Data }))),
        messages: exported,
        offersReceived: offers.docs.map((doc) => toOffer(toStoredOffer(doc.id, (doc.data() ?? {}) as Data))),
        invitationsSent: await named(sent.docs),
        invitationsReceived: await named([...received.values()]),
        devices: tokens.docs.map((doc) => toPushTokenDoc(doc.id, (doc.data() ?? {}) as Data)),
      };
    },

    async ownedChannelTitles(uid) {
      const { docs } = await db.collection('channels').where('ownerId', '==', uid).get();
      // A private consultation is no channel of theirs to manage or hand over: it stays with its client.
      return docs
        .map((doc) => toChannel(doc.id, (doc.data() ?? {}) as Data))
        .filter((channel) => !isPrivateChannel(channel))
        .sort((a, b) => a.createdAt - b.createdAt)
        .map((channel) => channel.title);
    },

    async deleteAccountData(uid, at) {
      const stamp = timestampFromMillis(at);
      const [
        messages,
        joined,
        owned,
        offers,
        accepted,
        issued,
        booked,
        served,
        services,
        offered,
        operations,
      ] = await Promise.all([
        sentBy(uid),
        db.collection('channels').where('members', 'array-contains', uid).get(),
        db.collection('channels').where('ownerId', '==', uid).get(),
        db.collection('offers').where('userId', '==', uid).get(),
        db.collection('invitations').where('acceptedBy', '==', uid).get(),
        db.collection('invitations').where('consultantId', '==', uid).get(),
        db.collection('bookings').where('clientId', '==', uid).get(),
        db.collection('bookings').where('consultantId', '==', uid).get(),
        db.collection('services').where('consultantId', '==', uid).get(),
        db.collection('offers').where('consultantId', '==', uid).get(),
        db.collection('operations').where('uid', '==', uid).get(),
      ]);
      const under = await Promise.all(
        ['FCMTokens', 'pending', 'channelPrefs', 'channelReads', 'ledger', 'uploads'].map((name) =>
          userRef(uid).collection(name).get(),
        ),
      );
      type Write = (batch: ReturnType<typeof db.batch>) => void;
      const writes: Write[] = [];
      // What stays: messages (renamed, stamped as a change so live readers get it), invitations, consultations.
      for (const doc of messages.docs) {
        writes.push((b) =>
          b.update(doc.ref, { senderId: FORMER_MEMBER_ID, senderName: FORMER_MEMBER_NAME, updatedAt: stamp }),
        );
      }
      for (const doc of accepted.docs) {
        writes.push((b) => b.update(doc.ref, { acceptedBy: FORMER_MEMBER_ID, inviteeEmail: null }));
      }
      for (const doc of issued.docs) {
        const open = text(doc.get('status')) === 'pending';
        writes.push((b) =>
          b.update(doc.ref, { consultantId: FORMER_MEMBER_ID, ...(open ? { status: 'expired' } : {}) }),
        );
      }
      for (const doc of joined.docs) {
        const channel = toChannel(doc.id, (doc.data() ?? {}) as Data);
        const members = channel.members.filter((member) => member !== uid);
        const rename = isPrivateChannel(channel)
          ? privateChannelAfterLeaving(channel.names ?? {}, channel.ownerId)
          : null;
        writes.push((b) => b.update(doc.ref, { members, ...(rename ?? {}) }));
        writes.push((b) => b.delete(db.doc(`channels/${doc.id}/members/${uid}`)));
        // Their read receipt and typing signal (receiptsRepository.ts): no one reads a leaver's marks.
        writes.push((b) => b.delete(db.doc(`channels/${doc.id}/receipts/${uid}`)));
        writes.push((b) => b.delete(db.doc(`channels/${doc.id}/typing/${uid}`)));
      }
      // Their private consultations stay with their clients, read-only, under the former member (only those are
      // left: ownedChannelTitles refused the account while it owned any other channel).
      for (const doc of owned.docs) {
        const channel = toChannel(doc.id, (doc.data() ?? {}) as Data);
        if (!isPrivateChannel(channel)) continue;
        writes.push((b) =>
          b.update(doc.ref, privateChannelAfterOwnerLeft(channel.names ?? {}, channel.members[0] ?? '', at)),
        );
      }
      // The practice, as on the embedded server: bookings stay in the other person's history under the
      // former member, a consultant's services stay (archived) for the bookings that name them, the offers they
      // made name the former member; their hours and their operation records go.
      for (const doc of booked.docs)
        writes.push((b) => b.update(doc.ref, { clientId: FORMER_MEMBER_ID, clientName: FORMER_MEMBER_NAME }));
      for (const doc of served.docs)
        writes.push((b) =>
          b.update(doc.ref, { consultantId: FORMER_MEMBER_ID, consultantName: FORMER_MEMBER_NAME }),
        );
      for (const doc of services.docs) {
        writes.push((b) => b.update(doc.ref, { consultantId: FORMER_MEMBER_ID, status: 'archived' }));
      }
      for (const doc of offered.docs)
        writes.push((b) => b.update(doc.ref, { consultantId: FORMER_MEMBER_ID }));
      for (const doc of operations.docs) writes.push((b) => b.delete(doc.ref));
      writes.push((b) => b.delete(db.doc(`availability/${uid}`)));
      // What goes: offers granted to them, everything under users/{uid} (their ledger too), and the user document last.
      for (const doc of [...offers.docs, ...under.flatMap((snapshot) => snapshot.docs)]) {
        writes.push((b) => b.delete(doc.ref));
      }
      writes.push((b) => b.delete(userRef(uid)));
      await inBatches(writes);
    },
  };
}
