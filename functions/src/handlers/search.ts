// Message search on Firebase, which has no full-text search (docs/decisions/firebase.md): the message triggers keep
// one index document per message, messageSearch/{channelId}_{messageId} {channelId, messageId, createdAt, tokens:
// core/search.ts searchTokens (each word's prefixes)}, readable by no client; the search_messages callable checks
// who is asking, queries the entries of the caller's own channels (owner or member) holding the longest word's
// token, and keeps only the messages whose current text has every word (core/search.ts matchesTerms), so an
// entry an edit or a deletion has not reached yet never gives a wrong or a deleted hit.
import { CHANNEL_MESSAGES } from '../../../core/channels';
import { QupmError } from '../../../core/errors';
import { compareMessages } from '../../../core/messages';
import type { MessageCursor } from '../../../core/messages';
import type { ChatMessage } from '../../../core/model';
import { canMessage } from '../../../core/permissions';
import {
  SEARCH_BACKFILL_BATCH,
  lookupToken,
  matchesTerms,
  planSearch,
  searchTokens,
  toSearchPage,
} from '../../../core/search';
import type { SearchPage } from '../../../core/search';
import type { searchBackfillBody, searchBody } from '../../../core/schemas';
import type { Handler } from '../callable';
import type { Deps } from '../repository';

/** Firestore's most values in one `in` filter. */
const IN_MAX = 30;

/** A message as its triggers see it: the index entry follows its text (none for a deleted or empty one). */
export async function handleMessageIndexed(
  { repo }: Pick<Deps, 'repo'>,
  message: { channelId: string; messageId: string; text: string; createdAt: number; deleted: boolean },
): Promise<'indexed' | 'removed'> {
  const tokens = message.deleted ? [] : searchTokens(message.text);
  if (tokens.length === 0) {
    await repo.writeSearchEntry(message.channelId, message.messageId, null);
    return 'removed';
  }
  await repo.writeSearchEntry(message.channelId, message.messageId, { createdAt: message.createdAt, tokens });
  return 'indexed';
}

/** Up to `want` hits of some of the caller's channels, newest first, each checked against its message now. */
async function hitsIn(
  { repo }: Pick<Deps, 'repo'>,
  channelIds: readonly string[],
  terms: readonly string[],
  after: MessageCursor | null,
  want: number,
): Promise<ChatMessage[]> {
  // The longest word is the rarest: its token brings the fewest entries to check.
  const term = [...terms].sort((a, b) => b.length - a.length)[0] ?? '';
  const token = lookupToken(term);
  const hits: ChatMessage[] = [];
  let cursor = after;
  const batch = want * 2;
  for (;;) {
    const entries = await repo.findSearchEntries({ channelIds, token, after: cursor, limit: batch });
    const messages = await Promise.all(entries.map((e) => repo.getMessage(e.channelId, e.messageId)));
    for (const message of messages) {
      if (message && !message.deleted && matchesTerms(message.text, terms)) hits.push(message);
      if (hits.length >= want) return hits;
    }
    const last = entries.at(-1);
    if (!last || entries.length < batch) return hits;
    cursor = { createdAt: last.createdAt, id: last.messageId };
  }
}

export const searchMessages: Handler<typeof searchBody, SearchPage> = async (deps, caller, query) => {
  const plan = planSearch(query);
  let channelIds: string[];
  if (query.channelId !== undefined) {
    const channel = await deps.repo.getChannel(query.channelId);
    if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
    if (!canMessage(channel, caller.uid))
      throw new QupmError('PERMISSION_DENIED', CHANNEL_MESSAGES.notInChannel);
    channelIds = [channel.id];
  } else {
    channelIds = (await deps.repo.listChannelsFor(caller.uid))
      .filter((channel) => canMessage(channel, caller.uid))
      .map((channel) => channel.id);
  }
  if (plan.terms.length === 0 || channelIds.length === 0) return { hits: [], next: null };
  const groups: string[][] = [];
  for (let i = 0; i < channelIds.length; i += IN_MAX) groups.push(channelIds.slice(i, i + IN_MAX));
  // The newest limit + 1 of all is among the newest limit + 1 of each group.
  const found = await Promise.all(
    groups.map((group) => hitsIn(deps, group, plan.terms, plan.after, plan.limit + 1)),
  );
  const hits = found.flat().sort((a, b) => compareMessages(b, a));
  return toSearchPage(hits, plan.limit);
};

/** What a step of the backfill did, and where the next one starts (null: every message is indexed). */
export interface BackfillStep {
  indexed: number;
  removed: number;
  next: string | null;
}

/**
 * The search backfill, an admin's callable (docs/decisions/firebase.md): indexes the messages written before the
 * triggers kept the index, one page of paths at a time, each entry exactly as the triggers write it (so a step
 * run twice, or beside the triggers, writes the same). The caller resumes with `next` until it is null.
 */
export const backfillSearchIndex: Handler<typeof searchBackfillBody, BackfillStep> = async (
  { repo },
  caller,
  query,
) => {
  if (!caller.isAdmin)
    throw new QupmError('PERMISSION_DENIED', 'Only an admin can rebuild the search index.');
  const limit = query.limit ?? SEARCH_BACKFILL_BATCH;
  const page = await repo.listMessagesByPath(query.after ?? null, limit);
  const entries = page.map((message) => {
    const tokens = message.deleted ? [] : searchTokens(message.text);
    return {
      channelId: message.channelId,
      messageId: message.messageId,
      entry: tokens.length === 0 ? null : { createdAt: message.createdAt, tokens },
    };
  });
  if (entries.length > 0) await repo.writeSearchEntries(entries);
  const indexed = entries.filter((e) => e.entry !== null).length;
  return {
    indexed,
    removed: entries.length - indexed,
    next: page.length === limit ? (page.at(-1)?.path ?? null) : null,
  };
};
