// Settings → Notifications → "This device": where push stands on this device (support, permission, token
// status, the last validation in the spec's words) with the one action that fits: allow notifications (from
// this click: spec §4, iOS requires a user gesture) or check the token again.
import { useEffect, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { permissionRequested, selectPush, selectPushGate, validationRequested } from '@/store/pushSlice';
import type { PermissionState, PushGateReason, PushState } from '@/store/pushSlice';
import '../../ui/facts.css';

/** spec §8: unsupported-browser and indexed-db-unsupported stop messaging setup; each gate reason in words. */
export const GATE_WORDS: Record<PushGateReason, string> = {
  notMounted: 'Starting…',
  signedOut: 'Sign in to get notifications on this device.',
  unsupported: "This browser doesn't support the APIs push notifications need.",
  noIndexedDb:
    "This browser doesn't give QuPM IndexedDB (a private window, or storage is blocked), so push can't work here.",
  environment: 'Push is off on development hosts (localhost and IP addresses).',
  noUserDoc: "Your account settings couldn't be read, so push is off for now.",
  notificationsOff: 'Notifications are off for your account (below).',
  pushNotChosen: 'Push notifications are not one of your chosen ways (below).',
};

const PERMISSION_WORDS: Record<PermissionState, string> = {
  default: 'Not asked yet',
  granted: 'Allowed',
  denied: 'Blocked',
  unsupported: 'Not available in this browser',
};

function statusWords(push: PushState): string {
  switch (push.tokenStatus) {
    case 'awaitingPermission':
      return 'Waiting for you to allow notifications';
    case 'blocked':
      return 'Blocked in this browser';
    case 'creating':
      return push.creationAttempt > 0 ? `Setting up… (retry ${push.creationAttempt} of 3)` : 'Setting up…';
    case 'validating':
      return 'Checking…';
    case 'active':
      return 'On: this device receives your notifications';
    case 'failed':
      return "Couldn't set up push. QuPM tries again every 30 minutes.";
    case 'off':
      return 'Off';
  }
}

/** "just now", "3 minutes ago", or the time for older ones; re-rendered each minute. */
function useAgo(at: number | null): string {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  if (at === null) return '';
  const minutes = Math.floor(Math.max(0, now - at) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  return new Date(at).toLocaleString();
}

export function ThisDevicePush() {
  const dispatch = useAppDispatch();
  const push = useAppSelector(selectPush);
  const gate = useAppSelector(selectPushGate);
  const checkedAgo = useAgo(push.lastValidation?.at ?? null);
  const blocked = push.permission === 'denied';
  const busy = push.tokenStatus === 'creating' || push.tokenStatus === 'validating';

  return (
    <section className="card device-push" aria-labelledby="device-push-title">
      <h2 id="device-push-title">This device</h2>
      <dl className="facts facts--flat">
        <div className="facts__row">
          <dt>Push</dt>
          <dd data-testid="push-status" aria-live="polite">
            {gate.open ? statusWords(push) : gate.reason ? GATE_WORDS[gate.reason] : 'Off'}
          </dd>
        </div>
        <div className="facts__row">
          <dt>Permission</dt>
          <dd data-testid="push-permission">{PERMISSION_WORDS[push.permission]}</dd>
        </div>
        {push.lastValidation && (
          <div className="facts__row">
            <dt>Last check</dt>
            <dd data-testid="push-last-check">
              {push.lastValidation.message}
              {push.lastValidation.rateLimited ? ' (checked moments ago)' : ''}
              <span className="muted"> · {checkedAgo}</span>
            </dd>
          </div>
        )}
      </dl>
      {blocked && gate.open && (
        <div className="device-push__blocked" role="alert">
          <p className="form-error">{push.lastError ?? 'Notifications are blocked in this browser.'}</p>
          <p className="muted">
            To get notifications here, allow them for this site in the browser's site settings (the icon left
            of the address), then come back.
          </p>
        </div>
      )}
      {!blocked && push.tokenStatus === 'failed' && push.lastError && (
        <p className="form-error" role="alert">
          {push.lastError}
        </p>
      )}
      {gate.open && (
        <div className="device-push__actions">
          {push.permission === 'default' && (
            <button
              type="button"
              className="button button--primary"
              onClick={() => dispatch(permissionRequested())}
            >
              Allow notifications
            </button>
          )}
          {push.permission === 'granted' && (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => dispatch(validationRequested())}
            >
              {busy ? 'Checking…' : 'Check this device again'}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
