// Sign-up, sign-in, refresh with rotation, sign-out. Refresh tokens are opaque, stored as SHA-256 hashes, and
// rotated on every refresh; presenting one that was already rotated means it leaked (or two clients raced), so
// the whole family is revoked and both holders must sign in again (OAuth 2.0 Security BCP, refresh rotation).
// A family is a session: its access tokens name it (`sid`), and whoever listens hears when one ends (the live
// streams of that session close, server/stream.ts).
import { createHash } from 'node:crypto';
import { QupmError } from '../../core/errors';
import type { AuthUser } from '../../core/model';
import type { Caller } from '../../core/permissions';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from '../../core/wire';
import type { SessionResponse } from '../../core/wire';
import { write } from '../db/database';
import type { Db } from '../db/database';
import { newDocumentId, newSecret } from '../ids';
import type { Repos } from '../repo';
import type { Account } from '../repo/users';
import type { AccessTokens } from './accessTokens';
import type { PasswordHasher } from './passwords';

export const AUTH_MESSAGES = {
  invalidCredentials: 'The email or password is not right.',
  emailTaken: 'An account with this email already exists. Sign in instead.',
  sessionEnded: 'Your session has ended. Sign in again.',
  refreshReused: 'This session was used somewhere else and has been ended for safety. Sign in again.',
} as const;

/** A refresh token just issued and the family (session) it belongs to. */
interface Family {
  token: string;
  familyId: string;
}

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

const toAuthUser = (account: Pick<Account, 'uid' | 'email' | 'displayName'>): AuthUser => ({
  uid: account.uid,
  email: account.email,
  displayName: account.displayName,
});

/** Told, after the commit, that a session (refresh-token family) was revoked: signed out or found reused. */
export type SessionEndedListener = (familyId: string) => void;

export class SessionService {
  constructor(
    private readonly db: Db,
    private readonly repos: Repos,
    private readonly passwords: PasswordHasher,
    private readonly access: AccessTokens,
    private readonly now: () => number,
    private readonly sessionEnded: SessionEndedListener = () => undefined,
  ) {}

  async signUp(input: { email: string; password: string; displayName?: string }): Promise<SessionResponse> {
    const passwordHash = await this.passwords.hash(input.password);
    const uid = newDocumentId();
    const family = write(this.db, () => {
      if (this.repos.users.findAccountByEmail(input.email)) {
        throw new QupmError('ALREADY_EXISTS', AUTH_MESSAGES.emailTaken, 'email-taken');
      }
      this.repos.users.insert({
        uid,
        email: input.email,
        passwordHash,
        createdAt: this.now(),
        ...(input.displayName !== undefined ? { displayName: input.displayName } : {}),
      });
      return this.startFamily(uid);
    });
    return this.respond(
      { uid, email: input.email, displayName: input.displayName ?? null, isAdmin: false },
      family,
    );
  }

  async signIn(input: { email: string; password: string }): Promise<SessionResponse> {
    const account = this.repos.users.findAccountByEmail(input.email);
    // Same scrypt work and the same answer whether the email is unknown or the password wrong.
    const valid = await this.passwords.verify(input.password, account?.passwordHash);
    if (!account || !valid) {
      throw new QupmError('UNAUTHENTICATED', AUTH_MESSAGES.invalidCredentials, 'invalid-credentials');
    }
    const family = write(this.db, () => {
      this.repos.sessions.pruneExpired(account.uid, this.now());
      return this.startFamily(account.uid);
    });
    return this.respond(account, family);
  }

  async refresh(refreshToken: string): Promise<SessionResponse> {
    const now = this.now();
    const outcome = write(this.db, () => {
      const record = this.repos.sessions.find(hashToken(refreshToken));
      if (!record || record.revokedAt !== null || record.expiresAt <= now) return { kind: 'ended' } as const;
      if (record.rotatedAt !== null || !this.repos.sessions.markRotated(record.tokenHash, now)) {
        // Committed before answering: the revocation must outlive this request.
        this.repos.sessions.revokeFamily(record.familyId, now);
        return { kind: 'reused', familyId: record.familyId } as const;
      }
      const account = this.repos.users.findAccount(record.uid);
      if (!account) return { kind: 'ended' } as const;
      const token = newSecret();
      this.repos.sessions.insert({
        tokenHash: hashToken(token),
        familyId: record.familyId,
        uid: record.uid,
        createdAt: now,
        expiresAt: now + REFRESH_TOKEN_TTL_SECONDS * 1000,
      });
      return { kind: 'rotated', account, token, familyId: record.familyId } as const;
    });
    if (outcome.kind === 'reused') {
      this.sessionEnded(outcome.familyId);
      throw new QupmError('UNAUTHENTICATED', AUTH_MESSAGES.refreshReused, 'refresh-reused');
    }
    if (outcome.kind === 'ended') {
      throw new QupmError('UNAUTHENTICATED', AUTH_MESSAGES.sessionEnded, 'session-expired');
    }
    return this.respond(outcome.account, { token: outcome.token, familyId: outcome.familyId });
  }

  /** Ends the session `refreshToken` belongs to, if it is the caller's; answers the same either way. */
  signOut(caller: Caller, refreshToken: string): void {
    const revoked = write(this.db, () => {
      const record = this.repos.sessions.find(hashToken(refreshToken));
      if (!record || record.uid !== caller.uid) return null;
      this.repos.sessions.revokeFamily(record.familyId, this.now());
      return record.familyId;
    });
    if (revoked !== null) this.sessionEnded(revoked);
  }

  /** Whether a session can still be refreshed: neither revoked nor expired. */
  isLive(familyId: string): boolean {
    return this.repos.sessions.familyIsLive(familyId, this.now());
  }

  private startFamily(uid: string): Family {
    const token = newSecret();
    const familyId = newDocumentId();
    const now = this.now();
    this.repos.sessions.insert({
      tokenHash: hashToken(token),
      familyId,
      uid,
      createdAt: now,
      expiresAt: now + REFRESH_TOKEN_TTL_SECONDS * 1000,
    });
    return { token, familyId };
  }

  private async respond(
    account: Pick<Account, 'uid' | 'email' | 'displayName' | 'isAdmin'>,
    family: Family,
  ): Promise<SessionResponse> {
    const accessToken = await this.access.sign(
      { uid: account.uid, email: account.email, isAdmin: account.isAdmin },
      family.familyId,
    );
    return {
      accessToken,
      refreshToken: family.token,
      user: toAuthUser(account),
      expiresIn: ACCESS_TOKEN_TTL_SECONDS,
    };
  }
}
