// The daily prune (QUALITY.md "Push and tokens"): token documents unused for 30 days go. A device that is still
// in use refreshes its lastUsed at least daily (the client's token check), so only abandoned ones are removed.
import type { Deps } from '../repository';

export const STALE_TOKEN_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export async function handlePruneStaleTokens({ repo, now }: Deps): Promise<number> {
  return repo.deleteTokensUnusedSince(now() - STALE_TOKEN_DAYS * DAY_MS);
}
