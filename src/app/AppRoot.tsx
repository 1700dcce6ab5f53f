// The React root: the store's provider and the router, and the signal that the app is mounted. spec §4: token
// monitoring also stops when the provider is torn down, so unmounting tells the sagas (app/rootUnmounted).
import { useEffect } from 'react';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import type { createBrowserRouter } from 'react-router-dom';
import type { AppStore } from './store';
import { rootMounted, rootUnmounted } from '@/store/appSlice';

function MountSignal({ store }: { store: AppStore }) {
  useEffect(() => {
    store.dispatch(rootMounted());
    return () => {
      store.dispatch(rootUnmounted());
    };
  }, [store]);
  return null;
}

export function AppRoot({
  store,
  router,
}: {
  store: AppStore;
  router: ReturnType<typeof createBrowserRouter>;
}) {
  return (
    <Provider store={store}>
      <MountSignal store={store} />
      <RouterProvider router={router} />
    </Provider>
  );
}
