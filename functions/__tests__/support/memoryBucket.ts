// Cloud Storage's bucket as the Admin SDK shows it (the part storageFiles.ts uses), in memory: objects by name with
// their bytes, type and creation time, for the attachment handlers' tests.
import type { Bucket, BucketFile } from '../../src/storageFiles';

export interface MemoryObject {
  data: Uint8Array;
  contentType?: string;
  createdAt: number;
  /** The object's custom metadata (an attachment's uploaderId). */
  customMetadata?: Record<string, string>;
}

export class MemoryBucket implements Bucket {
  readonly objects = new Map<string, MemoryObject>();
  /** Every download, by name (to see that an object over 10 MB is never read). */
  readonly downloads: string[] = [];

  constructor(private readonly now: () => number) {}

  put(
    name: string,
    data: Uint8Array,
    contentType?: string,
    createdAt = this.now(),
    customMetadata?: Record<string, string>,
  ): void {
    this.objects.set(name, {
      data,
      createdAt,
      ...(contentType === undefined ? {} : { contentType }),
      ...(customMetadata === undefined ? {} : { customMetadata }),
    });
  }

  async getFiles({ prefix }: { prefix: string }): Promise<[BucketFile[]]> {
    return [
      [...this.objects.keys()].filter((name) => name.startsWith(prefix)).map((name) => this.file(name)),
    ];
  }

  file(name: string): BucketFile {
    const stored = this.objects.get(name);
    return {
      name,
      metadata: stored
        ? {
            size: String(stored.data.length),
            timeCreated: new Date(stored.createdAt).toISOString(),
            ...(stored.contentType === undefined ? {} : { contentType: stored.contentType }),
            ...(stored.customMetadata === undefined ? {} : { metadata: { ...stored.customMetadata } }),
          }
        : {},
      download: async () => {
        this.downloads.push(name);
        const object = this.objects.get(name);
        if (!object) throw Object.assign(new Error('No such object'), { code: 404 });
        return [Buffer.from(object.data)];
      },
      delete: async ({ ignoreNotFound }) => {
        if (!this.objects.delete(name) && !ignoreNotFound) {
          throw Object.assign(new Error('No such object'), { code: 404 });
        }
        return [];
      },
      exists: async () => [this.objects.has(name)],
    };
  }
}
