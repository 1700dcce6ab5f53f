// The daily prune (QUALITY.md "Push and tokens"): token documents unused for 30 days go, by the same rule as the
// embedded server's pruneStaleTokens (core/pushTokens.ts). A device still in use touches lastUsed at least daily.
import { TOKEN_UNUSED_PRUNE_AFTER_MS } from '../../../core/pushTokens';
import type { Deps } from '../repository';

export async function handlePruneStaleTokens({ repo, now }: Deps): Promise<number> {
  return repo.deleteTokensUnusedSince(now() - TOKEN_UNUSED_PRUNE_AFTER_MS);
}

/**
 * A browser's push token belongs to whoever registered it last (QUALITY.md: a shared device never pushes the last
 * person's messages): when an account saves a token, the same token under every other account is deleted, as the
 * embedded server's addToken does. Rules keep clients from deleting other people's documents, so this runs here.
 * Answers how many documents went.
 */
export async function handleTokenCreated(
  { repo }: Deps,
  created: { uid: string; id: string; token: string },
): Promise<number> {
  if (created.token === '') return 0;
  const holders = await repo.findTokenHolders(created.token);
  const others = holders.filter((holder) => holder.uid !== created.uid);
  if (others.length > 0) await repo.deleteTokens(others);
  return others.length;
}
