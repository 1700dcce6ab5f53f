// The Repository's read-receipts part on Cloud Firestore through the Admin SDK (core/receipts.ts): one document a
// participant per channel, channels/{channelId}/receipts/{uid} = {uid, name, sharing, read, readAt, delivered},
// written by functions/ alone (firestore.rules let the channel's participants who share receipts list those that
// share). `sharing` mirrors users/{uid}.readReceipts, so a person who turned receipts off is never listed.
import type { DocumentSnapshot, Transaction } from 'firebase-admin/firestore';
import type { ReadMark } from '../../core/channels';
import { nextReadMark } from '../../core/channels';
import type { Data } from './documents';
import type { FirestoreSdk } from './firestoreRepository';

export interface ReceiptsRepository {
  /**
   * In one transaction: moves `uid`'s read or delivered mark in the channel forward to `message` (never back),
   * stamping a read mark's move with `at`, with their name and whether they share receipts as they stand.
   */
  moveReceipt(
    uid: string,
    channelId: string,
    kind: 'read' | 'delivered',
    message: ReadMark,
    at: number,
    name: string,
  ): Promise<void>;
  /** Whether `uid` shares read receipts (users/{uid}.readReceipts, on unless false). */
  receiptsShared(uid: string): Promise<boolean>;
  /** Sets users/{uid}.readReceipts, and `sharing` on their receipt documents in `channelIds`. */
  setReceiptsShared(uid: string, enabled: boolean, channelIds: readonly string[]): Promise<void>;
}

const dataOf = (snapshot: DocumentSnapshot): Data | null =>
  snapshot.exists ? ((snapshot.data() ?? {}) as Data) : null;

const markOf = (value: unknown): ReadMark | null => {
  if (typeof value !== 'object' || value === null) return null;
  const { createdAt, id } = value as Data;
  return typeof createdAt === 'number' && typeof id === 'string' ? { createdAt, id } : null;
};

const shares = (user: Data | null): boolean => user?.readReceipts !== false;

export function createReceiptsRepository({ db }: FirestoreSdk): ReceiptsRepository {
  const userRef = (uid: string) => db.doc(`users/${uid}`);
  const receiptRef = (channelId: string, uid: string) => db.doc(`channels/${channelId}/receipts/${uid}`);

  return {
    moveReceipt(uid, channelId, kind, message, at, name) {
      return db.runTransaction(async (tx: Transaction) => {
        const [stored, user] = await Promise.all([
          tx.get(receiptRef(channelId, uid)).then(dataOf),
          tx.get(userRef(uid)).then(dataOf),
        ]);
        const current = markOf(stored?.[kind]);
        const next = nextReadMark(current, message);
        if (current && next === current && stored?.sharing === shares(user) && stored?.name === name) return;
        tx.set(receiptRef(channelId, uid), {
          uid,
          name,
          sharing: shares(user),
          read: markOf(stored?.read),
          readAt: typeof stored?.readAt === 'number' ? stored.readAt : null,
          delivered: markOf(stored?.delivered),
          [kind]: next,
          ...(kind === 'read' && next !== current ? { readAt: at } : {}),
        });
      });
    },

    async receiptsShared(uid) {
      return shares(dataOf(await userRef(uid).get()));
    },

    async setReceiptsShared(uid, enabled, channelIds) {
      const batch = db.batch();
      batch.set(userRef(uid), { readReceipts: enabled }, { merge: true });
      const receipts = await Promise.all(channelIds.map((id) => receiptRef(id, uid).get()));
      for (const receipt of receipts) if (receipt.exists) batch.update(receipt.ref, { sharing: enabled });
      await batch.commit();
    },
  };
}
