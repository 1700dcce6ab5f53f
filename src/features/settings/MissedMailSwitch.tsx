// Settings → Notifications: "Email me about messages I miss", the 'email' delivery channel.
// A switch that saves at once: one email per channel when a message waits unread for 10 minutes (at most one an
// hour, none for a muted channel). Off by default; every email also carries a one-click unsubscribe.
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { hasDeliveryChannel, withDeliveryChannel } from '@core/delivery';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@core/model';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectNotificationSettings } from '@/store/userSlice';
import { emailVerificationRequested, selectEmailVerification } from '@/store/emailLinksSlice';
import { notificationsSaveRequested, selectNotificationsSave } from './settingsSlice';

export function MissedMailSwitch() {
  const dispatch = useAppDispatch();
  const stored = useAppSelector(selectNotificationSettings) ?? DEFAULT_NOTIFICATION_SETTINGS;
  const save = useAppSelector(selectNotificationsSave);
  // Whether the last save was this switch's (the notification form shares the save's state).
  const [saving, setSaving] = useState(false);
  const id = useId();
  const hintId = useId();
  const on = hasDeliveryChannel(stored, 'email');
  // Email goes only to a confirmed address: say where it goes, or what is missing.
  const address = useAppSelector(selectEmailVerification);
  useEffect(() => {
    dispatch(emailVerificationRequested());
  }, [dispatch]);

  const toggle = (next: boolean): void => {
    setSaving(true);
    dispatch(notificationsSaveRequested({ settings: withDeliveryChannel(stored, 'email', next) }));
  };

  return (
    <section className="card device-push" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Email</h2>
      <div className="check">
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={on}
          disabled={!stored.enabled || (saving && save.status === 'saving')}
          aria-labelledby={`${id}-label`}
          aria-describedby={hintId}
          onChange={(e) => toggle(e.target.checked)}
        />
        <label htmlFor={id}>
          <span className="check__label" id={`${id}-label`}>
            Email me about messages I miss
          </span>
          <span className="check__hint" id={hintId}>
            {stored.enabled
              ? 'One email per channel when a message waits unread for 10 minutes, at most one an hour. Never for a channel you muted.'
              : 'Turn on "Notify me" above first.'}
          </span>
        </label>
      </div>
      {on && address.status === 'loaded' && (
        <p className="check__hint">
          {address.verified ? (
            <>
              Emails go to <strong>{address.email}</strong>.
            </>
          ) : (
            <>
              Nothing is sent until you confirm <strong>{address.email}</strong> in{' '}
              <Link to="/settings/profile">Settings → Profile</Link>.
            </>
          )}
        </p>
      )}
      <p className="settings-form__status" role="status">
        {saving && save.status === 'saved' && (
          <span className="form-success">{on ? 'Emails are on.' : 'Emails are off.'}</span>
        )}
      </p>
      {saving && save.status === 'failed' && save.error && (
        <p className="form-error" role="alert">
          {save.error}
        </p>
      )}
    </section>
  );
}
