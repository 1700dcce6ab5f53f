// The daily prune (QUALITY.md "Push and tokens"): token documents unused for 30 days go, by the same rule as the
// embedded server's pruneStaleTokens (core/pushTokens.ts). A device still in use touches lastUsed at least daily.
import { TOKEN_UNUSED_PRUNE_AFTER_MS } from '../../../core/pushTokens';
import type { Deps } from '../repository';

export async function handlePruneStaleTokens({ repo, now }: Deps): Promise<number> {
  return repo.deleteTokensUnusedSince(now() - TOKEN_UNUSED_PRUNE_AFTER_MS);
}
