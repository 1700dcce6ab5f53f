// The app's own routes in a memory router over the real store, signed out, opened at one address: what a person who
// types that address sees, with the router to navigate on and the store to dispatch to.
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { routes } from '@/app/router';
import { createAppStore } from '@/app/store';
import { initialState as userInitialState } from '@/store/userSlice';

export function renderRoutesAt(path: string) {
  const store = createAppStore({ preloadedState: { user: { ...userInitialState, status: 'signedOut' } } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { router, store };
}
