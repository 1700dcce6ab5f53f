// Every route of spec §2, each screen in its own lazily loaded chunk. No errorElement is set on purpose:
// unexpected errors show React Router's own default error element (spec §2).
import { createBrowserRouter } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import { Layout } from './Layout';
import { LoadingScreen } from '@/ui/LoadingScreen';
import { NotFound } from './NotFound';

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: Layout,
    HydrateFallback: LoadingScreen,
    children: [
      { index: true, lazy: () => import(/* webpackChunkName: "route-main" */ '@/features/main/route') },
      {
        path: 'services',
        lazy: () => import(/* webpackChunkName: "route-services" */ '@/features/services/route'),
      },
      {
        path: 'invite/:invitationId',
        lazy: () => import(/* webpackChunkName: "route-invite" */ '@/features/invite/route'),
      },
      {
        path: 'activate/:invitationId',
        lazy: () => import(/* webpackChunkName: "route-activate" */ '@/features/activate/route'),
      },
      {
        path: 'logout',
        lazy: () => import(/* webpackChunkName: "route-logout" */ '@/features/logout/route'),
      },
      {
        path: 'settings',
        lazy: () => import(/* webpackChunkName: "route-settings" */ '@/features/settings/route'),
      },
      {
        path: 'settings/:section',
        lazy: () => import(/* webpackChunkName: "route-settings" */ '@/features/settings/sectionRoute'),
      },
      { path: '*', Component: NotFound },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
