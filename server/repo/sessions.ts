// refresh_tokens: opaque refresh tokens, stored hashed, rotated within a family.
import type { Db } from '../db/database';

export interface RefreshRecord {
  tokenHash: string;
  familyId: string;
  uid: string;
  createdAt: number;
  expiresAt: number;
  rotatedAt: number | null;
  revokedAt: number | null;
}

interface RefreshRow {
  token_hash: string;
  family_id: string;
  uid: string;
  created_at: number;
  expires_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
}

export class SessionsRepo {
  private readonly byHash;
  private readonly insertRow;
  private readonly rotate;
  private readonly revoke;
  private readonly prune;
  private readonly live;

  constructor(db: Db) {
    this.byHash = db.prepare<[string], RefreshRow>('SELECT * FROM refresh_tokens WHERE token_hash = ?');
    this.insertRow = db.prepare(
      `INSERT INTO refresh_tokens (token_hash, family_id, uid, created_at, expires_at)
       VALUES (@tokenHash, @familyId, @uid, @createdAt, @expiresAt)`,
    );
    this.rotate = db.prepare<[number, string]>(
      'UPDATE refresh_tokens SET rotated_at = ? WHERE token_hash = ? AND rotated_at IS NULL',
    );
    this.revoke = db.prepare<[number, string]>(
      'UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL',
    );
    this.prune = db.prepare<[string, number]>('DELETE FROM refresh_tokens WHERE uid = ? AND expires_at <= ?');
    this.live = db.prepare<[string, number], { live: number }>(
      `SELECT EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = ? AND revoked_at IS NULL AND expires_at > ?)
       AS live`,
    );
  }

  find(tokenHash: string): RefreshRecord | null {
    const row = this.byHash.get(tokenHash);
    if (!row) return null;
    return {
      tokenHash: row.token_hash,
      familyId: row.family_id,
      uid: row.uid,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      rotatedAt: row.rotated_at,
      revokedAt: row.revoked_at,
    };
  }

  insert(record: Pick<RefreshRecord, 'tokenHash' | 'familyId' | 'uid' | 'createdAt' | 'expiresAt'>): void {
    this.insertRow.run(record);
  }

  /** Marks a token used; false when it already was (a concurrent refresh won). */
  markRotated(tokenHash: string, now: number): boolean {
    return this.rotate.run(now, tokenHash).changes === 1;
  }

  revokeFamily(familyId: string, now: number): void {
    this.revoke.run(now, familyId);
  }

  /** Whether the family still holds a token that is neither revoked nor expired. */
  familyIsLive(familyId: string, now: number): boolean {
    return this.live.get(familyId, now)?.live === 1;
  }

  pruneExpired(uid: string, now: number): void {
    this.prune.run(uid, now);
  }
}
