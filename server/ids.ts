// New document ids in the shape of core/ids.ts (Firestore's auto-id: 20 characters of [A-Za-z0-9]), drawn from
// the operating system's CSPRNG without modulo bias.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ID_LENGTH = 20;
// 62 * 4 = 248: bytes at or above it are dropped so every character is equally likely.
const UNBIASED_LIMIT = 248;

export function newDocumentId(): string {
  let id = '';
  while (id.length < ID_LENGTH) {
    for (const byte of randomBytes(32)) {
      if (byte < UNBIASED_LIMIT) id += ALPHABET[byte % 62];
      if (id.length === ID_LENGTH) break;
    }
  }
  return id;
}

/** An opaque secret for the wire (refresh tokens, stream tickets): 32 random bytes, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}
