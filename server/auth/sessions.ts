// Sign-up, sign-in, refresh with rotation, sign-out. Refresh tokens are opaque, stored as SHA-256 hashes, and
// rotated on every refresh; presenting one that was already rotated means it leaked (or two clients raced), so
// the whole family is revoked and both holders must sign in again (OAuth 2.0 Security BCP, refresh rotation).
// A family is a session: its access tokens name it (`sid`), and whoever listens hears when one ends (the live
// streams of that session close, server/stream.ts). Issue #15 parts 4–5: a person lists their sessions, ends one
// or all but their own, and changes their password; ending a session also deletes its device's push token (in
// the same transaction) and, through the listener, refuses its access tokens at once (server/app.ts).
import Bowser from 'bowser';
import { QupmError, SESSION_ENDED_MESSAGE } from '../../core/errors';
import type { AuthUser, SignedInSession } from '../../core/model';
import type { Caller } from '../../core/permissions';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from '../../core/wire';
import type { SessionResponse } from '../../core/wire';
import { write } from '../db/database';
import type { Db } from '../db/database';
import { hashSecret, newDocumentId, newSecret } from '../ids';
import type { Repos } from '../repo';
import type { Account } from '../repo/users';
import type { AccessTokens } from './accessTokens';
import type { PasswordHasher } from './passwords';

export const AUTH_MESSAGES = {
  invalidCredentials: 'The email or password is not right.',
  emailTaken: 'An account with this email already exists. Sign in instead.',
  sessionEnded: SESSION_ENDED_MESSAGE,
  refreshReused: 'This session was used somewhere else and has been ended for safety. Sign in again.',
  noSuchSession: 'That session has already ended, or it is not one of yours.',
  wrongPassword: 'Your current password is not right.',
  noSuchAccount: 'This account no longer exists.',
} as const;

/** Longer user agents are cut: the list only needs the browser and the system. */
export const USER_AGENT_MAX = 512;

/** The browser and system a person would name, from a user agent ('' or unparsable: "Unknown browser"). */
export function describeUserAgent(userAgent: string): { browser: string; platform: string } {
  if (userAgent.trim() === '') return { browser: 'Unknown browser', platform: 'unknown system' };
  const parsed = Bowser.parse(userAgent);
  return {
    browser: parsed.browser.name?.trim() || 'Unknown browser',
    platform: parsed.os.name?.trim() || 'unknown system',
  };
}

/** A refresh token just issued and the family (session) it belongs to. */
interface Family {
  token: string;
  familyId: string;
}

const toAuthUser = (account: Pick<Account, 'uid' | 'email' | 'displayName'>): AuthUser => ({
  uid: account.uid,
  email: account.email,
  displayName: account.displayName,
});

/**
 * Told, inside the sign-up's transaction, that an account was created (issue #15: its confirmation mail is
 * queued in that transaction).
 */
export type AccountCreatedListener = (account: {
  uid: string;
  email: string;
  displayName: string | null;
}) => void;

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
    private readonly accountCreated: AccountCreatedListener = () => undefined,
  ) {}

  async signUp(
    input: { email: string; password: string; displayName?: string },
    userAgent = '',
  ): Promise<SessionResponse> {
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
      this.accountCreated({ uid, email: input.email, displayName: input.displayName ?? null });
      return this.startFamily(uid, userAgent);
    });
    return this.respond(
      { uid, email: input.email, displayName: input.displayName ?? null, isAdmin: false },
      family,
    );
  }

  async signIn(input: { email: string; password: string }, userAgent = ''): Promise<SessionResponse> {
    const account = this.repos.users.findAccountByEmail(input.email);
    // Same scrypt work and the same answer whether the email is unknown or the password wrong.
    const valid = await this.passwords.verify(input.password, account?.passwordHash);
    if (!account || !valid) {
      throw new QupmError('UNAUTHENTICATED', AUTH_MESSAGES.invalidCredentials, 'invalid-credentials');
    }
    const family = write(this.db, () => {
      this.repos.sessions.pruneExpired(account.uid, this.now());
      this.repos.sessions.pruneEndedSessions(account.uid, this.now());
      return this.startFamily(account.uid, userAgent);
    });
    return this.respond(account, family);
  }

  async refresh(refreshToken: string): Promise<SessionResponse> {
    const now = this.now();
    const outcome = write(this.db, () => {
      const record = this.repos.sessions.find(hashSecret(refreshToken));
      if (!record || record.revokedAt !== null || record.expiresAt <= now) return { kind: 'ended' } as const;
      if (record.rotatedAt !== null || !this.repos.sessions.markRotated(record.tokenHash, now)) {
        // Committed before answering: the revocation must outlive this request.
        this.endFamily(record.familyId, now);
        return { kind: 'reused', familyId: record.familyId } as const;
      }
      const account = this.repos.users.findAccount(record.uid);
      if (!account) return { kind: 'ended' } as const;
      const token = newSecret();
      this.repos.sessions.insert({
        tokenHash: hashSecret(token),
        familyId: record.familyId,
        uid: record.uid,
        createdAt: now,
        expiresAt: now + REFRESH_TOKEN_TTL_SECONDS * 1000,
      });
      // "Last used" moves here, once per access token (15 minutes), never on every request.
      this.repos.sessions.touchSession(record.familyId, now);
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
      const record = this.repos.sessions.find(hashSecret(refreshToken));
      if (!record || record.uid !== caller.uid) return null;
      this.endFamily(record.familyId, this.now());
      return record.familyId;
    });
    if (revoked !== null) this.sessionEnded(revoked);
  }

  /** Whether a session can still be refreshed: neither revoked nor expired. */
  isLive(familyId: string): boolean {
    return this.repos.sessions.familyIsLive(familyId, this.now());
  }

  /**
   * Whether `password` is the account's (issue #15 part 7: deleting an account asks for it). The same scrypt work
   * whatever the answer.
   */
  async checkPassword(uid: string, password: string): Promise<'right' | 'wrong' | 'no-account'> {
    const account = this.repos.users.findAccount(uid);
    const valid = await this.passwords.verify(password, account?.passwordHash);
    if (!account) return 'no-account';
    return valid ? 'right' : 'wrong';
  }

  /** The caller's sessions that still stand, most recently used first, their own marked. */
  listSessions(caller: Caller & { sessionId: string | null }): SignedInSession[] {
    return this.repos.sessions.listLive(caller.uid, this.now()).map((session) => ({
      id: session.familyId,
      ...describeUserAgent(session.userAgent),
      createdAt: session.createdAt,
      lastUsedAt: session.lastUsedAt,
      current: session.familyId === caller.sessionId,
    }));
  }

  /** Ends one of the caller's sessions; NOT_FOUND when it is unknown, already ended or someone else's. */
  revokeSession(caller: Caller, familyId: string): void {
    write(this.db, () => {
      const now = this.now();
      if (!this.repos.sessions.findLive(caller.uid, familyId, now)) {
        throw new QupmError('NOT_FOUND', AUTH_MESSAGES.noSuchSession);
      }
      this.endFamily(familyId, now);
    });
    this.sessionEnded(familyId);
  }

  /** "Sign out everywhere else": ends every session of the caller's but the one asking; answers how many. */
  revokeOtherSessions(caller: Caller & { sessionId: string | null }): number {
    const ended = write(this.db, () => this.endOthers(caller.uid, caller.sessionId, this.now()));
    for (const familyId of ended) this.sessionEnded(familyId);
    return ended.length;
  }

  /**
   * Changes the caller's password: the current one must be right (PERMISSION_DENIED 'wrong-password'); the new
   * one is hashed, stored, and every other session of the account ends (docs/DECISIONS.md, issue #15 parts 4–5).
   */
  async changePassword(
    caller: Caller & { sessionId: string | null },
    input: { currentPassword: string; newPassword: string },
  ): Promise<number> {
    const account = this.repos.users.findAccount(caller.uid);
    const valid = await this.passwords.verify(input.currentPassword, account?.passwordHash);
    if (!account) throw new QupmError('NOT_FOUND', AUTH_MESSAGES.noSuchAccount);
    if (!valid) throw new QupmError('PERMISSION_DENIED', AUTH_MESSAGES.wrongPassword, 'wrong-password');
    const passwordHash = await this.passwords.hash(input.newPassword);
    const ended = write(this.db, () => {
      // Checked again inside the transaction: another change may have landed while scrypt ran.
      const now = this.repos.users.findAccount(caller.uid);
      if (!now || now.passwordHash !== account.passwordHash) {
        throw new QupmError('PERMISSION_DENIED', AUTH_MESSAGES.wrongPassword, 'wrong-password');
      }
      this.repos.users.setPasswordHash(caller.uid, passwordHash);
      return this.endOthers(caller.uid, caller.sessionId, this.now());
    });
    for (const familyId of ended) this.sessionEnded(familyId);
    return ended.length;
  }

  /**
   * Inside the caller's transaction: ends every live session of `uid` (a password reset); answers them, to be
   * passed to `announceEnded` after the commit.
   */
  endAllInTransaction(uid: string, now: number): string[] {
    return this.endOthers(uid, null, now);
  }

  /** After the commit of `endAllInTransaction`: the ended sessions' access tokens and live streams stop now. */
  announceEnded(familyIds: readonly string[]): void {
    for (const familyId of familyIds) this.sessionEnded(familyId);
  }

  /** Inside a transaction: revokes a family's refresh tokens and deletes the push tokens its device saved. */
  private endFamily(familyId: string, now: number): void {
    this.repos.sessions.revokeFamily(familyId, now);
    this.repos.tokens.deleteOfSessionEnded(familyId);
  }

  /** Inside a transaction: ends every live session of `uid` but `keep`; answers the ones it ended. */
  private endOthers(uid: string, keep: string | null, now: number): string[] {
    const ended: string[] = [];
    for (const session of this.repos.sessions.listLive(uid, now)) {
      if (session.familyId === keep) continue;
      this.endFamily(session.familyId, now);
      ended.push(session.familyId);
    }
    return ended;
  }

  private startFamily(uid: string, userAgent: string): Family {
    const token = newSecret();
    const familyId = newDocumentId();
    const now = this.now();
    this.repos.sessions.insertSession({
      familyId,
      uid,
      userAgent: userAgent.slice(0, USER_AGENT_MAX),
      createdAt: now,
      lastUsedAt: now,
    });
    this.repos.sessions.insert({
      tokenHash: hashSecret(token),
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
