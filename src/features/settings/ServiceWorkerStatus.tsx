// Settings → about: the app's version state, with the update restart and the setting for the update banner
// (spec §2), in plain view; and, for "Technical details", how the service worker is doing (spec §4 health) and how
// this start was counted.
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { healthCheckRequested, selectHealthReport, selectSwHealth } from '@/store/swHealthSlice';
import type { HealthAssessment } from '@/store/swHealthSlice';
import {
  selectUpdateNotificationsEnabled,
  selectUpdateStatus,
  updateNotificationsToggled,
  updateRestartRequested,
} from '@/store/versionSlice';
import '../../ui/facts.css';

const ASSESSMENTS: Record<HealthAssessment, string> = {
  pending: 'Assessed after 5 minutes',
  healthy: 'Healthy',
  concerning: 'Concerning',
  unhealthy: 'Unhealthy',
};

function ago(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}

/** Whether this copy is the newest, the restart that applies a new one, and the banner's setting. */
export function AppUpdates() {
  const dispatch = useAppDispatch();
  const update = useAppSelector(selectUpdateStatus);
  const bannerEnabled = useAppSelector(selectUpdateNotificationsEnabled);
  return (
    <section className="sw-status" aria-labelledby="app-updates-title">
      <h2 id="app-updates-title">Updates</h2>
      <dl className="facts">
        <div className="facts__row">
          <dt>Version</dt>
          <dd>{update === 'current' ? 'Up to date' : 'A new version is ready'}</dd>
        </div>
      </dl>
      {update !== 'current' && (
        <div className="sw-status__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={update === 'applying'}
            onClick={() => dispatch(updateRestartRequested())}
          >
            Restart to update
          </button>
        </div>
      )}
      <label className="sw-status__toggle">
        <input
          type="checkbox"
          checked={bannerEnabled}
          onChange={(event) => dispatch(updateNotificationsToggled({ enabled: event.target.checked }))}
        />
        Tell me when an update is available
      </label>
    </section>
  );
}

/** The background worker's health and this start, with a check on demand (behind "Technical details"). */
export function ServiceWorkerStatus() {
  const dispatch = useAppDispatch();
  const health = useAppSelector(selectSwHealth);
  // As of the latest health check (every minute): rendering never reads the clock.
  const report = useAppSelector(selectHealthReport);
  const { startup, check } = health;
  const rows: Array<[string, string]> = [
    [
      'This start',
      startup === null
        ? 'Unknown'
        : startup.kind === 'restart'
          ? startup.sinceLastStartMs === null
            ? 'Restart (first start on this device)'
            : `Restart (${ago(startup.sinceLastStartMs)} after the last)`
          : `Quick resume (${ago(startup.sinceLastStartMs ?? 0)} after the last)`,
    ],
    [
      'Worker health',
      `${ASSESSMENTS[report.assessment]}${report.isHealthy ? '' : ' — restarting too often'}`,
    ],
    [
      'Last health check',
      check.status === 'answered'
        ? `Answered in ${check.roundTripMs ?? 0} ms`
        : check.status === 'failed'
          ? 'No answer'
          : check.status === 'checking'
            ? 'Checking…'
            : 'Not yet',
    ],
    ['Worker restarts', `${report.restartCount} (${report.restartsInWindow} in the last 5 minutes)`],
    ['Worker errors', String(report.errors)],
    ['Controller changes', String(report.controllerChanges)],
    ['Running for', ago(report.uptimeMs)],
  ];
  const pushes = health.worker?.pushes;
  if (pushes) {
    rows.push([
      'Pushes since the worker started',
      `${pushes.shown} shown, ${pushes.inApp} in the app, ${pushes.generic} generic, ${pushes.duplicates} repeated`,
    ]);
  }
  return (
    <section className="sw-status" aria-labelledby="sw-status-title">
      <h2 id="sw-status-title">Background worker</h2>
      <dl className="facts">
        {rows.map(([term, value]) => (
          <div className="facts__row" key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="sw-status__actions">
        <button type="button" className="button" onClick={() => dispatch(healthCheckRequested())}>
          Check the worker now
        </button>
      </div>
    </section>
  );
}
