// Access tokens: short-lived JWTs (HS256, jose) carrying sub, email, the isAdmin claim (spec §6) and sid, the
// session (refresh-token family) they were issued for, signed with a secret the server generates once and keeps
// in its settings table.
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { ERROR_WORDS, QupmError } from '../../core/errors';
import type { Caller } from '../../core/permissions';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../core/wire';

const ALGORITHM = 'HS256';
/** Longer than any token QuPM issues (a JWT of these claims is about 250 characters). */
const MAX_TOKEN_LENGTH = 2048;

export const SESSION_MESSAGES = {
  missing: ERROR_WORDS.signIn,
  invalid: 'Your session is not valid. Sign in again.',
  expired: 'Your session has expired. Sign in again.',
} as const;

/**
 * The caller of a verified access token: a Caller for everything that decides what they may do, plus what a live
 * stream needs to end with its session (server/stream.ts).
 */
export interface TokenCaller extends Caller {
  /** The refresh-token family the token was issued for (`sid`); null for a token signed before it had one. */
  sessionId: string | null;
  /** When the token expires, epoch milliseconds. */
  expiresAt: number;
}

/**
 * Tokens verified lately, by their exact text: a person's client sends the same token on every request for its
 * 15 minutes, and checking its signature again (WebCrypto, a hop to libuv's threads) was the largest cost of a
 * read after the socket. The expiry is checked on every request; revocation and deleted accounts are the
 * caller's checks (server/app.ts authenticate), made on every request too.
 */
const VERIFIED_KEPT = 10_000;

export class AccessTokens {
  private readonly verified = new Map<string, TokenCaller>();

  private constructor(
    private readonly key: CryptoKey,
    private readonly now: () => number,
  ) {}

  static async create(secret: Uint8Array<ArrayBuffer>, now: () => number): Promise<AccessTokens> {
    const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    return new AccessTokens(key, now);
  }

  async sign(caller: Caller, sessionId: string): Promise<string> {
    const issuedAt = Math.floor(this.now() / 1000);
    return new SignJWT({ email: caller.email, isAdmin: caller.isAdmin, sid: sessionId })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(caller.uid)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
      .sign(this.key);
  }

  /** The caller a bearer token stands for; UNAUTHENTICATED when it is missing, forged, malformed or expired. */
  async verify(token: string): Promise<TokenCaller> {
    const known = this.remembered(token);
    if (known !== null) return known;
    const caller = await this.verifySignature(token);
    // The oldest goes first when full (a Map iterates in insertion order).
    if (this.verified.size >= VERIFIED_KEPT) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, caller);
    return { ...caller };
  }

  /**
   * The caller of a token verified lately, at once (no promise: most requests carry one); null for a token not
   * seen yet, whose signature verify() checks. UNAUTHENTICATED when it is malformed or has expired.
   */
  remembered(token: string): TokenCaller | null {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) {
      throw new QupmError('UNAUTHENTICATED', SESSION_MESSAGES.invalid);
    }
    const known = this.verified.get(token);
    if (known === undefined) return null;
    // jose's rule: a token is expired from its `exp` second on.
    if (known.expiresAt > this.now()) return { ...known };
    this.verified.delete(token);
    throw new QupmError('UNAUTHENTICATED', SESSION_MESSAGES.expired, 'session-expired');
  }

  private async verifySignature(token: string): Promise<TokenCaller> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        currentDate: new Date(this.now()),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      const { sub, email, isAdmin, sid, exp } = payload;
      if (
        typeof sub !== 'string' ||
        typeof email !== 'string' ||
        typeof isAdmin !== 'boolean' ||
        (sid !== undefined && typeof sid !== 'string') ||
        typeof exp !== 'number'
      ) {
        throw new QupmError('UNAUTHENTICATED', SESSION_MESSAGES.invalid);
      }
      return { uid: sub, email, isAdmin, sessionId: sid ?? null, expiresAt: exp * 1000 };
    } catch (error) {
      if (error instanceof QupmError) throw error;
      if (error instanceof joseErrors.JWTExpired) {
        throw new QupmError('UNAUTHENTICATED', SESSION_MESSAGES.expired, 'session-expired');
      }
      throw new QupmError('UNAUTHENTICATED', SESSION_MESSAGES.invalid);
    }
  }
}

/** The token of an `Authorization: Bearer <token>` header; UNAUTHENTICATED when there is none. */
export function bearerToken(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value === '') throw new QupmError('UNAUTHENTICATED', SESSION_MESSAGES.missing);
  const match = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(value);
  if (!match?.[1]) throw new QupmError('UNAUTHENTICATED', SESSION_MESSAGES.invalid);
  return match[1];
}
