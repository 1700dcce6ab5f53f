// `/logout`: signs out and lands on `/`. Messages that have not reached the backend yet would be discarded with
// the session (a shared device must not keep them), so the person is asked first when there are any.
import { useEffect, useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectAuthStatus } from '@/store/userSlice';
import { signOutRequested } from '@/store/authSlice';
import { selectOutboxEntries } from '@/store/outboxSlice';
import { LoadingScreen } from '@/ui/LoadingScreen';

export function Component() {
  const dispatch = useAppDispatch();
  const status = useAppSelector(selectAuthStatus);
  const unsent = useAppSelector(selectOutboxEntries).length;
  const [confirmed, setConfirmed] = useState(false);
  const signedIn = status === 'signedIn' || status === 'loading';
  // Once every message is sent (also while the question is on screen), there is nothing to lose.
  const go = signedIn && (unsent === 0 || confirmed);
  useEffect(() => {
    if (go) dispatch(signOutRequested());
  }, [dispatch, go]);
  if (status === 'signedOut') return <Navigate to="/" replace />;
  if (signedIn && !go) {
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
          <div className="home__actions">
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
