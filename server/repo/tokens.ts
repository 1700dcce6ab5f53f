// users/{uid}/FCMTokens: the push-token documents, one per (user, device): the unique index push_tokens_user_device
// holds it, and server/services/users.ts addToken decides each save with core/pushTokens.ts planTokenSave.
import type { Db } from '../db/database';
import type { Platform, PushTokenDoc } from '../../core/model';

interface TokenRow {
  id: string;
  uid: string;
  token: string;
  device_id: string;
  created_at: number;
  last_used: number;
  status: 'active';
  platform: Platform;
  user_agent: string;
}

const toDoc = (row: TokenRow): PushTokenDoc => ({
  id: row.id,
  token: row.token,
  deviceId: row.device_id,
  createdAt: row.created_at,
  lastUsed: row.last_used,
  status: row.status,
  platform: row.platform,
  userAgent: row.user_agent,
});

export class TokensRepo {
  private readonly listRows;
  private readonly relatedRows;
  private readonly byId;
  private readonly insertRow;
  private readonly deleteRow;
  private readonly touchRow;
  private readonly deleteUnused;
  private readonly linkRow;
  private readonly deleteOfSession;

  constructor(db: Db) {
    this.listRows = db.prepare<[string], TokenRow>(
      'SELECT * FROM push_tokens WHERE uid = ? ORDER BY created_at, id',
    );
    this.relatedRows = db.prepare<[string, string, string], TokenRow>(
      'SELECT * FROM push_tokens WHERE (uid = ? AND device_id = ?) OR token = ?',
    );
    this.byId = db.prepare<[string, string], TokenRow>('SELECT * FROM push_tokens WHERE uid = ? AND id = ?');
    this.insertRow = db.prepare(
      `INSERT INTO push_tokens (id, uid, token, device_id, created_at, last_used, status, platform, user_agent)
       VALUES (@id, @uid, @token, @deviceId, @createdAt, @lastUsed, @status, @platform, @userAgent)`,
    );
    this.deleteRow = db.prepare<[string, string]>('DELETE FROM push_tokens WHERE uid = ? AND id = ?');
    this.deleteUnused = db.prepare<[number]>('DELETE FROM push_tokens WHERE last_used < ?');
    this.touchRow = db.prepare<[number, string, string]>(
      'UPDATE push_tokens SET last_used = ? WHERE uid = ? AND id = ?',
    );
    this.linkRow = db.prepare<[string | null, string, string]>(
      'UPDATE push_tokens SET session_id = ? WHERE uid = ? AND id = ?',
    );
    this.deleteOfSession = db.prepare<[string]>('DELETE FROM push_tokens WHERE session_id = ?');
  }

  list(uid: string): PushTokenDoc[] {
    return this.listRows.all(uid).map(toDoc);
  }

  /** The user's documents of this device, and every document holding this token (whoever's): what a save decides on. */
  related(uid: string, deviceId: string, token: string): Array<PushTokenDoc & { uid: string }> {
    return this.relatedRows.all(uid, deviceId, token).map((row) => ({ ...toDoc(row), uid: row.uid }));
  }

  get(uid: string, id: string): PushTokenDoc | null {
    const row = this.byId.get(uid, id);
    return row ? toDoc(row) : null;
  }

  insert(uid: string, doc: PushTokenDoc): void {
    this.insertRow.run({ ...doc, uid });
  }

  touch(uid: string, id: string, now: number): boolean {
    return this.touchRow.run(now, uid, id).changes === 1;
  }

  /** Deletes every document last used before `cutoff`; returns how many went. */
  deleteUnusedSince(cutoff: number): number {
    return this.deleteUnused.run(cutoff).changes;
  }

  delete(uid: string, id: string): boolean {
    return this.deleteRow.run(uid, id).changes === 1;
  }

  /** Ties a token document to the session that saved or confirmed it last. */
  linkSession(uid: string, id: string, sessionId: string | null): void {
    if (sessionId !== null) this.linkRow.run(sessionId, uid, id);
  }

  /** Deletes the token documents of a session that ended; returns how many went. */
  deleteOfSessionEnded(sessionId: string): number {
    return this.deleteOfSession.run(sessionId).changes;
  }
}
