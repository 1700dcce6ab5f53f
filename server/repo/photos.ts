// photos: one profile picture a person (migration 019), its bytes in the row. Read by the id in its URL.
import type { PhotoType } from '../../core/photos';
import type { Db } from '../db/database';

export interface StoredPhoto {
  id: string;
  uid: string;
  contentType: PhotoType;
  bytes: Buffer;
  createdAt: number;
}

interface PhotoRow {
  id: string;
  uid: string;
  content_type: PhotoType;
  bytes: Buffer;
  created_at: number;
}

export class PhotosRepo {
  private readonly byId;
  private readonly idOf;
  private readonly upsert;
  private readonly remove;

  constructor(db: Db) {
    this.byId = db.prepare<[string], PhotoRow>('SELECT * FROM photos WHERE id = ?');
    this.idOf = db.prepare<[string], { id: string }>('SELECT id FROM photos WHERE uid = ?');
    this.upsert = db.prepare(
      `INSERT INTO photos (uid, id, content_type, bytes, created_at)
       VALUES (@uid, @id, @contentType, @bytes, @createdAt)
       ON CONFLICT (uid) DO UPDATE SET id = excluded.id, content_type = excluded.content_type,
         bytes = excluded.bytes, created_at = excluded.created_at`,
    );
    this.remove = db.prepare<[string]>('DELETE FROM photos WHERE uid = ?');
  }

  get(id: string): StoredPhoto | null {
    const row = this.byId.get(id);
    return row
      ? {
          id: row.id,
          uid: row.uid,
          contentType: row.content_type,
          bytes: row.bytes,
          createdAt: row.created_at,
        }
      : null;
  }

  /** The id of the person's face, or null when they have none. */
  idFor(uid: string): string | null {
    return this.idOf.get(uid)?.id ?? null;
  }

  /** Sets (or replaces) the person's face. */
  put(photo: StoredPhoto): void {
    this.upsert.run({
      uid: photo.uid,
      id: photo.id,
      contentType: photo.contentType,
      bytes: photo.bytes,
      createdAt: photo.createdAt,
    });
  }

  /** Removes the person's face; false when they had none. */
  delete(uid: string): boolean {
    return this.remove.run(uid).changes === 1;
  }
}
