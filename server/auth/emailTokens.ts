// The single-use tokens of mailed links: issued inside the transaction that mails them, stored only as
// SHA-256 hashes (a copy of the database opens no account), redeemed once within their time (core/emailLinks.ts).
import { EMAIL_LINK_TTL_MS } from '../../core/emailLinks';
import { hashSecret, newSecret } from '../ids';
import type { Repos } from '../repo';
import type { EmailTokenPurpose, EmailTokenRecord } from '../repo/emailTokens';

/** Issues a token for `uid`'s `email` (call inside a write transaction); answers the token for the link. */
export function issueEmailToken(
  repos: Pick<Repos, 'emailTokens'>,
  input: { uid: string; purpose: EmailTokenPurpose; email: string; now: number },
): string {
  const token = newSecret();
  repos.emailTokens.insert({
    tokenHash: hashSecret(token),
    uid: input.uid,
    purpose: input.purpose,
    email: input.email,
    createdAt: input.now,
    expiresAt: input.now + EMAIL_LINK_TTL_MS[input.purpose],
  });
  return token;
}

export type Redeemed =
  | { kind: 'ok'; record: EmailTokenRecord }
  | { kind: 'invalid' }
  | { kind: 'expired'; record: EmailTokenRecord }
  | { kind: 'used'; record: EmailTokenRecord };

/**
 * Uses `token` for `purpose` (or one of several) (call inside a write transaction): 'ok' once, then 'used'; 'expired' after its time;
 * 'invalid' for a token never issued (forged, mistyped) or issued for another purpose.
 */
export function redeemEmailToken(
  repos: Pick<Repos, 'emailTokens'>,
  token: string,
  purpose: EmailTokenPurpose | readonly EmailTokenPurpose[],
  now: number,
): Redeemed {
  const record = repos.emailTokens.find(hashSecret(token));
  const purposes: readonly EmailTokenPurpose[] = typeof purpose === 'string' ? [purpose] : purpose;
  if (!record || !purposes.includes(record.purpose)) return { kind: 'invalid' };
  if (record.usedAt !== null) return { kind: 'used', record };
  if (record.expiresAt <= now) return { kind: 'expired', record };
  if (!repos.emailTokens.markUsed(record.tokenHash, now)) return { kind: 'used', record };
  return { kind: 'ok', record };
}
