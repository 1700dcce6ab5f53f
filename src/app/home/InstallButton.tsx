// Installing QuPM, on the welcome screen and the signed-in home.
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  installRequested,
  selectInstallPromptAvailable,
  selectIsInstalled,
  selectPlatform,
} from '@/store/appSlice';

/**
 * Installing QuPM: the browser's own prompt where there is one (beforeinstallprompt); on iOS, which has none,
 * how to add it to the Home Screen (and why: iOS delivers web push only to installed apps).
 */
export function InstallButton() {
  const dispatch = useAppDispatch();
  const installed = useAppSelector(selectIsInstalled);
  const canInstall = useAppSelector(selectInstallPromptAvailable);
  const platform = useAppSelector(selectPlatform);
  if (installed) return null;
  if (canInstall) {
    return (
      <button type="button" className="button" onClick={() => dispatch(installRequested())}>
        Install QuPM
      </button>
    );
  }
  if (platform === 'ios') {
    return (
      <p className="install-hint" role="note">
        <strong>Add QuPM to your Home Screen:</strong> tap the Share button{' '}
        <span aria-hidden="true">(the square with an arrow)</span>, then “Add to Home Screen”. Notifications
        on iPhone and iPad need it.
      </p>
    );
  }
  return null;
}
