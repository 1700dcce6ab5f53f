/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import { routes } from '@/app/router';
import { createAppStore } from '@/app/store';
import { renderRoutesAt } from '../support/renderRoutes';

const renderAt = (path: string) => renderRoutesAt(path).router;

describe('routes', () => {
  it.each([
    ['/', /advice, in one place/i],
    ['/services', /^services$/i],
    ['/activate/AbCdEfGhIj0123456789', /activate your invitation/i],
    ['/settings', /^settings$/i],
    ['/settings/about', /^about$/i],
    ['/settings/notifications', /^notifications$/i],
  ])('renders %s from its lazily loaded module', async (path, heading) => {
    renderAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
  });

  it('shows "Loading QuPM..." while the first screen loads', () => {
    renderAt('/services');
    expect(screen.getByText('Loading QuPM...')).toBeTruthy();
  });

  it.each(['/invite/not-an-id', '/invite/%3Cscript%3E', '/activate/123'])(
    'says the invitation link %s is not valid',
    async (path) => {
      renderAt(path);
      expect(
        await screen.findByRole('heading', { level: 1, name: 'This invitation link is not valid' }),
      ).toBeTruthy();
    },
  );

  it('shows a not-found screen with a way home for an unknown route', async () => {
    renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'This page does not exist' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home screen' }).getAttribute('href')).toBe('/');
  });

  it('names an unknown settings section and lists the real ones', async () => {
    renderAt('/settings/secrets');
    expect(await screen.findByRole('heading', { name: 'There is no such settings section' })).toBeTruthy();
    expect(screen.getByText('secrets')).toBeTruthy();
    const links = screen.getAllByRole('link').map((a) => a.getAttribute('href'));
    expect(links).toEqual(
      expect.arrayContaining([
        '/settings/notifications',
        '/settings/profile',
        '/settings/devices',
        '/settings/about',
      ]),
    );
  });

  it('lands on the home screen after /logout', async () => {
    const router = renderAt('/logout');
    expect(await screen.findByRole('heading', { level: 1, name: /advice, in one place/i })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('unexpected errors', () => {
  it("show the router's own default error element", async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const withBrokenScreen: RouteObject[] = [
      {
        path: routes[0]!.path,
        Component: routes[0]!.Component,
        HydrateFallback: routes[0]!.HydrateFallback,
        children: [
          {
            path: 'broken',
            Component: () => {
              throw new Error('screen exploded');
            },
          },
          ...(routes[0]!.children ?? []),
        ],
      },
    ];
    const router = createMemoryRouter(withBrokenScreen, { initialEntries: ['/broken'] });
    render(
      <Provider store={createAppStore()}>
        <RouterProvider router={router} />
      </Provider>,
    );
    expect(await screen.findByText('Unexpected Application Error!')).toBeTruthy();
    expect(errors).toHaveBeenCalled();
  });
});
