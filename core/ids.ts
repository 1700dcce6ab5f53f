// The shape of the document ids QuPM hands out, shared by the client, the embedded server and functions/.
// Both backends use Firestore's auto-id shape: 20 characters of [A-Za-z0-9]. A route param is checked against
// it before anything is requested with it, so a mistyped link never reaches a backend.

export const DOCUMENT_ID_PATTERN = /^[A-Za-z0-9]{20}$/;

/** The id when `value` has the shape of a QuPM document id, otherwise null. */
export function parseDocumentId(value: unknown): string | null {
  return typeof value === 'string' && DOCUMENT_ID_PATTERN.test(value) ? value : null;
}
