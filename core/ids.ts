// The shape of the document ids QuPM hands out, shared by the client, the embedded server and functions/.
// Both backends use Firestore's auto-id shape: 20 characters of [A-Za-z0-9]. A route param is checked against
// it before anything is requested with it, so a mistyped link never reaches a backend.

export const DOCUMENT_ID_PATTERN = /^[A-Za-z0-9]{20}$/;

/**
 * A person's id. The embedded server's are document ids; Firebase Auth's uids are its own (28 characters for the
 * accounts it creates, up to 128), so a payload that names a person takes either.
 */
export const USER_ID_PATTERN = /^[A-Za-z0-9]{1,128}$/;

/** The id when `value` has the shape of a QuPM document id, otherwise null. */
export function parseDocumentId(value: unknown): string | null {
  return typeof value === 'string' && DOCUMENT_ID_PATTERN.test(value) ? value : null;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ID_LENGTH = 20;
// 62 * 4 = 248: bytes at or above it are dropped so every character is equally likely.
const UNBIASED_LIMIT = 248;

/**
 * A new id of that shape from the platform's CSPRNG (Web Crypto: browsers and Node alike), without modulo bias. The
 * client names its own messages with it: the id is a send's idempotency key (ARCHITECTURE.md "Live data").
 */
export function newDocumentId(): string {
  let id = '';
  const bytes = new Uint8Array(32);
  while (id.length < ID_LENGTH) {
    globalThis.crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      if (byte < UNBIASED_LIMIT) id += ALPHABET[byte % 62];
      if (id.length === ID_LENGTH) break;
    }
  }
  return id;
}
