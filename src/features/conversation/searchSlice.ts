// Message search (core/search.ts) on the main screen: the results of each place a person searches from — the
// channel list (all their channels, scope 'all') and one conversation's header (that channel) — each its text,
// its hits newest first, the next page's cursor, and its state. Its actions are the conversation's (`conversation/…`),
// so the first search starts the conversation's page saga (src/app/lazySagas.ts), whose chunk runs the search too,
// and the shell carries none of this; the slice injects itself as its chunk loads.
import { createAction, createSlice } from '@reduxjs/toolkit';
import type { WithSlice } from '@reduxjs/toolkit';
import type { ChatMessage } from '@core/model';
import { sharedReducer } from '@/store/reducer';
import { signedOut } from '@/store/userSlice';

/** Where a search looks: 'all' of the person's channels, or one channel's id. */
export type SearchScope = string;
export const ALL_CHANNELS: SearchScope = 'all';

export interface SearchResults {
  /** The text these results are for. */
  text: string;
  status: 'searching' | 'done' | 'failed';
  hits: ChatMessage[];
  /** The next page's cursor, or null when every hit is here. */
  next: string | null;
  loadingMore: boolean;
  /** Why the search or its next page failed, in words for the person. */
  error: string | null;
}

export interface SearchState {
  byScope: Record<SearchScope, SearchResults>;
}

export const initialState: SearchState = { byScope: {} };

/** The person searched `text` in `scope`. */
type Search = { scope: SearchScope; text: string };
export const searchRequested = createAction<Search>('conversation/searchRequested');
/** The person asked for more results of the search shown in `scope`. */
export const searchMoreRequested = createAction<{ scope: SearchScope }>('conversation/searchMoreRequested');
/** A page of hits came back for `text` (`more`: a next page, added after those shown). */
type Answer = Search & { hits: ChatMessage[]; next: string | null; more: boolean };
export const searchAnswered = createAction<Answer>('conversation/searchAnswered');
export const searchFailed = createAction<Search & { message: string }>('conversation/searchFailed');
/** The person emptied the field or closed the search: its results go. */
export const searchCleared = createAction<{ scope: SearchScope }>('conversation/searchCleared');

const searchSlice = createSlice({
  name: 'messageSearch',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(signedOut, () => initialState)
      .addCase(searchRequested, (state, { payload }) => {
        state.byScope[payload.scope] = {
          text: payload.text,
          status: 'searching',
          hits: [],
          next: null,
          loadingMore: false,
          error: null,
        };
      })
      .addCase(searchMoreRequested, (state, { payload }) => {
        const results = state.byScope[payload.scope];
        if (results?.next) results.loadingMore = true;
      })
      .addCase(searchAnswered, (state, { payload }) => {
        const results = state.byScope[payload.scope];
        // An answer for a text the person has since changed is left out.
        if (!results || results.text !== payload.text) return;
        const held = new Set(results.hits.map((hit) => hit.id));
        results.hits = payload.more
          ? [...results.hits, ...payload.hits.filter((hit) => !held.has(hit.id))]
          : payload.hits;
        results.next = payload.next;
        results.status = 'done';
        results.loadingMore = false;
        results.error = null;
      })
      .addCase(searchFailed, (state, { payload }) => {
        const results = state.byScope[payload.scope];
        if (!results || results.text !== payload.text) return;
        results.status = results.hits.length > 0 ? 'done' : 'failed';
        results.loadingMore = false;
        results.error = payload.message;
      })
      .addCase(searchCleared, (state, { payload }) => {
        delete state.byScope[payload.scope];
      });
  },
});

export default searchSlice.reducer;

// Injected when this module loads (with the conversation view): the shell carries none of it.
declare module '@/store/reducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof searchSlice> {}
}
searchSlice.injectInto(sharedReducer);

interface WithSearch {
  messageSearch?: SearchState;
}
export const selectSearch = (state: WithSearch, scope: SearchScope): SearchResults | undefined =>
  state.messageSearch?.byScope[scope];
