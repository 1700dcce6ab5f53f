/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// Focus after a screen change: the new screen's heading, not the body, after each navigation and
// after signing in; the change is announced; a field being typed in keeps its focus.
import { useEffect, useState } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { Outlet, RouterProvider, createMemoryRouter } from 'react-router-dom';
import RouteFocus from '@/app/RouteFocus';
import { createAppStore } from '@/app/store';
import { accountLoaded, fallbackUserState, initialState, signedIn } from '@/store/userSlice';
import { renderRoutesAt } from '../support/renderRoutes';

/** Draws the live heading in place of the kept one, as live data arriving does: the test decides when. */
let drawLive: () => void = () => undefined;

/** A screen drawn twice, the way a start from the last known state is redrawn by live data: a new h1 each time. */
function Redrawn() {
  const [live, setLive] = useState(false);
  useEffect(() => {
    drawLive = () => setLive(true);
  }, []);
  return live ? <h1 key="live">Hello, Priya</h1> : <h1 key="kept">Hello, Priya (kept)</h1>;
}

/** RouteFocus in a frame of its own: `/` and a screen at `/redrawn`. */
function renderFrame() {
  const store = createAppStore({ preloadedState: { user: { ...initialState, status: 'signedOut' } } });
  const Frame = () => (
    <>
      <RouteFocus />
      <main id="content">
        <Outlet />
      </main>
    </>
  );
  const router = createMemoryRouter([
    {
      element: <Frame />,
      children: [
        { path: '/', element: <h1>Start</h1> },
        { path: '/redrawn', element: <Redrawn /> },
      ],
    },
  ]);
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return router;
}

const focused = (): Element | null => document.activeElement;
/** A lazily loaded screen on a busy machine: its chunk may take more than the default second. */
const SLOW = { timeout: 10_000 };

describe('RouteFocus', () => {
  it('leaves the first screen of a visit alone', async () => {
    renderRoutesAt('/services');
    await screen.findByRole('heading', { level: 1, name: 'Services' }, SLOW);
    expect(focused()).toBe(document.body);
  });

  it('focuses the new screen’s h1 after a navigation, and announces it', async () => {
    const { router } = renderRoutesAt('/services');
    await screen.findByRole('heading', { level: 1, name: 'Services' }, SLOW);
    await act(async () => {
      await router.navigate('/settings');
    });
    const heading = await screen.findByRole('heading', { level: 1, name: 'Settings' }, SLOW);
    await waitFor(() => expect(focused()).toBe(heading), SLOW);
    expect(heading.getAttribute('tabindex')).toBe('-1');
    expect(screen.getByTestId('route-announcer').textContent).toBe('Settings');
  });

  it('focuses the home screen’s heading once the person has signed in', async () => {
    const { store } = renderRoutesAt('/');
    await screen.findByRole('heading', { level: 1, name: 'Advice, in one place' }, SLOW);
    const authUser = { uid: 'uidMe000000000000001', email: 'me@example.com', displayName: 'Priya' };
    act(() => {
      store.dispatch(signedIn({ authUser }));
      store.dispatch(accountLoaded({ ...fallbackUserState(authUser), nickname: 'Priya' }));
    });
    const heading = await screen.findByRole('heading', { level: 1, name: 'Hello, Priya' }, SLOW);
    await waitFor(() => expect(focused()).toBe(heading), SLOW);
  });

  it('keeps the focus on the heading while the new screen settles: a heading drawn again takes it', async () => {
    const router = renderFrame();
    await screen.findByRole('heading', { level: 1, name: 'Start' });
    await act(async () => {
      await router.navigate('/redrawn');
    });
    const kept = await screen.findByRole('heading', { level: 1, name: 'Hello, Priya (kept)' });
    await waitFor(() => expect(focused()).toBe(kept));
    act(() => drawLive());
    const live = await screen.findByRole('heading', { level: 1, name: 'Hello, Priya' });
    await waitFor(() => expect(focused()).toBe(live));
  });

  it('leaves the focus where the person put it once they act on the new screen', async () => {
    const router = renderFrame();
    await screen.findByRole('heading', { level: 1, name: 'Start' });
    await act(async () => {
      await router.navigate('/redrawn');
    });
    const kept = await screen.findByRole('heading', { level: 1, name: 'Hello, Priya (kept)' });
    await waitFor(() => expect(focused()).toBe(kept));
    // The person clicks somewhere that takes no focus: the body holds it, and the redrawn heading does not take it.
    act(() => {
      document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }));
      kept.blur();
    });
    // Live data then redraws the screen (it had come after a real 50 ms timer, which a loaded machine outran).
    act(() => drawLive());
    await screen.findByRole('heading', { level: 1, name: 'Hello, Priya' });
    expect(focused()).toBe(document.body);
  });

  it('never takes the focus from a field being typed in', async () => {
    const { router } = renderRoutesAt('/services');
    await screen.findByRole('heading', { level: 1, name: 'Services' }, SLOW);
    const field = document.createElement('input');
    document.body.append(field);
    field.focus();
    await act(async () => {
      await router.navigate('/settings');
    });
    await screen.findByRole('heading', { level: 1, name: 'Settings' }, SLOW);
    expect(focused()).toBe(field);
    field.remove();
  });
});
