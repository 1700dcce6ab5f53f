// Message search on Firebase: the search_messages callable (functions/src/handlers/search.ts; Firestore has no
// full-text search, docs/decisions/firebase.md). The answer is read here into the port's page.
import type { SearchPort } from '../ports';
import type { SearchPage } from '@core/search';
import { callFunction } from './callables';
import { listOf, toMessageAnswer } from './convert';
import type { FirebaseSdk } from './sdk';

function toSearchPage(data: unknown): SearchPage {
  const hits = listOf(data, 'hits', toMessageAnswer);
  const next = (data as { next?: unknown }).next;
  return { hits, next: typeof next === 'string' ? next : null };
}

export function createSearchPort(sdk: FirebaseSdk): SearchPort {
  return {
    searchMessages: (query) => callFunction(sdk, 'search_messages', query, toSearchPage),
  };
}
