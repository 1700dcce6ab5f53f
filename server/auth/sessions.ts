// Sign-in, refresh with rotation, sign-out (sign-up starts no session: server/services/signUp.ts). Refresh tokens
// are opaque, stored as SHA-256 hashes, and rotated on every refresh; presenting one that was already rotated means
// it leaked, so the whole family is revoked and both holders must sign in again (OAuth 2.0 Security BCP, refresh
// rotation). Tabs of one browser racing with the same token are not a leak: within REFRESH_REUSE_GRACE_MS of its
// rotation, from the device the session was started on, a rotated token answers the session's current token again
// instead. That needs no plaintext token stored: a successor is derived from its predecessor with a key only the
// server holds (HMAC-SHA-256), so the server can work out again what it answered, and nobody else can.
// A family is a session: its access tokens name it (`sid`), and whoever listens hears when one ends (the live
// streams of that session close, server/stream.ts). A person lists their sessions, ends one
// or all but their own, and changes their password; ending a session also deletes its device's push token (in
// the same transaction) and, through the listener, refuses its access tokens at once (server/app.ts).
import { createHmac } from 'node:crypto';
import Bowser from 'bowser';
import { ERROR_WORDS, QupmError, SESSION_ENDED_MESSAGE } from '../../core/errors';
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
  sessionEnded: SESSION_ENDED_MESSAGE,
  refreshReused: 'This session was used somewhere else and has been ended for safety. Sign in again.',
  noSuchSession: ERROR_WORDS.noSuchSession,
  wrongPassword: ERROR_WORDS.wrongCurrentPassword,
  noSuchAccount: ERROR_WORDS.accountGone,
} as const;

/** Longer user agents are cut: the list only needs the browser and the system. */
export const USER_AGENT_MAX = 512;

/**
 * How long after a refresh token's rotation the same token, from the same device, still answers the session's
 * current token (tabs racing on one token) rather than counting as a reuse: a few seconds covers requests sent
 * together and a slow network; a thief replaying a stolen token later still ends the session.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;
/** How many rotations a late tab's token may be behind (each within the grace): more is not a race. */
const GRACE_CHAIN_MAX = 4;

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

/** Told, after the commit, that a session (refresh-token family) was revoked: signed out or found reused. */
export type SessionEndedListener = (familyId: string) => void;

export class SessionService {
  constructor(
    private readonly db: Db,
    private readonly repos: Repos,
    private readonly passwords: PasswordHasher,
    private readonly access: AccessTokens,
    private readonly now: () => number,
    /** The key successors are derived with (kept in the settings table, like the access tokens' secret). */
    private readonly successorKey: string,
    private readonly sessionEnded: SessionEndedListener = () => undefined,
  ) {}

  /** The refresh token that replaces `token`: the same every time it is asked, unknowable without the key. */
  private successorOf(token: string): string {
    return createHmac('sha256', this.successorKey).update(token).digest('base64url');
  }

  /**
   * A rotated token presented again within the grace, from the device its session started on: the family's current
   * token (the end of its chain of successors), or null when that is not a race (too late, elsewhere, ended).
   */
  private currentOf(
    token: string,
    record: { familyId: string; uid: string; rotatedAt: number | null },
    userAgent: string,
    now: number,
  ): string | null {
    if (record.rotatedAt === null || now - record.rotatedAt > REFRESH_REUSE_GRACE_MS) return null;
    const session = this.repos.sessions.findLive(record.uid, record.familyId, now);
    if (!session || session.userAgent !== userAgent.slice(0, USER_AGENT_MAX)) return null;
    let current = this.successorOf(token);
    for (let step = 0; step < GRACE_CHAIN_MAX; step += 1) {
      const next = this.repos.sessions.find(hashSecret(current));
      if (!next || next.revokedAt !== null || next.expiresAt <= now) return null;
      if (next.rotatedAt === null) return current;
      if (now - next.rotatedAt > REFRESH_REUSE_GRACE_MS) return null;
      current = this.successorOf(current);
    }
    return null;
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

  async refresh(refreshToken: string, userAgent = ''): Promise<SessionResponse> {
    const now = this.now();
    const outcome = write(this.db, () => {
      const record = this.repos.sessions.find(hashSecret(refreshToken));
      if (!record || record.revokedAt !== null || record.expiresAt <= now) return { kind: 'ended' } as const;
      const account = this.repos.users.findAccount(record.uid);
      if (record.rotatedAt !== null || !this.repos.sessions.markRotated(record.tokenHash, now)) {
        // Another tab of the same browser got here first: it gets what that tab got.
        const current = this.currentOf(refreshToken, record, userAgent, now);
        if (current !== null && account) {
          return { kind: 'rotated', account, token: current, familyId: record.familyId } as const;
        }
        // Committed before answering: the revocation must outlive this request.
        this.endFamily(record.familyId, now);
        return { kind: 'reused', familyId: record.familyId } as const;
      }
      if (!account) return { kind: 'ended' } as const;
      const token = this.successorOf(refreshToken);
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
   * Whether `password` is the account's (deleting an account asks for it). The same scrypt work
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
   * one is hashed, stored, and every other session of the account ends (docs/decisions/auth.md).
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
