// The main screen `/`. Signed out it welcomes the person and says what QuPM is; sign-in, channels and the live
// conversation arrive with the backend (issues #3 and #6).
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  installRequested,
  selectInstallPromptAvailable,
  selectIsInstalled,
  selectOfflineReady,
} from '@/store/appSlice';
import './main.css';

export function Component() {
  const dispatch = useAppDispatch();
  const installed = useAppSelector(selectIsInstalled);
  const canInstall = useAppSelector(selectInstallPromptAvailable);
  const offlineReady = useAppSelector(selectOfflineReady);
  return (
    <section className="screen welcome" aria-labelledby="welcome-title">
      <div className="welcome__hero">
        <h1 id="welcome-title">Advice, in one place</h1>
        <p className="welcome__lead">
          QuPM brings consultants and their clients together: channels to talk in, invitations to join them,
          and offers made just for you.
        </p>
        {!installed && canInstall && (
          <button
            type="button"
            className="button button--primary"
            onClick={() => dispatch(installRequested())}
          >
            Install QuPM
          </button>
        )}
      </div>
      <ul className="welcome__points">
        <li className="card">
          <h2>Channels</h2>
          <p>Each consultant has channels. Join one with an invitation and message your consultant there.</p>
        </li>
        <li className="card">
          <h2>Offers</h2>
          <p>
            Consultants send their members offers with discounts. Active ones wait for you under Services.
          </p>
        </li>
        <li className="card">
          <h2>Always with you</h2>
          <p>
            {installed
              ? 'QuPM is installed on this device.'
              : 'Install QuPM to open it like an app, with notifications and a badge for what is new.'}{' '}
            {offlineReady ? 'It is ready to open offline.' : ''}
          </p>
        </li>
      </ul>
    </section>
  );
}
