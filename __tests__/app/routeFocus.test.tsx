/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// Focus after a screen change: the new screen's heading, not the body, after each navigation and
// after signing in; the change is announced; a field being typed in keeps its focus.
import { act, screen, waitFor } from '@testing-library/react';
import { accountLoaded, fallbackUserState, signedIn } from '@/store/userSlice';
import { renderRoutesAt } from '../support/renderRoutes';

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
