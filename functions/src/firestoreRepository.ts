// The Repository on Cloud Firestore through the Admin SDK (which rules do not bind: functions are the trusted
// writers of roles, balances, invitations, offers and pending counts). Layout: ARCHITECTURE.md "Data", with
// users/{uid}/pending/{channelId} = {count, updatedAt}. The SDK comes in as a parameter so that tests can give
// a fake of it.
import type {
  DocumentData,
  DocumentReference,
  DocumentSnapshot,
  FieldValue,
  Firestore,
  Timestamp,
  Transaction,
} from 'firebase-admin/firestore';
import type { UserDoc } from '../../core/model';
import { addPending, badgeCount } from '../../core/pending';
import type { PendingCounts } from '../../core/pending';
import { publicName } from '../../core/users';
import { toChannel, toInvitation, toStoredOffer, toUserDoc, userData } from './documents';
import type { Data } from './documents';
import type { InvitationOutcome, InvitationState, Repository, TokenRef } from './repository';

/** The parts of the Admin SDK the repository uses. */
export interface FirestoreSdk {
  db: Firestore;
  fieldValue: {
    serverTimestamp(): FieldValue;
    arrayUnion(...elements: unknown[]): FieldValue;
  };
  timestampFromMillis(ms: number): Timestamp;
}

/** Firestore's limit of writes in one batch. */
const BATCH_LIMIT = 500;
/** gRPC ALREADY_EXISTS, what create() throws for a document that exists. */
const ALREADY_EXISTS = 6;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const dataOf = (snapshot: DocumentSnapshot): Data | null =>
  snapshot.exists ? ((snapshot.data() ?? {}) as Data) : null;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

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
    };
  }

  function writeUser(tx: Transaction, before: UserDoc | null, after: UserDoc): void {
    const fields = changedFields(before, after);
    if (!before) tx.set(userRef(after.uid), { ...fields, createdAt: fieldValue.serverTimestamp() });
    else if (Object.keys(fields).length > 0) tx.update(userRef(after.uid), fields);
  }

  return {
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

    async addPending(uids, source) {
      const badges: Record<string, number> = {};
      // One transaction per recipient: each count is read and raised atomically, so concurrent messages never
      // lose an increment, and the badge is the sum right after this one.
      for (const uid of uids) {
        badges[uid] = await db.runTransaction(async (tx) => {
          const { docs } = await tx.get(userRef(uid).collection('pending'));
          const counts: Record<string, number> = {};
          for (const doc of docs) counts[doc.id] = (doc.data() as { count?: number }).count ?? 0;
          const next: PendingCounts = addPending(counts, source);
          tx.set(userRef(uid).collection('pending').doc(source), {
            count: next[source] ?? 1,
            updatedAt: fieldValue.serverTimestamp(),
          });
          return badgeCount(next);
        });
      }
      return badges;
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
        tx.update(invitationRef(id), {
          status: outcome.invitation.status,
          acceptedBy: uid,
          acceptedAt: fieldValue.serverTimestamp(),
        });
        tx.update(channelRef(outcome.invitation.channelId), { members: fieldValue.arrayUnion(uid) });
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
        writeUser(tx, state.user, outcome.user);
        return outcome;
      });
    },

    async setMessageSenderName(channelId, messageId, senderName) {
      await db.doc(`channels/${channelId}/messages/${messageId}`).update({ senderName });
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
  };
}
