// AttachmentFiles (repository.ts) on the Admin SDK's Cloud Storage bucket. Only what the
// attachment handlers use of a bucket is named here, so tests give a fake of the same shape.
import type { AttachmentFiles, StoredFile } from './repository';

/** The part of @google-cloud/storage's File that is used. */
export interface BucketFile {
  name: string;
  metadata: {
    size?: string | number;
    contentType?: string;
    timeCreated?: string;
    /** The custom metadata (attachments carry their uploaderId). */
    metadata?: { [key: string]: string | boolean | number | null } | null;
  };
  download(): Promise<[Buffer]>;
  delete(options: { ignoreNotFound: boolean }): Promise<unknown>;
  exists(): Promise<[boolean]>;
}

/** The part of @google-cloud/storage's Bucket that is used. */
export interface Bucket {
  getFiles(query: { prefix: string; autoPaginate: true }): Promise<[BucketFile[], ...unknown[]]>;
  file(name: string): BucketFile;
}

export function createBucketFiles(bucket: Bucket): AttachmentFiles {
  return {
    async list(prefix) {
      const [files] = await bucket.getFiles({ prefix, autoPaginate: true });
      return files.map((file): StoredFile => ({
        path: file.name,
        size: Number(file.metadata.size ?? 0),
        contentType: file.metadata.contentType,
        // An object without a creation time is treated as new: it is never pruned on a guess.
        createdAt: Date.parse(file.metadata.timeCreated ?? '') || Number.POSITIVE_INFINITY,
        ...(typeof file.metadata.metadata?.uploaderId === 'string'
          ? { uploaderId: file.metadata.metadata.uploaderId }
          : {}),
      }));
    },
    async read(path) {
      const [data] = await bucket.file(path).download();
      return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    },
    async delete(path) {
      await bucket.file(path).delete({ ignoreNotFound: true });
    },
    async exists(path) {
      const [exists] = await bucket.file(path).exists();
      return exists;
    },
  };
}
