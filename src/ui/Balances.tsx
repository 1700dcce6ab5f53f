// The person's balances (ARCHITECTURE.md: credits are prepaid consultations, passes are channel passes), shown
// on the home, services and activation screens from the user state, so an activation updates all of them.
// Figures that are not live say so: the last known ones (kept on this device) with the time they were true, and
// unknown ones (offline, nothing kept) as unknown, never as 0.
import { formatClock } from '@core/times';
import { selectIsOnline } from '@/store/appSlice';
import { useAppSelector } from '@/store/hooks';
import { selectUser } from '@/store/userSlice';
import './balances.css';

/** "Offline · as of 10:42" (or "Updating · as of 10:42" while the backend has not answered). */
export function asOfWords(asOf: number, online: boolean): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return `${online ? 'Updating' : 'Offline'} · as of ${formatClock(asOf, zone)}`;
}

export function Balances() {
  const { credits, passCount, asOf } = useAppSelector(selectUser);
  const online = useAppSelector(selectIsOnline);
  const unknown = asOf === 0;
  return (
    <div className="home__balances-block">
      <dl className="home__balances" aria-label="Your balance">
        <div className="card">
          <dt>Credits</dt>
          <dd className={unknown ? 'home__balance--unknown' : undefined}>{unknown ? 'Unknown' : credits}</dd>
        </div>
        <div className="card">
          <dt>Channel passes</dt>
          <dd className={unknown ? 'home__balance--unknown' : undefined}>
            {unknown ? 'Unknown' : passCount}
          </dd>
        </div>
      </dl>
      {asOf ? (
        <p className="muted home__as-of" role="status">
          {asOfWords(asOf, online)}
        </p>
      ) : null}
    </div>
  );
}
