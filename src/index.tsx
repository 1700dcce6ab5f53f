// Bootstrap: the store with its sagas, the router, and React taking over the pre-rendered loading screen.
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRoot } from './app/AppRoot';
import { createAppRouter } from './app/router';
import { createAppStore } from '@/app/store';
import { rootSaga } from '@/app/rootSaga';
import { initialState as userInitialState } from './store/userSlice';
import { browserLocalStorage, hasStoredLocalSession } from './platform';
import './app/global.css';

// On the embedded backend a browser without a stored session is signed out: the welcome screen renders at once.
// (Firebase keeps its session in IndexedDB, which cannot be read synchronously: there the backend answers first.)
const knownSignedOut = __BACKEND__ === 'local' && !hasStoredLocalSession(browserLocalStorage());
const store = createAppStore({
  rootSaga,
  deferSagas: true,
  preloadedState: knownSignedOut ? { user: { ...userInitialState, status: 'signedOut' } } : undefined,
});
const router = createAppRouter();
const container = document.getElementById('root');

// The first render is a transition: React renders it in slices, yielding to the browser between them, so a slow phone
// is not held for the whole tree at once (the page shows the pre-rendered screen until it commits).
const mount = (root: HTMLElement): void =>
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <AppRoot store={store} router={router} />
      </StrictMode>,
    ),
  );

// React takes over once the first route's chunk is there: it then draws that screen at once, where it would
// otherwise draw the loading screen over the pre-rendered welcome for a moment (a flash, and a later LCP).
if (container) {
  if (router.state.initialized) mount(container);
  else {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      mount(container);
    });
  }
}
