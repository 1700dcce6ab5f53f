// The other direction of core/documents.ts, which reads Firestore documents for both Firebase sides: what
// functions/ writes. Reading stays in core/ alone.
import type { UserDoc } from '../../core/model';
import type { DocumentData } from '../../core/documents';

export type Data = DocumentData;

/** users/{uid} as stored: the UserDoc without its key. */
export function userData(user: UserDoc): Data {
  const { uid: _uid, ...data } = user;
  return data;
}
