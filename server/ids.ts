// New document ids (core/ids.ts: Firestore's auto-id shape, from the CSPRNG) and opaque secrets for the wire.
import { createHash, randomBytes } from 'node:crypto';

export { newDocumentId } from '../core/ids';

/** An opaque secret for the wire (refresh tokens, stream tickets): 32 random bytes, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored of a secret (refresh tokens, mailed links' tokens): its SHA-256, so a copy of the database opens
 * nothing. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
