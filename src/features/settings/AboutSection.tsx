// Settings → About: what this copy of QuPM is and how it runs on this device.
import { useAppSelector } from '@/store/hooks';
import { ROLE_NAMES } from '@/ui/roles';
import { selectApp, selectOfflineReady } from '@/store/appSlice';
import { selectPushSupport } from '@/store/pushSlice';
import { selectAuthUser, selectRole } from '@/store/userSlice';
import { AppUpdates, ServiceWorkerStatus } from './ServiceWorkerStatus';
import { formatFullTime } from '@/ui/time';
import '../../ui/facts.css';

const PLATFORM_NAMES = { ios: 'iOS', android: 'Android', web: 'Web' } as const;
const CAPABILITY_NAMES = {
  serviceWorker: 'service workers',
  pushManager: 'the Push API',
  notification: 'notifications',
  fetch: 'fetch',
  indexedDb: 'IndexedDB',
} as const;

type Row = [term: string, value: string, code?: boolean];

function Facts({ rows }: { rows: Row[] }) {
  return (
    <dl className="facts">
      {rows.map(([term, value, code]) => (
        <div className="facts__row" key={term}>
          <dt>{term}</dt>
          <dd className={code ? 'facts__value--code' : undefined}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function AboutSection() {
  const app = useAppSelector(selectApp);
  const offlineReady = useAppSelector(selectOfflineReady);
  const authUser = useAppSelector(selectAuthUser);
  const role = useAppSelector(selectRole);
  const pushSupport = useAppSelector(selectPushSupport);
  // What anyone may want to know first; the words only a support conversation needs (build, backend, platform,
  // the device's id) wait behind "Technical details".
  const rows: Row[] = [
    ['Version', __APP_VERSION__],
    ['Installed as an app', app.installed ? 'Yes' : 'No'],
    ['Works offline', offlineReady ? 'Yes' : app.serviceWorker.status === 'failed' ? 'No' : 'Not yet'],
    [
      'Push notifications',
      pushSupport.supported
        ? 'Supported by this browser'
        : `Not supported: no ${pushSupport.missing.map((m) => CAPABILITY_NAMES[m]).join(', ')}`,
    ],
  ];
  const technical: Row[] = [
    ['Built', formatFullTime(new Date(__BUILD_TIME__).getTime())],
    ['Backend', __BACKEND__ === 'local' ? 'Embedded QuPM server' : 'Firebase'],
    ['Platform', PLATFORM_NAMES[app.platform]],
    ['Device id', app.deviceId || 'unknown', true],
  ];
  if (authUser) {
    rows.unshift(['Signed in as', authUser.email], ['Role', ROLE_NAMES[role]]);
  }
  return (
    <>
      <Facts rows={rows} />
      <AppUpdates />
      <details className="about__technical">
        <summary>Technical details</summary>
        <Facts rows={technical} />
        <ServiceWorkerStatus />
      </details>
    </>
  );
}
