// The main screen `/`. Signed out: what QuPM is, and sign in / sign up. Signed in: the person's home (Home.tsx,
// its own chunk): balances, the invitations waiting for them, their channels and the open channel's conversation.
import { Suspense, useEffect } from 'react';
import type { ComponentType } from 'react';
import { useAppSelector } from '@/store/hooks';
import { selectIsInstalled, selectOfflineReady } from '@/store/appSlice';
import { selectAuthStatus } from '@/store/userSlice';
import { LoadingScreen } from '@/ui/LoadingScreen';
import { AuthForm } from '@/ui/AuthForm';
import { lazyComponent } from '@/app/lazyComponent';
import { InstallButton } from './InstallButton';
import './main.css';

// A signed-in person's home (channels, invitations, the push prompt) is a chunk of its own, asked for as soon as
// the screen knows someone may be signed in, in parallel with the backend that must answer before it can show:
// a visitor's first screen (this module: the welcome and the sign-in form) carries none of it.
let fetched: ComponentType | undefined;
const loadHome = () =>
  import(/* webpackChunkName: "home" */ './Home').then((m) => {
    fetched = m.Home;
    return m;
  });
// Fetched while the backend (or the kept state) says who is there: then drawn in the same frame.
const Home = lazyComponent(
  () => loadHome().then((m) => m.Home),
  () => fetched,
);

function Welcome() {
  const installed = useAppSelector(selectIsInstalled);
  const offlineReady = useAppSelector(selectOfflineReady);
  return (
    <section className="screen welcome" aria-labelledby="welcome-title">
      <div className="welcome__grid">
        <div className="welcome__hero">
          <h1 id="welcome-title">Advice, in one place</h1>
          <p className="welcome__lead">
            QuPM brings consultants and their clients together: channels to talk in, invitations to join them,
            and offers made just for you.
          </p>
          <ul className="welcome__points">
            <li>
              <strong>Channels.</strong> Join one with an invitation and message your consultant there.
            </li>
            <li>
              <strong>Offers.</strong> Discounts from your consultant wait for you under Services.
            </li>
            <li>
              <strong>Always with you.</strong>{' '}
              {installed
                ? 'QuPM is installed on this device.'
                : 'Install QuPM to open it like an app, with notifications and a badge.'}{' '}
              {offlineReady ? 'It opens offline too.' : ''}
            </li>
          </ul>
          <InstallButton />
        </div>
        <AuthForm title="Welcome" lead="Sign in to your QuPM account, or create one." />
      </div>
    </section>
  );
}

export function Component() {
  const status = useAppSelector(selectAuthStatus);
  useEffect(() => {
    // Fetched while the backend says who is there; a failure here is retried (and recovered) by the lazy component.
    if (status !== 'signedOut') loadHome().catch(() => undefined);
  }, [status]);
  if (status === 'unknown' || status === 'loading') return <HomePending />;
  if (status !== 'signedIn') return <Welcome />;
  return (
    <Suspense fallback={<HomePending />}>
      <Home />
    </Suspense>
  );
}

/**
 * 'Loading QuPM...' where the home is coming (someone may be signed in): in the home's own width (main.css) and
 * frame (a screen that fills the window: the short top bar of a phone held sideways), so the page does not move
 * under the person's eyes when the home replaces it.
 */
function HomePending() {
  return (
    <div className="home-pending screen--fill">
      <LoadingScreen inline />
    </div>
  );
}
