// refresh_tokens: opaque refresh tokens, stored hashed, rotated within a family; auth_sessions: what the sessions
// list shows of each family (user agent, started, last used).
import type { Db } from '../db/database';

/** One signed-in session as the list shows it (a refresh-token family that still stands). */
export interface SessionRecord {
  familyId: string;
  uid: string;
  userAgent: string;
  createdAt: number;
  lastUsedAt: number;
}

interface SessionRow {
  family_id: string;
  uid: string;
  user_agent: string;
  created_at: number;
  last_used_at: number;
}

const toSession = (row: SessionRow): SessionRecord => ({
  familyId: row.family_id,
  uid: row.uid,
  userAgent: row.user_agent,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

/** A family is live while it holds a token that is neither revoked nor expired (the same test as familyIsLive). */
const LIVE_FAMILY = `EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family_id = s.family_id AND r.revoked_at IS NULL
  AND r.expires_at > @now)`;

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
  private readonly insertSessionRow;
  private readonly touchSessionRow;
  private readonly liveOf;
  private readonly liveOne;
  private readonly revokedSince;
  private readonly pruneSessions;

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
    this.insertSessionRow = db.prepare(
      `INSERT INTO auth_sessions (family_id, uid, user_agent, created_at, last_used_at)
       VALUES (@familyId, @uid, @userAgent, @createdAt, @lastUsedAt)`,
    );
    this.touchSessionRow = db.prepare<[number, string]>(
      'UPDATE auth_sessions SET last_used_at = ? WHERE family_id = ?',
    );
    this.liveOf = db.prepare<{ uid: string; now: number }, SessionRow>(
      `SELECT s.* FROM auth_sessions s WHERE s.uid = @uid AND ${LIVE_FAMILY}
       ORDER BY s.last_used_at DESC, s.family_id`,
    );
    this.liveOne = db.prepare<{ uid: string; familyId: string; now: number }, SessionRow>(
      `SELECT s.* FROM auth_sessions s WHERE s.uid = @uid AND s.family_id = @familyId AND ${LIVE_FAMILY}`,
    );
    this.revokedSince = db.prepare<[number], { family_id: string; revoked_at: number }>(
      `SELECT family_id, MAX(revoked_at) AS revoked_at FROM refresh_tokens WHERE revoked_at > ?
       GROUP BY family_id ORDER BY revoked_at`,
    );
    this.pruneSessions = db.prepare<{ uid: string; now: number }>(
      `DELETE FROM auth_sessions AS s WHERE s.uid = @uid AND NOT ${LIVE_FAMILY}`,
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

  /** Records a new session (a family's first token) with the user agent it was started from. */
  insertSession(record: SessionRecord): void {
    this.insertSessionRow.run(record);
  }

  /** The session was used (its token refreshed) at `now`. */
  touchSession(familyId: string, now: number): void {
    this.touchSessionRow.run(now, familyId);
  }

  /** The user's sessions that still stand, most recently used first. */
  listLive(uid: string, now: number): SessionRecord[] {
    return this.liveOf.all({ uid, now }).map(toSession);
  }

  /** The user's session `familyId` if it still stands; null when it ended, expired or is someone else's. */
  findLive(uid: string, familyId: string, now: number): SessionRecord | null {
    const row = this.liveOne.get({ uid, familyId, now });
    return row ? toSession(row) : null;
  }

  /** Every family revoked after `since`, with when: what the revoked set is filled from at start. */
  revokedAfter(since: number): Array<{ familyId: string; revokedAt: number }> {
    return this.revokedSince
      .all(since)
      .map((row) => ({ familyId: row.family_id, revokedAt: row.revoked_at }));
  }

  /** Forgets the list entries of the user's sessions that no longer stand. */
  pruneEndedSessions(uid: string, now: number): void {
    this.pruneSessions.run({ uid, now });
  }
}
