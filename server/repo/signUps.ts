// sign_up_requests (migration 014): an account asked for and not created yet, until the link mailed to its address
// is opened (server/services/signUp.ts). Tokens and passwords are stored as hashes only.
import type { Db } from '../db/database';

export interface SignUpRequest {
  tokenHash: string;
  /** Normalized (core/schemas.ts emailSchema). */
  email: string;
  passwordHash: string;
  displayName: string | null;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

interface SignUpRow {
  token_hash: string;
  email: string;
  password_hash: string;
  display_name: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

const toRequest = (row: SignUpRow): SignUpRequest => ({
  tokenHash: row.token_hash,
  email: row.email,
  passwordHash: row.password_hash,
  displayName: row.display_name,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  usedAt: row.used_at,
});

export class SignUpsRepo {
  private readonly insertRow;
  private readonly byHash;
  private readonly use;
  private readonly retireOthers;
  private readonly prune;
  private readonly recentMail;

  constructor(db: Db) {
    this.insertRow = db.prepare(
      `INSERT INTO sign_up_requests (token_hash, email, password_hash, display_name, created_at, expires_at)
       VALUES (@tokenHash, @email, @passwordHash, @displayName, @createdAt, @expiresAt)`,
    );
    this.byHash = db.prepare<[string], SignUpRow>('SELECT * FROM sign_up_requests WHERE token_hash = ?');
    this.use = db.prepare<[number, string]>(
      'UPDATE sign_up_requests SET used_at = ? WHERE token_hash = ? AND used_at IS NULL',
    );
    this.retireOthers = db.prepare<[number, string]>(
      'UPDATE sign_up_requests SET used_at = ? WHERE email = ? AND used_at IS NULL',
    );
    this.prune = db.prepare<[number]>('DELETE FROM sign_up_requests WHERE expires_at <= ?');
    this.recentMail = db.prepare<[string, string, number], { one: number }>(
      'SELECT 1 AS one FROM mail_jobs WHERE kind = ? AND to_address = ? AND created_at > ? LIMIT 1',
    );
  }

  insert(request: Omit<SignUpRequest, 'usedAt'>): void {
    this.insertRow.run(request);
  }

  find(tokenHash: string): SignUpRequest | null {
    const row = this.byHash.get(tokenHash);
    return row ? toRequest(row) : null;
  }

  /** Uses the request once; false when it was used already. */
  markUsed(tokenHash: string, now: number): boolean {
    return this.use.run(now, tokenHash).changes === 1;
  }

  /** Every other open request for the address: one account was made, the other links are spent. */
  retireFor(email: string, now: number): void {
    this.retireOthers.run(now, email);
  }

  /** Deletes the requests that expired before `time`; answers how many. */
  pruneExpiredBefore(time: number): number {
    return this.prune.run(time).changes;
  }

  /** Whether a mail of `kind` went to `address` after `since` (the once-an-hour notice). */
  mailedSince(kind: string, address: string, since: number): boolean {
    return this.recentMail.get(kind, address, since) !== undefined;
  }
}
