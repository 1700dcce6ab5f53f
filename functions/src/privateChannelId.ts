// A private consultation's document id on Firestore: the same for a pair whoever opens it, so that the one
// transaction that creates it (firestoreRepository.ts ensurePrivateChannel) makes one per pair even when two
// windows press at once. Shaped like every QuPM id (core/ids.ts: 20 characters of [A-Za-z0-9]).
import { createHash } from 'node:crypto';
import type { PrivatePair } from '../../core/privateChannels';
import { privatePairKey } from '../../core/privateChannels';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function privateChannelId(pair: PrivatePair): string {
  const digest = createHash('sha256')
    .update(`qupm-private ${privatePairKey(pair.ownerId, pair.memberId)}`)
    .digest();
  let id = '';
  for (const byte of digest.subarray(0, 20)) id += ALPHABET[byte % 62];
  return id;
}
