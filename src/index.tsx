// Bootstrap: the store with its sagas, then (src/app/mount.tsx) the router and React taking over the pre-rendered
// screen. The two are evaluated in separate tasks: on a slow phone either alone is a long task, and a tap on the
// pre-rendered welcome waits for the whole of one (Total Blocking Time counts each task's part over 50 ms).
import { createAppStore } from '@/app/store';
import { initialState as userInitialState } from './store/userSlice';
import { browserLocalStorage, hasStoredLocalSession } from './platform';
import { yieldToMain } from './platform/browser';
import './app/global.css';

// On the embedded backend a browser without a stored session is signed out: the welcome screen renders at once.
// (Firebase keeps its session in IndexedDB, which cannot be read synchronously: there the backend answers first.)
const knownSignedOut = __BACKEND__ === 'local' && !hasStoredLocalSession(browserLocalStorage());
const store = createAppStore({
  // Eager: in this file, its modules evaluated in a task after this one.
  loadRootSaga: async () => (await import(/* webpackMode: "eager" */ '@/app/rootSaga')).rootSaga,
  preloadedState: knownSignedOut ? { user: { ...userInitialState, status: 'signedOut' } } : undefined,
});
const container = document.getElementById('root');

/** The next task after those already queued: the sagas' (loadRootSaga) come first, as before React's. */
const afterQueuedTasks = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

async function start(root: HTMLElement): Promise<void> {
  // Eager imports: in this chunk (nothing more to fetch), each evaluated only when asked for, in a task of its own.
  await afterQueuedTasks();
  await import(/* webpackMode: "eager" */ 'react-dom/client');
  await yieldToMain();
  const { mountApp } = await import(/* webpackMode: "eager" */ './app/mount');
  mountApp(store, root);
}

if (container) void start(container);
