// Settings → Devices: the devices that receive this person's notifications (their push token documents), each
// removable; this device is marked.
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectDeviceId } from '@/store/appSlice';
import { deviceRemoveRequested, devicesRequested, selectDevices } from './settingsSlice';
import { formatDate } from '@/ui/time';

const PLATFORM_NAMES = { ios: 'iPhone or iPad', android: 'Android', web: 'Browser' } as const;

/** A short name for a user agent: the browser and the system, as a person would say it. */
export function describeUserAgent(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\/|Chromium\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'A browser';
  const system = /iPhone|iPad|iPod/.test(userAgent)
    ? 'iOS'
    : /Android/.test(userAgent)
      ? 'Android'
      : /Mac OS X|Macintosh/.test(userAgent)
        ? 'macOS'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return system ? `${browser} on ${system}` : browser;
}

export function DevicesSection() {
  const dispatch = useAppDispatch();
  const devices = useAppSelector(selectDevices);
  const thisDevice = useAppSelector(selectDeviceId);

  useEffect(() => {
    dispatch(devicesRequested());
  }, [dispatch]);

  if (devices.status === 'loading' || devices.status === 'idle') {
    return (
      <p className="muted" role="status">
        Loading your devices…
      </p>
    );
  }
  return (
    <div className="devices">
      {devices.error && (
        <p className="form-error" role="alert">
          {devices.error}
        </p>
      )}
      {devices.status === 'loaded' && devices.items.length === 0 && (
        <div className="card empty-state">
          <h2>No devices yet</h2>
          <p className="muted">
            When you allow notifications on a device, it appears here. You can remove it at any time.
          </p>
        </div>
      )}
      {devices.items.length > 0 && (
        <ul className="devices__list">
          {devices.items.map((device) => (
            <li key={device.id} className="card devices__item">
              <div>
                <p className="devices__name">
                  {describeUserAgent(device.userAgent)}
                  {device.deviceId === thisDevice && <span className="badge devices__this">This device</span>}
                </p>
                <p className="muted devices__meta">
                  {PLATFORM_NAMES[device.platform]} · last active {formatDate(device.lastUsed)}
                </p>
              </div>
              {device.deviceId === thisDevice ? (
                // Removing this device's document would be undone by its next token check: the switch that
                // stops notifications here is the push setting.
                <Link className="button button--quiet" to="/settings/notifications">
                  Notification settings
                </Link>
              ) : (
                <button
                  type="button"
                  className="button"
                  disabled={devices.removing.includes(device.id)}
                  onClick={() => dispatch(deviceRemoveRequested({ id: device.id }))}
                  aria-label={`Remove ${describeUserAgent(device.userAgent)}`}
                >
                  {devices.removing.includes(device.id) ? 'Removing…' : 'Remove'}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {devices.status === 'failed' && (
        <button type="button" className="button" onClick={() => dispatch(devicesRequested())}>
          Try again
        </button>
      )}
    </div>
  );
}
