// Settings → Notifications → "This device": where push stands on this device (support, permission, token
// status, the last validation) in words for people (src/ui/pushWords.ts; spec §8's own words stay in the state
// and the iOS debug menu), with the one action that fits: allow notifications (from this click: spec §4, iOS
// requires a user gesture) or check the token again. A blocked permission shows the provider's own message
// (spec §8) beside the app's words on how to allow notifications in this browser.
import { useEffect, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { permissionRequested, selectPush, selectPushGate, validationRequested } from '@/store/pushSlice';
import type { PermissionState, PushGateReason, PushState } from '@/store/pushSlice';
import { browserFamily } from '@/platform';
import type { BrowserFamily } from '@/platform';
import { BLOCKED_HEADLINE, UNBLOCK_STEPS, pushFailureWords, validationWords } from '@/ui/pushWords';
import '../../ui/facts.css';
import { formatFullTime } from '@/ui/time';

/** spec §8: unsupported-browser and indexed-db-unsupported stop messaging setup; each gate reason in words. */
export const GATE_WORDS: Record<PushGateReason, string> = {
  notMounted: 'Starting…',
  signedOut: 'Sign in to get notifications on this device.',
  unsupported: "This browser doesn't support the APIs push notifications need.",
  noIndexedDb:
    "This browser doesn't give QuPM IndexedDB (a private window, or storage is blocked), so push can't work here.",
  refusedByBrowser:
    "The push service doesn't support this browser, so QuPM can't set up push notifications here. You still see new messages while QuPM is open.",
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
  return formatFullTime(at);
}

/**
 * A blocked permission: the app's sentence, the provider's own message beside it (spec §8), and how to allow
 * notifications in this browser, with the other browsers one click away.
 */
export function UnblockHelp({
  providerMessage,
  family,
}: {
  providerMessage: string | null;
  family: BrowserFamily;
}) {
  const here = UNBLOCK_STEPS[family];
  const others = (Object.keys(UNBLOCK_STEPS) as BrowserFamily[]).filter((f) => f !== family && f !== 'other');
  return (
    <div className="device-push__blocked">
      <p className="form-error" role="alert">
        {BLOCKED_HEADLINE}
      </p>
      {providerMessage && (
        <p className="muted device-push__provider">
          The browser’s own message: <q data-testid="push-provider-message">{providerMessage}</q>
        </p>
      )}
      <p>To allow them in {here.where}:</p>
      <ol className="device-push__steps" data-testid="push-unblock-steps">
        {here.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <details className="device-push__others">
        <summary>Using another browser?</summary>
        <dl>
          {others.map((f) => (
            <div key={f}>
              <dt>{UNBLOCK_STEPS[f].where}</dt>
              <dd>{UNBLOCK_STEPS[f].steps.join(' ')}</dd>
            </div>
          ))}
        </dl>
      </details>
    </div>
  );
}

export function ThisDevicePush() {
  const dispatch = useAppDispatch();
  const push = useAppSelector(selectPush);
  const gate = useAppSelector(selectPushGate);
  const checkedAgo = useAgo(push.lastValidation?.at ?? null);
  const blocked = push.permission === 'denied';
  const busy = push.tokenStatus === 'creating' || push.tokenStatus === 'validating';
  const [family] = useState(browserFamily);

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
              {validationWords(push.lastValidation.message)}
              {push.lastValidation.rateLimited ? ' (checked moments ago)' : ''}
              <span className="muted"> · {checkedAgo}</span>
            </dd>
          </div>
        )}
      </dl>
      {blocked && gate.open && <UnblockHelp providerMessage={push.lastError} family={family} />}
      {!blocked && push.tokenStatus === 'failed' && (
        <p className="form-error" role="alert" data-testid="push-failure">
          {pushFailureWords(push.lastError)}
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
