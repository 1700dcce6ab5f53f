// `/logout`: signs out and lands on `/`. Messages that have not reached the backend yet would be discarded with
// the session (a shared device must not keep them), so the person is asked first when there are any.
import { useEffect, useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectAuthStatus } from '@/store/userSlice';
import { signOutRequested } from '@/store/authSlice';
import { selectOutboxEntries, selectOutboxRestored } from '@/store/outboxSlice';
import { LoadingScreen } from '@/ui/LoadingScreen';

/** How long a directly opened /logout waits for the device's unsent messages to be read back. */
const LOGOUT_RESTORE_WAIT_MS = 2_000;

export function Component() {
  const dispatch = useAppDispatch();
  const status = useAppSelector(selectAuthStatus);
  const unsent = useAppSelector(selectOutboxEntries).length;
  const restored = useAppSelector(selectOutboxRestored);
  const [confirmed, setConfirmed] = useState(false);
  // Opened directly, the page first reads back what this device kept; a device that cannot answer soon (no
  // IndexedDB, or its code not loaded offline) is not waited for.
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setWaited(true), LOGOUT_RESTORE_WAIT_MS);
    return () => clearTimeout(timer);
  }, []);
  const signedIn = status === 'signedIn' || status === 'loading';
  // Once every message is sent (also while the question is on screen), there is nothing to lose.
  const go = signedIn && (restored || waited) && (unsent === 0 || confirmed);
  useEffect(() => {
    if (go) dispatch(signOutRequested());
  }, [dispatch, go]);
  if (status === 'signedOut') return <Navigate to="/" replace />;
  if (signedIn && !go && unsent > 0) {
    return (
      <section className="screen" aria-labelledby="logout-title">
        <div className="card">
          <h1 id="logout-title">Sign out?</h1>
          <p>
            {unsent === 1
              ? 'One message has not been sent yet.'
              : `${unsent} messages have not been sent yet.`}{' '}
            If you sign out now, {unsent === 1 ? 'it is' : 'they are'} deleted from this device.
          </p>
          <div className="form-actions">
            <Link className="button button--primary" to="/">
              Stay signed in
            </Link>
            <button type="button" className="button" onClick={() => setConfirmed(true)}>
              Sign out anyway
            </button>
          </div>
        </div>
      </section>
    );
  }
  return <LoadingScreen inline />;
}
