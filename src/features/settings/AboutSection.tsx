// Settings → About: what this copy of QuPM is and how it runs on this device.
import { useAppSelector } from '@/store/hooks';
import { ROLE_NAMES } from '@/ui/roles';
import { selectApp, selectOfflineReady } from '@/store/appSlice';
import { selectPushSupport } from '@/store/pushSlice';
import { selectAuthUser, selectRole } from '@/store/userSlice';
import { ServiceWorkerStatus } from './ServiceWorkerStatus';
import '../../ui/facts.css';

const PLATFORM_NAMES = { ios: 'iOS', android: 'Android', web: 'Web' } as const;
const CAPABILITY_NAMES = {
  serviceWorker: 'service workers',
  pushManager: 'the Push API',
  notification: 'notifications',
  fetch: 'fetch',
  indexedDb: 'IndexedDB',
} as const;

export function AboutSection() {
  const app = useAppSelector(selectApp);
  const offlineReady = useAppSelector(selectOfflineReady);
  const authUser = useAppSelector(selectAuthUser);
  const role = useAppSelector(selectRole);
  const pushSupport = useAppSelector(selectPushSupport);
  const rows: Array<[string, string, boolean?]> = [
    ['Version', __APP_VERSION__],
    ['Built', new Date(__BUILD_TIME__).toLocaleString()],
    ['Backend', __BACKEND__ === 'local' ? 'Embedded QuPM server' : 'Firebase'],
    ['Platform', PLATFORM_NAMES[app.platform]],
    ['Installed as an app', app.installed ? 'Yes' : 'No'],
    ['Works offline', offlineReady ? 'Yes' : app.serviceWorker.status === 'failed' ? 'No' : 'Not yet'],
    [
      'Push notifications',
      pushSupport.supported
        ? 'Supported by this browser'
        : `Not supported: no ${pushSupport.missing.map((m) => CAPABILITY_NAMES[m]).join(', ')}`,
    ],
    ['Device id', app.deviceId || 'unknown', true],
  ];
  if (authUser) {
    rows.unshift(['Signed in as', authUser.email], ['Role', ROLE_NAMES[role]]);
  }
  return (
    <>
      <dl className="facts">
        {rows.map(([term, value, code]) => (
          <div className="facts__row" key={term}>
            <dt>{term}</dt>
            <dd className={code ? 'facts__value--code' : undefined}>{value}</dd>
          </div>
        ))}
      </dl>
      <ServiceWorkerStatus />
    </>
  );
}
