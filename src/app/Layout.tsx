// The frame around every screen: header with navigation, the offline notice, and the routed screen. While a
// route's chunk loads the screen area shows 'Loading QuPM...'. Over it: in-app notices, the update banner and, on
// iOS, the debug button, docked in a right-hand gutter that the layout keeps free of controls.
import { Suspense, lazy } from 'react';
import { NavLink, Outlet, useNavigation } from 'react-router-dom';
import { useAppSelector } from '@/store/hooks';
import { selectIsOnline } from '@/store/appSlice';
import { selectServicesNews } from '@/store/offersSlice';
import { LoadingScreen } from '@/ui/LoadingScreen';
import { selectChunkRecovery } from '@/store/versionSlice';
import { ChunkErrorScreen } from './ChunkLoadFailed';
import { IosDebugButton, useDebugButtonShown } from './IosDebugButton';
import { Notices } from './Notices';
import { UpdateBanner } from './UpdateBanner';
import './overlays.css';

// Focus after a screen change loads after the first screen (which it leaves alone anyway): the shell stays small.
const RouteFocus = lazy(() => import(/* webpackChunkName: "screen-focus" */ './RouteFocus'));

const NAV_ITEMS = [
  { to: '/', label: 'Home', end: true },
  { to: '/services', label: 'Services', end: false },
  { to: '/settings', label: 'Settings', end: false },
] as const;

export function Layout() {
  const navigation = useNavigation();
  const online = useAppSelector(selectIsOnline);
  // News for /services (a new offer, a booking's change) since it was seen: a dot on its link.
  const news = useAppSelector(selectServicesNews);
  // A chunk that could not be loaded, after the one reload (spec §4): the error screen, whatever was loading.
  const chunkRecovery = useAppSelector(selectChunkRecovery);
  const loading = navigation.state === 'loading';
  // The iOS debug button docks in a gutter of its own at the right edge: the layout leaves that gutter free.
  const docked = useDebugButtonShown();
  return (
    <div className={docked ? 'layout layout--debug-dock' : 'layout'}>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="topbar">
        <NavLink to="/" className="brand" aria-label="QuPM home">
          {/* Drawn at its display size at every pixel density (scripts/render-icons.ts renders the three). */}
          <img
            className="brand__icon"
            src="/icons/brand-28.png"
            srcSet="/icons/brand-28.png 1x, /icons/brand-56.png 2x, /icons/brand-84.png 3x"
            alt=""
            width="28"
            height="28"
          />
          <span className="brand__name">QuPM</span>
        </NavLink>
        <nav className="nav" aria-label="Main">
          {NAV_ITEMS.map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              end={item.end}
              className={({ isActive }) =>
                (isActive ? 'nav__link nav__link--active' : 'nav__link') +
                (news && item.to === '/services' ? ' nav__link--news' : '')
              }
            >
              {item.label}
              {news && item.to === '/services' && <span className="visually-hidden"> (new)</span>}
            </NavLink>
          ))}
        </nav>
      </header>
      {!online && (
        <p className="offline-notice" role="status">
          You are offline. QuPM keeps working with what it has; new data arrives when you are back online.
        </p>
      )}
      <main id="content" className="content" tabIndex={-1} aria-busy={loading}>
        {chunkRecovery === 'failed' ? <ChunkErrorScreen /> : <Outlet />}
        {loading && (
          // Fades in only after a moment (CSS), so precached chunks switch screens without a flash.
          <div className="route-pending">
            <LoadingScreen inline />
          </div>
        )}
      </main>
      <Suspense fallback={null}>
        <RouteFocus />
      </Suspense>
      <Notices />
      <UpdateBanner />
      <IosDebugButton />
    </div>
  );
}
