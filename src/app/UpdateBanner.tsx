// spec §2: 'App update available - restart app to apply', top right, for 5 s (the update saga times it and only
// shows it when enable_update_notifications is 'true'). Restart applies the update at once.
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectUpdateBannerVisible, updateRestartRequested } from '@/store/versionSlice';

export const UPDATE_BANNER_TEXT = 'App update available - restart app to apply';

export function UpdateBanner() {
  const dispatch = useAppDispatch();
  const visible = useAppSelector(selectUpdateBannerVisible);
  if (!visible) return null;
  return (
    <div className="update-banner" role="status">
      <p className="update-banner__text">{UPDATE_BANNER_TEXT}</p>
      <button
        type="button"
        className="button button--primary"
        onClick={() => dispatch(updateRestartRequested())}
      >
        Restart
      </button>
    </div>
  );
}
