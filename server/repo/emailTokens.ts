// email_tokens: the single-use links mailed to a person (migration 008), stored as SHA-256 hashes of the token.
// server/services/mailLinks.ts issues and redeems them.
import type { Db } from '../db/database';

export type EmailTokenPurpose = 'verify-email' | 'reset-password' | 'change-email';

export interface EmailTokenRecord {
  tokenHash: string;
  uid: string;
  purpose: EmailTokenPurpose;
  /** The address the link was sent to (the one it proves). */
  email: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

interface TokenRow {
  token_hash: string;
  uid: string;
  purpose: EmailTokenPurpose;
  email: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

const toRecord = (row: TokenRow): EmailTokenRecord => ({
  tokenHash: row.token_hash,
  uid: row.uid,
  purpose: row.purpose,
  email: row.email,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  usedAt: row.used_at,
});

export class EmailTokensRepo {
  private readonly insertRow;
  private readonly byHash;
  private readonly use;
  private readonly retireOthers;
  private readonly prune;

  constructor(db: Db) {
    this.insertRow = db.prepare(
      `INSERT INTO email_tokens (token_hash, uid, purpose, email, created_at, expires_at)
       VALUES (@tokenHash, @uid, @purpose, @email, @createdAt, @expiresAt)`,
    );
    this.byHash = db.prepare<[string], TokenRow>('SELECT * FROM email_tokens WHERE token_hash = ?');
    this.use = db.prepare<[number, string]>(
      'UPDATE email_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL',
    );
    this.retireOthers = db.prepare<[number, string, EmailTokenPurpose]>(
      'UPDATE email_tokens SET used_at = ? WHERE uid = ? AND purpose = ? AND used_at IS NULL',
    );
    this.prune = db.prepare<[number]>('DELETE FROM email_tokens WHERE expires_at <= ?');
  }

  insert(record: Omit<EmailTokenRecord, 'usedAt'>): void {
    this.insertRow.run(record);
  }

  find(tokenHash: string): EmailTokenRecord | null {
    const row = this.byHash.get(tokenHash);
    return row ? toRecord(row) : null;
  }

  /** Marks a token used; false when it already was (single use, also when two requests race). */
  markUsed(tokenHash: string, now: number): boolean {
    return this.use.run(now, tokenHash).changes === 1;
  }

  /** Every unused token of this account and purpose can no longer be used (a newer one replaces them). */
  retire(uid: string, purpose: EmailTokenPurpose, now: number): number {
    return this.retireOthers.run(now, uid, purpose).changes;
  }

  pruneExpired(now: number): number {
    return this.prune.run(now).changes;
  }
}
