// The app's real store for component tests, with every action the screen dispatches recorded in order, so a test
// can say what the screen asked for. What the test itself dispatches through the returned `dispatch` (the store's
// own, taken before recording began) sets the scene and is not recorded.
import { createAppStore } from '@/app/store';
import type { AppDispatch, AppStore } from '@/app/store';

export interface SeenAction {
  type: string;
  payload?: unknown;
}

export interface RecordingStore<T> {
  store: AppStore;
  /** What the screen dispatched so far, in order (a live array: it grows as the screen dispatches). */
  seen: T[];
  /** The store's own dispatch: actions sent through it are not recorded. */
  dispatch: AppDispatch;
}

function recording<T>(store: AppStore, note: (action: SeenAction) => T): RecordingStore<T> {
  const seen: T[] = [];
  const dispatch = store.dispatch;
  store.dispatch = ((action: SeenAction) => {
    seen.push(note(action));
    return dispatch(action as Parameters<AppDispatch>[0]);
  }) as AppDispatch;
  return { store, seen, dispatch };
}

/** Records each dispatched action whole (type and payload). */
export function recordActions(store: AppStore = createAppStore()): RecordingStore<SeenAction> {
  return recording(store, (action) => action);
}

/** Records only each dispatched action's type. */
export function recordActionTypes(store: AppStore = createAppStore()): RecordingStore<string> {
  return recording(store, (action) => action.type);
}
