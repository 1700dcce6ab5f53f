// The route a failed chunk load leaves behind (see lazyRoute.ts): it starts the recovery once, shows the loading
// screen while the page reloads, and the error screen with a retry when recovery is exhausted.
import { useEffect, useRef } from 'react';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { chunkLoadFailed, chunkRetryRequested, selectChunkRecovery } from '@/store/versionSlice';
import { LoadingScreen } from '@/ui/LoadingScreen';

export function ChunkLoadFailed() {
  const dispatch = useAppDispatch();
  const status = useAppSelector(selectChunkRecovery);
  const reported = useRef(false);
  useEffect(() => {
    // Once per mount, also under StrictMode's second effect run: a second report would read as a second failure.
    if (reported.current) return;
    reported.current = true;
    dispatch(chunkLoadFailed());
  }, [dispatch]);
  if (status !== 'failed') return <LoadingScreen inline />;
  return <ChunkErrorScreen />;
}

/**
 * The error screen once recovery is exhausted, whichever chunk failed (a route's, a screen part's, the backend
 * adapter's or an on-demand saga's): the layout shows it in place of the screen.
 */
export function ChunkErrorScreen() {
  const dispatch = useAppDispatch();
  return (
    <section className="screen screen--center" aria-labelledby="chunk-error-title">
      <h1 id="chunk-error-title">This screen could not be loaded</h1>
      <p className="muted">
        QuPM could not fetch part of the app. Check your connection and try again; if QuPM was just updated,
        trying again loads the new version.
      </p>
      <button
        type="button"
        className="button button--primary"
        onClick={() => dispatch(chunkRetryRequested())}
      >
        Try again
      </button>
    </section>
  );
}
