// Message search on the embedded server (core/search.ts): the caller's own channels, by words, newest first. A
// named channel must be one the caller owns or is a member of (admins included: search reads only one's own
// channels); the index query joins on membership as well, so no hit ever comes from another channel.
import { CHANNEL_MESSAGES } from '../../core/channels';
import { QupmError } from '../../core/errors';
import type { Caller } from '../../core/permissions';
import { canMessage } from '../../core/permissions';
import { ftsQuery, planSearch, toSearchPage } from '../../core/search';
import type { SearchPage, SearchQuery } from '../../core/search';
import type { ServiceContext } from '../context';

export function searchMessages(ctx: ServiceContext, caller: Caller, query: SearchQuery): SearchPage {
  const plan = planSearch(query);
  if (query.channelId !== undefined) {
    const channel = ctx.repos.channels.get(query.channelId);
    if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
    if (!canMessage(channel, caller.uid))
      throw new QupmError('PERMISSION_DENIED', CHANNEL_MESSAGES.notInChannel);
  }
  if (plan.terms.length === 0) return { hits: [], next: null };
  const hits = ctx.repos.messageSearch.search({
    match: ftsQuery(plan.terms),
    uid: caller.uid,
    channelId: query.channelId ?? null,
    after: plan.after,
    limit: plan.limit + 1,
  });
  return toSearchPage(hits, plan.limit);
}
