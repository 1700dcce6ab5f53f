// The Repository's storage-quota part on Cloud Firestore through the Admin SDK: every kept upload is a record
// users/{uid}/uploads/{attachmentId} {channelId, size, createdAt}, and users/{uid}.attachmentBytes their sum, kept
// in the same transaction. The record makes counting idempotent (Storage delivers an event at least once, and a
// deletion may be told twice); the sum is what storage.rules read to refuse an upload that does not fit, since
// rules cannot add anything up.
import { fitsQuota } from '../../core/attachments';
import type { DocumentSnapshot } from 'firebase-admin/firestore';
import type { FirestoreSdk } from './firestoreRepository';
import type { Repository } from './repository';

type UploadsRepository = Pick<Repository, 'countUpload' | 'forgetUpload'>;

/** users/{uid}.attachmentBytes, the number the rules and the adapter read (0 when absent or damaged). */
export const ATTACHMENT_BYTES_FIELD = 'attachmentBytes';

const bytesOf = (snapshot: DocumentSnapshot): number => {
  const value: unknown = snapshot.get(ATTACHMENT_BYTES_FIELD);
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
};

export function createUploadsRepository({ db, timestampFromMillis }: FirestoreSdk): UploadsRepository {
  const userRef = (uid: string) => db.doc(`users/${uid}`);
  const uploadRef = (uid: string, attachmentId: string) => db.doc(`users/${uid}/uploads/${attachmentId}`);

  return {
    countUpload(upload) {
      return db.runTransaction(async (tx) => {
        const user = await tx.get(userRef(upload.uid));
        const record = await tx.get(uploadRef(upload.uid, upload.attachmentId));
        if (!user.exists) return { kind: 'no-account' } as const;
        if (record.exists) return { kind: 'already' } as const;
        const usedBytes = bytesOf(user);
        if (!fitsQuota({ quotaBytes: upload.quotaBytes, usedBytes, fileBytes: upload.size })) {
          return { kind: 'over', usedBytes } as const;
        }
        tx.set(uploadRef(upload.uid, upload.attachmentId), {
          channelId: upload.channelId,
          size: upload.size,
          createdAt: timestampFromMillis(upload.at),
        });
        tx.update(userRef(upload.uid), { [ATTACHMENT_BYTES_FIELD]: usedBytes + upload.size });
        return { kind: 'counted' } as const;
      });
    },

    forgetUpload(uid, attachmentId) {
      return db.runTransaction(async (tx) => {
        const record = await tx.get(uploadRef(uid, attachmentId));
        const user = await tx.get(userRef(uid));
        if (!record.exists) return false;
        const size: unknown = record.get('size');
        tx.delete(uploadRef(uid, attachmentId));
        if (user.exists) {
          const freed = typeof size === 'number' && size > 0 ? size : 0;
          tx.update(userRef(uid), { [ATTACHMENT_BYTES_FIELD]: Math.max(0, bytesOf(user) - freed) });
        }
        return true;
      });
    },
  };
}
