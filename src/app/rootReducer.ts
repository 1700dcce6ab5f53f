// The root reducer: the shared slices (src/store/reducer.ts) with the slices of the features the app starts with.
// Slices of parts that load on demand (a conversation's edits and attachments, the consultant tools, the admin
// section, …) inject
// themselves into the same reducer when their chunk loads.
import { sharedReducer } from '@/store/reducer';
import type { RootState } from '@/store/reducer';
import settings from '@/features/settings/settingsSlice';

export type { RootState };

export const rootReducer = sharedReducer.inject({ reducerPath: 'settings' as const, reducer: settings });

/** What the root reducer makes is the state every module reads: a slice declared in FeatureSlices but not added
 * above fails to compile here. */
type Complete<State extends RootState> = State;
export type RootReducerState = Complete<ReturnType<typeof rootReducer>>;
