// Every route of spec §2, each screen in its own lazily loaded chunk. No errorElement is set on purpose:
// unexpected errors show React Router's own default error element (spec §2). A chunk that fails to load is not
// unexpected: lazyRoute turns it into the recovery of spec §4 (reload once, then an error screen with a retry).
import { createBrowserRouter } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import { Layout } from './Layout';
import { LoadingScreen } from '@/ui/LoadingScreen';
import { lazyRoute } from './lazyRoute';

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: Layout,
    HydrateFallback: LoadingScreen,
    children: [
      {
        index: true,
        lazy: lazyRoute(() => import(/* webpackChunkName: "route-main" */ '@/app/home/route')),
      },
      {
        path: 'services',
        lazy: lazyRoute(() => import(/* webpackChunkName: "route-services" */ '@/features/services/route')),
      },
      {
        path: 'invite/:invitationId',
        lazy: lazyRoute(() => import(/* webpackChunkName: "route-invite" */ '@/features/invite/route')),
      },
      {
        path: 'activate/:invitationId',
        lazy: lazyRoute(() => import(/* webpackChunkName: "route-activate" */ '@/features/activate/route')),
      },
      {
        path: 'logout',
        lazy: lazyRoute(() => import(/* webpackChunkName: "route-logout" */ '@/features/logout/route')),
      },
      {
        path: 'verify-email',
        lazy: lazyRoute(() => import(/* webpackChunkName: "route-links" */ '@/features/verifyEmail/route')),
      },
      {
        path: 'reset-password',
        lazy: lazyRoute(() => import(/* webpackChunkName: "route-links" */ '@/features/resetPassword/route')),
      },
      {
        path: 'settings',
        lazy: lazyRoute(() => import(/* webpackChunkName: "route-settings" */ '@/features/settings/route')),
      },
      {
        path: 'settings/:section',
        lazy: lazyRoute(
          () => import(/* webpackChunkName: "route-settings" */ '@/features/settings/sectionRoute'),
        ),
      },
      {
        path: '*',
        lazy: lazyRoute(async () => ({
          Component: (await import(/* webpackChunkName: "route-not-found" */ './NotFound')).NotFound,
        })),
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
