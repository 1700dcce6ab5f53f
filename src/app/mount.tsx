// React's part of the start: the router, and React taking over the pre-rendered screen. src/index.tsx evaluates
// this module (React DOM, the router, every screen's shell) in a task after the store's.
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRoot } from './AppRoot';
import { createAppRouter } from './router';
import type { AppStore } from './store';

export function mountApp(store: AppStore, container: HTMLElement): void {
  const router = createAppRouter();
  // The first render is a transition: React renders it in slices, yielding to the browser between them, so a slow
  // phone is not held for the whole tree at once (the page shows the pre-rendered screen until it commits).
  const mount = (): void =>
    startTransition(() =>
      createRoot(container).render(
        <StrictMode>
          <AppRoot store={store} router={router} />
        </StrictMode>,
      ),
    );
  // React takes over once the first route's chunk is there: it then draws that screen at once, where it would
  // otherwise draw the loading screen over the pre-rendered welcome for a moment (a flash, and a later LCP).
  if (router.state.initialized) mount();
  else {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      mount();
    });
  }
}
