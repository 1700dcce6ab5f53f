// The sessions (refresh-token families) ended lately, kept in memory so every authenticated request can refuse an
// access token of an ended session at once, without a database read (before, a signed-out
// access token kept working until it expired, up to 15 minutes). An entry is needed only while an access token
// issued before the revocation can still be unexpired: it is dropped ACCESS_TOKEN_TTL_SECONDS after it. The set is
// filled from refresh_tokens.revoked_at at start (so a restart forgets nothing) and on every revocation.
import { ACCESS_TOKEN_TTL_SECONDS } from '../../core/wire';

const TTL_MS = ACCESS_TOKEN_TTL_SECONDS * 1000;

export class RevokedSessions {
  /** familyId → when it was revoked (epoch ms); Map order is insertion order, so the oldest come first. */
  private readonly revoked = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** The families revoked within the access-token lifetime before now, as refresh_tokens records them. */
  static since(now: number): number {
    return now - TTL_MS;
  }

  add(familyId: string, revokedAt: number = this.now()): void {
    // Re-inserted at the end, so the order stays the order of revocation.
    this.revoked.delete(familyId);
    this.revoked.set(familyId, revokedAt);
    this.sweep();
  }

  /** Whether an access token of this family must be refused. */
  has(familyId: string): boolean {
    const at = this.revoked.get(familyId);
    if (at === undefined) return false;
    if (at + TTL_MS <= this.now()) {
      this.revoked.delete(familyId);
      return false;
    }
    return true;
  }

  get size(): number {
    return this.revoked.size;
  }

  /** Drops the entries older than an access token's lifetime (the oldest first, stopping at the first young one). */
  private sweep(): void {
    const cutoff = this.now() - TTL_MS;
    for (const [familyId, at] of this.revoked) {
      if (at > cutoff) break;
      this.revoked.delete(familyId);
    }
  }
}
