// The Repository on Cloud Firestore through the Admin SDK (which rules do not bind: functions are the trusted
// writers of roles, balances, invitations, offers and pending counts). Layout: ARCHITECTURE.md "Data", with
// users/{uid}/pending/{channelId} = {count, updatedAt}. The SDK comes in as a parameter so that tests can give
// a fake of it.
import { randomBytes } from 'node:crypto';
import { toAttachment } from '../../core/attachments';
import { LEDGER_IDS } from '../../core/ledger';
import { normalizeEmail } from '../../core/email';
import { toReplyQuote } from '../../core/replies';
import type {
  DocumentData,
  DocumentReference,
  DocumentSnapshot,
  FieldValue,
  Firestore,
  Timestamp,
  Transaction,
} from 'firebase-admin/firestore';
import type { ReadMark } from '../../core/channels';
import { compareMessages } from '../../core/messages';
import { toPhotoMap } from '../../core/photos';
import { privateChannelAfterRename } from '../../core/privateChannels';
import type { Channel, ChatMessage, UserDoc } from '../../core/model';
import { badgeCount } from '../../core/pending';
import type { JoinedChannel } from '../../core/users';
import { publicName } from '../../core/users';
import {
  text,
  toChannel,
  toChatMessage,
  toInvitation,
  toMillis,
  toChannelMutes,
  toNotificationSettings,
  toPendingCounts,
  toPushTokenDoc,
  toStoredOffer,
  toUserDoc,
} from '../../core/documents';
import { userData } from './documents';
import { createLeavingRepository } from './leavingRepository';
import { createUploadsRepository } from './uploadsRepository';
import { createReceiptsRepository } from './receiptsRepository';
import type { Data } from './documents';
import type {
  InvitationOutcome,
  InvitationState,
  Repository,
  StoredToken,
  TokenRef,
  UploadRecord,
} from './repository';
import type { MissedMailState } from '../../core/missedMail';

/** The parts of the Admin SDK the repository uses. */
export interface FirestoreSdk {
  db: Firestore;
  fieldValue: {
    serverTimestamp(): FieldValue;
    arrayUnion(...elements: unknown[]): FieldValue;
    delete(): FieldValue;
    increment(n: number): FieldValue;
  };
  timestampFromMillis(ms: number): Timestamp;
}

/** Firestore's limit of writes in one batch. */
const BATCH_LIMIT = 500;
/** Firestore's limit of values in one 'in' filter. */
const IN_LIMIT = 30;
/** gRPC ALREADY_EXISTS, what create() throws for a document that exists. */
const ALREADY_EXISTS = 6;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const dataOf = (snapshot: DocumentSnapshot): Data | null =>
  snapshot.exists ? ((snapshot.data() ?? {}) as Data) : null;

function toUploadRecord(channelId: string, attachmentId: string, data: Data): UploadRecord {
  return {
    channelId,
    attachmentId,
    uploaderId: text(data.uploaderId),
    attachment: toAttachment(data.attachment),
    createdAt: toMillis(data.createdAt),
    messageId: typeof data.messageId === 'string' ? data.messageId : null,
  };
}

/** A stored read marker; one from before read marks named a message has no lastReadId: its whole millisecond was read. */
function toReadMark(data: Data): ReadMark {
  return { createdAt: toMillis(data.lastReadAt), id: text(data.lastReadId) };
}

/** The fields of `after` that differ from `before` (a whole new document when there was none). */
function changedFields(before: UserDoc | null, after: UserDoc): Data {
  const next = userData(after);
  if (!before) return next;
  const previous = userData(before);
  const changed: Data = {};
  for (const [key, value] of Object.entries(next)) {
    if (JSON.stringify(previous[key]) !== JSON.stringify(value)) changed[key] = value;
  }
  return changed;
}

export function createFirestoreRepository({ db, fieldValue, timestampFromMillis }: FirestoreSdk): Repository {
  const userRef = (uid: string) => db.doc(`users/${uid}`);
  const channelRef = (id: string) => db.doc(`channels/${id}`);
  const invitationRef = (id: string) => db.doc(`invitations/${id}`);
  // A channel's members with their join times, a handle's reservation, a person's read markers.
  const memberRef = (channelId: string, uid: string) => db.doc(`channels/${channelId}/members/${uid}`);
  const handleRef = (handle: string) => db.doc(`channelHandles/${handle}`);
  const readRef = (uid: string, channelId: string) => db.doc(`users/${uid}/channelReads/${channelId}`);
  const missedMailRef = (uid: string, channelId: string) => db.doc(`missedMail/${uid}_${channelId}`);
  const revocationRef = (uid: string) => db.doc(`revocations/${uid}`);
  const uploadRef = (channelId: string, attachmentId: string) =>
    db.doc(`channels/${channelId}/uploads/${attachmentId}`);
  const ts = (ms: number) => timestampFromMillis(ms);
  const messagesOf = (channelId: string) => channelRef(channelId).collection('messages');
  const channelsOf = (snapshot: { docs: DocumentSnapshot[] }): Channel[] =>
    snapshot.docs.map((doc) => toChannel(doc.id, dataOf(doc) ?? {}));

  /** The messages of one millisecond, in core/messages.ts order: [its Timestamp, the next one's). */
  async function messagesAt(channelId: string, at: number): Promise<ChatMessage[]> {
    const { docs } = await messagesOf(channelId)
      .where('createdAt', '>=', ts(at))
      .where('createdAt', '<', ts(at + 1))
      .get();
    return docs
      .map((doc) => toChatMessage(channelId, doc.id, (doc.data() ?? {}) as Data))
      .sort(compareMessages);
  }

  async function deleteAll(refs: readonly DocumentReference[]): Promise<void> {
    for (const part of chunks(refs, BATCH_LIMIT)) {
      const batch = db.batch();
      for (const ref of part) batch.delete(ref);
      await batch.commit();
    }
  }

  /** Reads an invitation with its channel, its consultant and the caller, inside `tx`. */
  async function readInvitationState(tx: Transaction, id: string, uid: string): Promise<InvitationState> {
    const raw = dataOf(await tx.get(invitationRef(id)));
    const channelId = raw ? text(raw.channelId) : '';
    const consultantId = raw ? text(raw.consultantId) : '';
    const channelData = channelId ? dataOf(await tx.get(channelRef(channelId))) : null;
    const consultantData = consultantId ? dataOf(await tx.get(userRef(consultantId))) : null;
    const userData_ = dataOf(await tx.get(userRef(uid)));
    const channel = channelData ? toChannel(channelId, channelData) : null;
    const consultant = consultantData ? toUserDoc(consultantId, consultantData) : null;
    return {
      invitation: raw
        ? toInvitation(id, raw, {
            channelTitle: channel?.title ?? '',
            consultantName: consultant ? publicName(consultant) : '',
          })
        : null,
      channel,
      user: userData_ ? toUserDoc(uid, userData_) : null,
      ledgerOpened: userData_?.ledgerOpened === true,
    };
  }

  function writeUser(tx: Transaction, before: UserDoc | null, after: UserDoc, extra: Data = {}): void {
    const fields = { ...changedFields(before, after), ...extra };
    if (!before) tx.set(userRef(after.uid), { ...fields, createdAt: fieldValue.serverTimestamp() });
    else if (Object.keys(fields).length > 0) tx.update(userRef(after.uid), fields);
  }

  /** A private consultation's document (core/privateChannels.ts newPrivateChannel) and its member's record. */
  function writePrivateChannel(tx: Transaction, channel: Channel): void {
    tx.create(channelRef(channel.id), {
      channelId: channel.channelId,
      ownerId: channel.ownerId,
      title: channel.title,
      description: channel.description,
      members: channel.members,
      createdAt: ts(channel.createdAt),
      kind: 'private',
      names: channel.names ?? {},
    });
    for (const member of channel.members) {
      tx.set(memberRef(channel.id, member), { uid: member, joinedAt: ts(channel.createdAt) });
    }
  }

  return {
    // Leaving (leavingRepository.ts)
    ...createLeavingRepository({ db, fieldValue, timestampFromMillis }),
    // the storage quota (uploadsRepository.ts)
    ...createUploadsRepository({ db, fieldValue, timestampFromMillis }),
    // read receipts (receiptsRepository.ts)
    ...createReceiptsRepository({ db, fieldValue, timestampFromMillis }),

    newId: () => db.collection('channels').doc().id,

    async getChannel(id) {
      const data = dataOf(await channelRef(id).get());
      return data ? toChannel(id, data) : null;
    },

    async getUser(uid) {
      const data = dataOf(await userRef(uid).get());
      return data ? toUserDoc(uid, data) : null;
    },

    async createUserIfAbsent(user) {
      try {
        await userRef(user.uid).create({ ...userData(user), createdAt: fieldValue.serverTimestamp() });
        return true;
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code === ALREADY_EXISTS) return false;
        throw error;
      }
    },

    async listOffersFor(uid) {
      const { docs } = await db
        .collection('offers')
        .where('userId', '==', uid)
        .where('status', '==', 'active')
        .get();
      return docs.map((doc) => toStoredOffer(doc.id, doc.data() as Data));
    },

    async clearPending(uid) {
      if (!(await userRef(uid).get()).exists) return false;
      const { docs } = await userRef(uid).collection('pending').get();
      await deleteAll(docs.map((doc) => doc.ref));
      return true;
    },

    async addPending(uids, source, muted = {}) {
      // An atomic increment per recipient, then their counts read back: no transaction. Concurrent messages in one
      // channel raise the same recipients' counts; a read-then-write transaction per recipient made them wait on
      // each other's locks (two readers of one pending collection both waiting to write), and a burst of messages
      // ran out of attempts, losing counts and every push after the failed recipient. An increment never loses
      // one; the badge read after it includes this message (and any that landed meanwhile: the newest count).
      const entries = await Promise.all(
        uids.map(async (uid) => {
          const pending = userRef(uid).collection('pending');
          await pending
            .doc(source)
            .set(
              { count: fieldValue.increment(1), updatedAt: fieldValue.serverTimestamp() },
              { merge: true },
            );
          const { docs } = await pending.get();
          const counts = toPendingCounts(docs.map((doc) => ({ id: doc.id, data: doc.data() })));
          return [uid, badgeCount(counts, muted[uid])] as const;
        }),
      );
      return Object.fromEntries(entries);
    },

    async getMutes(uids) {
      const entries = await Promise.all(
        uids.map(async (uid) => {
          const { docs } = await userRef(uid).collection('channelPrefs').get();
          return [uid, toChannelMutes(docs.map((doc) => ({ id: doc.id, data: doc.data() })))] as const;
        }),
      );
      return Object.fromEntries(entries);
    },

    async setMute(uid, channelId, mutedUntil) {
      const ref = userRef(uid).collection('channelPrefs').doc(channelId);
      if (mutedUntil === null) await ref.delete();
      else await ref.set({ mutedUntil });
    },

    async getInvitation(id) {
      const raw = dataOf(await invitationRef(id).get());
      if (!raw) return null;
      const channelId = text(raw.channelId);
      const consultantId = text(raw.consultantId);
      const [channelData, consultantData] = await Promise.all([
        channelId ? channelRef(channelId).get().then(dataOf) : null,
        consultantId ? userRef(consultantId).get().then(dataOf) : null,
      ]);
      return toInvitation(id, raw, {
        channelTitle: channelData ? text(channelData.title) : '',
        consultantName: consultantData ? publicName(toUserDoc(consultantId, consultantData)) : '',
      });
    },

    acceptInvitation(id, uid, decide) {
      return db.runTransaction(async (tx): Promise<InvitationOutcome> => {
        const state = await readInvitationState(tx, id, uid);
        const outcome = decide(state);
        const opened = outcome.privateChannel;
        if (opened) {
          // Reads come before the writes of a transaction: the consultation may exist already.
          const stored = dataOf(await tx.get(channelRef(opened.id)));
          tx.update(invitationRef(id), {
            status: outcome.invitation.status,
            acceptedBy: uid,
            acceptedAt: fieldValue.serverTimestamp(),
            privateChannelId: opened.id,
          });
          if (!stored) writePrivateChannel(tx, opened);
          writeUser(tx, state.user, outcome.user);
          return { ...outcome, privateChannel: stored ? toChannel(opened.id, stored) : opened };
        }
        tx.update(invitationRef(id), {
          status: outcome.invitation.status,
          acceptedBy: uid,
          acceptedAt: fieldValue.serverTimestamp(),
        });
        tx.update(channelRef(outcome.invitation.channelId), { members: fieldValue.arrayUnion(uid) });
        // When they joined: the members list and effectiveConId's "first channel joined" read it.
        tx.set(memberRef(outcome.invitation.channelId, uid), { uid, joinedAt: fieldValue.serverTimestamp() });
        writeUser(tx, state.user, outcome.user);
        return outcome;
      });
    },

    activateInvitation(id, uid, decide) {
      return db.runTransaction(async (tx): Promise<InvitationOutcome> => {
        const state = await readInvitationState(tx, id, uid);
        const outcome = decide(state);
        tx.update(invitationRef(id), {
          status: outcome.invitation.status,
          activatedAt: fieldValue.serverTimestamp(),
        });
        const entry = outcome.ledger;
        writeUser(tx, state.user, outcome.user, entry ? { ledgerOpened: true } : {});
        if (entry) {
          // The grant is a ledger entry written with the balance (practiceRepository.ts); a balance from before
          // the ledger gets its opening entry first.
          const before = state.user;
          const ledger = userRef(uid).collection('ledger');
          if (!state.ledgerOpened && before && (before.credits > 0 || before.passCount > 0)) {
            const amount = { credits: before.credits, passes: before.passCount };
            tx.create(ledger.doc(LEDGER_IDS.opening), {
              kind: 'opening',
              delta: amount,
              amount,
              balanceAfter: amount,
              createdAt: ts(entry.createdAt),
            });
          }
          const { id: entryId, uid: _uid, createdAt, ...fields } = entry;
          tx.create(ledger.doc(entryId), { ...fields, createdAt: ts(createdAt) });
        }
        return outcome;
      });
    },

    async getRevokedBefore(uid) {
      const data = dataOf(await revocationRef(uid).get());
      const value = data?.revokedBefore;
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    },

    recordRevocation(uid, revokedBefore) {
      return db.runTransaction(async (tx) => {
        const stored = dataOf(await tx.get(revocationRef(uid)))?.revokedBefore;
        if (typeof stored === 'number' && stored >= revokedBefore) return;
        tx.set(revocationRef(uid), { revokedBefore });
      });
    },

    async getUpload(channelId, attachmentId) {
      const data = dataOf(await uploadRef(channelId, attachmentId).get());
      return data ? toUploadRecord(channelId, attachmentId, data) : null;
    },

    async deleteUpload(channelId, attachmentId) {
      await uploadRef(channelId, attachmentId).delete();
    },

    async listUnsentUploadsBefore(cutoff) {
      // One range on createdAt over every channel's uploads (a collection-group single-field index,
      // firestore.indexes.json); the few sent ones in it are left out here rather than by a composite index.
      const { docs } = await db.collectionGroup('uploads').where('createdAt', '<', ts(cutoff)).get();
      return docs
        .flatMap((doc) => {
          // channels/{channelId}/uploads/{attachmentId}; any other collection named uploads is not one.
          const [root, channelId, , attachmentId] = doc.ref.path.split('/');
          if (root !== 'channels' || !channelId || !attachmentId) return [];
          return [toUploadRecord(channelId, attachmentId, dataOf(doc) ?? {})];
        })
        .filter((upload) => upload.messageId === null);
    },

    async findMessageWithAttachment(channelId, attachmentId) {
      // A single-field index on the map's field (Firestore makes those itself).
      const { docs } = await messagesOf(channelId).where('attachment.id', '==', attachmentId).limit(1).get();
      const doc = docs[0];
      if (doc) return toChatMessage(channelId, doc.id, (doc.data() ?? {}) as Data);
      // A file of a message with several (a list, which no query reaches into): its upload record names the
      // message, which must list it.
      const upload = dataOf(await db.doc(`channels/${channelId}/uploads/${attachmentId}`).get());
      const messageId = upload?.messageId;
      if (typeof messageId !== 'string') return null;
      const message = dataOf(await messagesOf(channelId).doc(messageId).get());
      if (!message) return null;
      const found = toChatMessage(channelId, messageId, message);
      return found.attachments?.some((file) => file.id === attachmentId) ? found : null;
    },

    async dropMessageAttachment(channelId, messageId, { tombstone, at }) {
      await messagesOf(channelId)
        .doc(messageId)
        .update({
          attachment: fieldValue.delete(),
          attachments: fieldValue.delete(),
          updatedAt: ts(at),
          ...(tombstone ? { text: '', deleted: true } : {}),
        });
    },

    async scrubQuotesOf(channelId, messageId) {
      // A single-field index on the map's field, as for attachment.id.
      const { docs } = await messagesOf(channelId).where('replyTo.id', '==', messageId).get();
      const quoting = docs.filter((doc) => toReplyQuote(doc.data().replyTo)?.snippet !== '');
      // The server's time, as every client change is stamped: after the deletion's own version.
      for (const doc of quoting) {
        await doc.ref.update({ 'replyTo.snippet': '', updatedAt: fieldValue.serverTimestamp() });
      }
      return quoting.length;
    },

    async setMessageSenderName(channelId, messageId, senderName) {
      await db.doc(`channels/${channelId}/messages/${messageId}`).update({ senderName });
    },

    async listChannelsFor(uid) {
      const channels = db.collection('channels');
      const [owned, joined] = await Promise.all([
        channels.where('ownerId', '==', uid).get(),
        channels.where('members', 'array-contains', uid).get(),
      ]);
      const byId = new Map<string, Channel>();
      for (const channel of [...channelsOf(owned), ...channelsOf(joined)]) byId.set(channel.id, channel);
      return [...byId.values()];
    },

    setChannelPhoto(channelId, uid, photoURL) {
      // Read and written in one transaction: two people changing their faces at once both stay.
      return db.runTransaction(async (tx) => {
        const data = dataOf(await tx.get(channelRef(channelId)));
        if (!data) return;
        const photos = toPhotoMap(data.photos);
        if (photoURL === null) delete photos[uid];
        else photos[uid] = photoURL;
        tx.update(channelRef(channelId), { photos });
      });
    },

    renamePrivateChannel(channelId, uid, name) {
      // Read and written in one transaction: the two people renaming themselves at once both stay.
      return db.runTransaction(async (tx) => {
        const snapshot = await tx.get(channelRef(channelId));
        const data = dataOf(snapshot);
        if (!data) return false;
        const after = privateChannelAfterRename(toChannel(channelId, data), uid, name);
        if (!after) return false;
        tx.update(channelRef(channelId), { title: after.title, names: after.names });
        return true;
      });
    },

    async listAllChannels() {
      return channelsOf(await db.collection('channels').get());
    },

    createChannel(channel) {
      return db.runTransaction(async (tx) => {
        // The reservation document makes the handle unique under concurrent creates; the query also finds
        // channels made before reservations existed.
        const reserved = await tx.get(handleRef(channel.channelId));
        const existing = await tx.get(
          db.collection('channels').where('channelId', '==', channel.channelId).limit(1),
        );
        if (reserved.exists || !existing.empty) return false;
        tx.create(handleRef(channel.channelId), { id: channel.id });
        tx.create(channelRef(channel.id), {
          channelId: channel.channelId,
          ownerId: channel.ownerId,
          title: channel.title,
          description: channel.description,
          members: [],
          createdAt: ts(channel.createdAt),
        });
        return true;
      });
    },

    ensurePrivateChannel(channel) {
      return db.runTransaction(async (tx) => {
        const stored = dataOf(await tx.get(channelRef(channel.id)));
        if (stored) return toChannel(channel.id, stored);
        writePrivateChannel(tx, channel);
        return channel;
      });
    },

    updateChannel(id, decide) {
      return db.runTransaction(async (tx) => {
        const data = dataOf(await tx.get(channelRef(id)));
        const channel = data ? toChannel(id, data) : null;
        const next = decide(channel);
        tx.update(channelRef(id), { title: next.title, description: next.description });
        return { ...(channel as Channel), ...next };
      });
    },

    async memberJoinTimes(channelId) {
      const { docs } = await channelRef(channelId).collection('members').get();
      const times: Record<string, number> = {};
      for (const doc of docs) times[doc.id] = toMillis(doc.get('joinedAt'));
      return times;
    },

    async getUsers(uids) {
      const unique = [...new Set(uids)];
      const snapshots = await Promise.all(unique.map((uid) => userRef(uid).get()));
      const users = new Map<string, UserDoc>();
      snapshots.forEach((snapshot, i) => {
        const data = dataOf(snapshot);
        const uid = unique[i];
        if (data && uid !== undefined) users.set(uid, toUserDoc(uid, data));
      });
      return users;
    },

    async listUsers() {
      const { docs } = await db.collection('users').get();
      return docs.map((doc) => {
        const data = (doc.data() ?? {}) as Data;
        return { user: toUserDoc(doc.id, data), createdAt: toMillis(data.createdAt) };
      });
    },

    async latestMessage(channelId) {
      const { docs } = await messagesOf(channelId).orderBy('createdAt', 'desc').limit(1).get();
      const doc = docs[0];
      if (!doc) return null;
      // The newest by stored time is in the newest millisecond; of that millisecond, the last by id.
      const newest = toChatMessage(channelId, doc.id, (doc.data() ?? {}) as Data);
      return (await messagesAt(channelId, newest.createdAt)).at(-1) ?? newest;
    },

    async getMessage(channelId, messageId) {
      const data = dataOf(await messagesOf(channelId).doc(messageId).get());
      return data ? toChatMessage(channelId, messageId, data) : null;
    },

    messagesAt,

    async countMessages(channelId, from, senderId) {
      const messages = messagesOf(channelId);
      // A millisecond starts at its Timestamp (stored times are that or later within it).
      const scope = from === null ? messages : messages.where('createdAt', '>=', ts(from));
      // Aggregations: the server counts, nothing is downloaded (index: messages senderId + createdAt).
      const [all, by] = await Promise.all([
        scope.count().get(),
        scope.where('senderId', '==', senderId).count().get(),
      ]);
      return { all: all.data().count, by: by.data().count };
    },

    async getReadMark(uid, channelId) {
      const data = dataOf(await readRef(uid, channelId).get());
      return data ? toReadMark(data) : null;
    },

    updateReadMark(uid, channelId, decide) {
      return db.runTransaction(async (tx) => {
        const data = dataOf(await tx.get(readRef(uid, channelId)));
        const current = data ? toReadMark(data) : null;
        const next = decide(current);
        if (current && current.createdAt === next.createdAt && current.id === next.id) return current;
        tx.set(readRef(uid, channelId), { lastReadAt: ts(next.createdAt), lastReadId: next.id });
        return next;
      });
    },

    async createInvitation(invitation) {
      await invitationRef(invitation.id).create({
        channelId: invitation.channelId,
        consultantId: invitation.consultantId,
        ...(invitation.inviteeEmail !== undefined ? { inviteeEmail: invitation.inviteeEmail } : {}),
        status: 'pending',
        passes: invitation.passes,
        credits: invitation.credits,
        expiresAt: ts(invitation.expiresAt),
        createdAt: ts(invitation.createdAt),
        ...(invitation.privateConsultation === true ? { privateConsultation: true } : {}),
      });
    },

    async listInvitationsForChannel(channelId) {
      const [{ docs }, channelData] = await Promise.all([
        db.collection('invitations').where('channelId', '==', channelId).get(),
        channelRef(channelId).get().then(dataOf),
      ]);
      const consultants = new Map<string, string>();
      for (const uid of new Set(docs.map((doc) => text(doc.get('consultantId'))))) {
        const data = uid ? dataOf(await userRef(uid).get()) : null;
        consultants.set(uid, data ? publicName(toUserDoc(uid, data)) : '');
      }
      const channelTitle = channelData ? text(channelData.title) : '';
      return docs.map((doc) => {
        const data = (doc.data() ?? {}) as Data;
        return {
          invitation: toInvitation(doc.id, data, {
            channelTitle,
            consultantName: consultants.get(text(data.consultantId)) ?? '',
          }),
          createdAt: toMillis(data.createdAt),
        };
      });
    },

    async listPendingInvitationsFor(email) {
      const { docs } = await db
        .collection('invitations')
        .where('inviteeEmail', '==', normalizeEmail(email))
        .where('status', '==', 'pending')
        .get();
      // The names each invitation is shown with: its channel's title, its consultant's public name (a few
      // invitations at most, usually from one consultant).
      const titles = new Map<string, string>();
      const names = new Map<string, string>();
      for (const doc of docs) {
        const channelId = text(doc.get('channelId'));
        const consultantId = text(doc.get('consultantId'));
        if (channelId && !titles.has(channelId)) {
          const data = dataOf(await channelRef(channelId).get());
          titles.set(channelId, data ? text(data.title) : '');
        }
        if (consultantId && !names.has(consultantId)) {
          const data = dataOf(await userRef(consultantId).get());
          names.set(consultantId, data ? publicName(toUserDoc(consultantId, data)) : '');
        }
      }
      return docs.map((doc) => {
        const data = (doc.data() ?? {}) as Data;
        return {
          invitation: toInvitation(doc.id, data, {
            channelTitle: titles.get(text(data.channelId)) ?? '',
            consultantName: names.get(text(data.consultantId)) ?? '',
          }),
          createdAt: toMillis(data.createdAt),
        };
      });
    },

    async createOffer(offer) {
      await db.doc(`offers/${offer.offeringId}`).create({
        offeringId: offer.offeringId,
        userId: offer.userId,
        channelId: offer.channelId,
        discountPercent: offer.discountPercent,
        source: offer.source,
        status: offer.status,
        expiresAt: ts(offer.expiresAt),
        createdAt: ts(offer.createdAt),
      });
    },

    async listOffersForChannels(channelIds) {
      const parts = await Promise.all(
        chunks([...new Set(channelIds)], IN_LIMIT).map((part) =>
          db.collection('offers').where('channelId', 'in', part).get(),
        ),
      );
      return parts.flatMap(({ docs }) =>
        docs.map((doc) => toStoredOffer(doc.id, (doc.data() ?? {}) as Data)),
      );
    },

    setRole(uid, decide) {
      return db.runTransaction(async (tx) => {
        const data = dataOf(await tx.get(userRef(uid)));
        const memberships = await tx.get(db.collection('channels').where('members', 'array-contains', uid));
        const joined: JoinedChannel[] = [];
        for (const doc of memberships.docs) {
          const channel = toChannel(doc.id, dataOf(doc) ?? {});
          const member = dataOf(await tx.get(memberRef(doc.id, uid)));
          joined.push({
            ownerId: channel.ownerId,
            joinedAt: member ? toMillis(member.joinedAt) : channel.createdAt,
          });
        }
        const before = data ? toUserDoc(uid, data) : null;
        const after = decide(before, joined);
        tx.update(userRef(uid), { isOwner: after.isOwner, effectiveConId: after.effectiveConId });
        return { user: after, createdAt: toMillis(data?.createdAt) };
      });
    },

    saveDeviceToken(uid, created, decide) {
      return db.runTransaction(async (tx) => {
        const mine = userRef(uid).collection('FCMTokens');
        const [sameDevice, sameToken] = await Promise.all([
          tx.get(mine.where('deviceId', '==', created.deviceId)),
          tx.get(db.collectionGroup('FCMTokens').where('token', '==', created.token)),
        ]);
        const related = [...sameDevice.docs, ...sameToken.docs].flatMap((doc): StoredToken[] => {
          // users/{uid}/FCMTokens/{id}: the owner is the second segment of the document's path.
          const [root, owner] = doc.ref.path.split('/');
          return root === 'users' && owner
            ? [{ ...toPushTokenDoc(doc.id, (doc.data() ?? {}) as Data), uid: owner }]
            : [];
        });
        const { keep, remove } = decide(related);
        for (const doc of remove) tx.delete(userRef(doc.uid).collection('FCMTokens').doc(doc.id));
        if (keep) {
          const { uid: _owner, ...doc } = keep;
          return doc;
        }
        const { id, ...fields } = created;
        tx.create(mine.doc(id), {
          ...fields,
          createdAt: ts(created.createdAt),
          lastUsed: ts(created.lastUsed),
        });
        return created;
      });
    },

    async listActiveTokens(uids) {
      const perUser = await Promise.all(
        uids.map(async (uid) => {
          const { docs } = await userRef(uid).collection('FCMTokens').where('status', '==', 'active').get();
          return docs.map((doc): TokenRef => ({ uid, id: doc.id, token: text(doc.get('token')) }));
        }),
      );
      return perUser.flat().filter((ref) => ref.token !== '');
    },

    async deleteTokens(tokens) {
      await deleteAll(tokens.map(({ uid, id }) => userRef(uid).collection('FCMTokens').doc(id)));
    },

    async deleteTokensUnusedSince(cutoff) {
      let deleted = 0;
      // In pages, so that a backlog of any size is pruned within the function's memory.
      for (;;) {
        const { docs } = await db
          .collectionGroup('FCMTokens')
          .where('lastUsed', '<', timestampFromMillis(cutoff))
          .limit(BATCH_LIMIT)
          .get();
        if (docs.length === 0) return deleted;
        await deleteAll(docs.map((doc) => doc.ref as DocumentReference<DocumentData>));
        deleted += docs.length;
        if (docs.length < BATCH_LIMIT) return deleted;
      }
    },

    async recentMessages(since) {
      const channels = channelsOf(await db.collection('channels').get());
      const found = await Promise.all(
        channels.map(async (channel) => {
          const { docs } = await messagesOf(channel.id).where('createdAt', '>', ts(since)).get();
          const messages = docs
            .map((doc) => toChatMessage(channel.id, doc.id, (doc.data() ?? {}) as Data))
            .sort(compareMessages);
          return { channel, messages };
        }),
      );
      return found.filter((entry) => entry.messages.length > 0);
    },

    async getMissedMailState(uid, channelId) {
      return toMissedMailState(dataOf(await missedMailRef(uid, channelId).get()));
    },

    recordMissedMail(uid, channelId, expected, next, mail) {
      return db.runTransaction(async (tx) => {
        const current = toMissedMailState(dataOf(await tx.get(missedMailRef(uid, channelId))));
        if (!sameMissedMailState(current, expected)) return false;
        tx.set(missedMailRef(uid, channelId), {
          uid,
          channelId,
          coveredAt: next.coveredUpTo?.createdAt ?? 0,
          coveredId: next.coveredUpTo?.id ?? '',
          lastSentAt: next.lastSentAt,
        });
        if (mail) tx.create(db.collection('mail').doc(), { ...mail });
        return true;
      });
    },

    unsubscribeSecret() {
      const ref = db.collection('config').doc(UNSUBSCRIBE_CONFIG);
      return db.runTransaction(async (tx) => {
        const secret = dataOf(await tx.get(ref))?.secret;
        if (typeof secret === 'string' && secret !== '') return secret;
        const made = randomBytes(32).toString('base64url');
        tx.set(ref, { secret: made });
        return made;
      });
    },

    updateNotificationSettings(uid, decide) {
      return db.runTransaction(async (tx) => {
        const data = dataOf(await tx.get(userRef(uid)));
        if (!data) return false;
        const next = decide(toNotificationSettings(data.notificationSettings));
        if (next === null) return false;
        tx.update(userRef(uid), { notificationSettings: next });
        return true;
      });
    },

    async writeSearchEntry(channelId, messageId, entry) {
      const ref = db.doc(`messageSearch/${channelId}_${messageId}`);
      if (entry === null) await ref.delete();
      else await ref.set({ channelId, messageId, createdAt: entry.createdAt, tokens: entry.tokens });
    },

    async listMessagesByPath(after, limit) {
      // A collection group query ordered by the document's full path: channels/{channelId}/messages/{messageId}.
      let query = db.collectionGroup('messages').orderBy('__name__');
      if (after !== null) query = query.startAfter(db.doc(after));
      const { docs } = await query.limit(limit).get();
      return docs.flatMap((doc) => {
        const match = /^channels\/([^/]+)\/messages\/([^/]+)$/.exec(doc.ref.path);
        if (!match) return [];
        const data = doc.data() ?? {};
        return [
          {
            path: doc.ref.path,
            channelId: match[1] ?? '',
            messageId: match[2] ?? '',
            text: typeof data.text === 'string' ? data.text : '',
            createdAt: toMillis(data.createdAt),
            deleted: data.deleted === true,
          },
        ];
      });
    },

    async writeSearchEntries(entries) {
      const batch = db.batch();
      for (const { channelId, messageId, entry } of entries) {
        const ref = db.doc(`messageSearch/${channelId}_${messageId}`);
        if (entry === null) batch.delete(ref);
        else batch.set(ref, { channelId, messageId, createdAt: entry.createdAt, tokens: entry.tokens });
      }
      await batch.commit();
    },

    async findSearchEntries({ channelIds, token, after, limit }) {
      // Index: messageSearch channelId + tokens (array-contains) + createdAt desc + messageId desc.
      let query = db
        .collection('messageSearch')
        .where('channelId', 'in', [...channelIds])
        .where('tokens', 'array-contains', token)
        .orderBy('createdAt', 'desc')
        .orderBy('messageId', 'desc');
      if (after) query = query.startAfter(after.createdAt, after.id);
      const { docs } = await query.limit(limit).get();
      return docs.flatMap((doc) => {
        const data = doc.data() ?? {};
        const { channelId, messageId, createdAt } = data as Data;
        return typeof channelId === 'string' && typeof messageId === 'string' && typeof createdAt === 'number'
          ? [{ channelId, messageId, createdAt }]
          : [];
      });
    },
  };
}

/** config/{id} of the unsubscribe links' signing secret. */
const UNSUBSCRIBE_CONFIG = 'mailUnsubscribe';

/** missedMail/{uid}_{channelId} as state; null when absent or unreadable. */
function toMissedMailState(data: Data | null | undefined): MissedMailState | null {
  if (!data || typeof data.coveredAt !== 'number' || typeof data.coveredId !== 'string') return null;
  return {
    coveredUpTo: data.coveredAt > 0 ? { createdAt: data.coveredAt, id: data.coveredId } : null,
    lastSentAt: typeof data.lastSentAt === 'number' ? data.lastSentAt : null,
  };
}

function sameMissedMailState(a: MissedMailState | null, b: MissedMailState | null): boolean {
  return (
    a?.lastSentAt === b?.lastSentAt &&
    a?.coveredUpTo?.createdAt === b?.coveredUpTo?.createdAt &&
    a?.coveredUpTo?.id === b?.coveredUpTo?.id
  );
}
