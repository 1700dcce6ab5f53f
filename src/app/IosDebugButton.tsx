// spec §2: the iOS debug menu's button, fixed at the bottom right, for a signed-in person on iOS only; it dims
// after 10 s (the debug saga times it). The menu itself is a prompt the saga opens.
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectPlatform } from '@/store/appSlice';
import { debugButtonShown, debugMenuOpened, selectDebugButtonDimmed } from '@/store/debugSlice';
import { selectAuthStatus } from '@/store/userSlice';

function DebugButton() {
  const dispatch = useAppDispatch();
  const dimmed = useAppSelector(selectDebugButtonDimmed);
  useEffect(() => {
    dispatch(debugButtonShown());
  }, [dispatch]);
  return (
    <button
      type="button"
      className={dimmed ? 'debug-button debug-button--dimmed' : 'debug-button'}
      data-dimmed={dimmed}
      aria-label="Open the debug menu"
      onClick={() => dispatch(debugMenuOpened())}
    >
      Debug
    </button>
  );
}

export function IosDebugButton() {
  const platform = useAppSelector(selectPlatform);
  const status = useAppSelector(selectAuthStatus);
  if (platform !== 'ios' || status !== 'signedIn') return null;
  return <DebugButton />;
}
