// spec §2: the iOS debug menu's button, fixed at the bottom right, for a signed-in person on iOS only; it dims
// after 10 s (the debug saga times it). The menu itself is a prompt the saga opens. It is a slim tab docked at the
// right edge, in a gutter the layout keeps free (layout--debug-dock), so it never covers a control such as Send.
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

/** Whether the debug button is on screen: iOS, someone signed in (the layout keeps its gutter free then). */
export function useDebugButtonShown(): boolean {
  const platform = useAppSelector(selectPlatform);
  const status = useAppSelector(selectAuthStatus);
  return platform === 'ios' && status === 'signedIn';
}

export function IosDebugButton() {
  const shown = useDebugButtonShown();
  if (!shown) return null;
  return <DebugButton />;
}
