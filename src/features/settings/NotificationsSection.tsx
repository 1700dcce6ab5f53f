// Settings → Notifications: whether QuPM notifies this person, and how (stored in notificationSettings).
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { hasDeliveryChannel, withDeliveryChannel } from '@core/delivery';
import type { DeliveryChannel } from '@core/limits';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@core/model';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectNotificationSettings } from '@/store/userSlice';
import { notificationsSaveRequested, selectNotificationsSave } from './settingsSlice';
import { SaveActions } from './SaveActions';
import { ThisDevicePush } from './ThisDevicePush';

/** The channels this form offers; 'email' has its own switch (MissedMailSwitch.tsx). */
type FormChannel = Exclude<DeliveryChannel, 'email'>;

const CHANNEL_LABELS: Record<FormChannel, { label: string; hint: string }> = {
  push: {
    label: 'Push notifications',
    hint: 'System notifications on the devices you allow, even when QuPM is closed.',
  },
  in_app: { label: 'In-app notices', hint: 'A notice inside QuPM while you have it open.' },
};

/**
 * The form starts from the settings it is given when it mounts; while they are the device's last known copy (the
 * backend has not answered yet: `asOf` set), the backend's answer mounts it again, so a save just made is what it
 * shows after a reload, never the copy from before it.
 */
export function NotificationsSection() {
  const kept = useAppSelector((state) => state.user.asOf !== undefined);
  return <NotificationsForm key={kept ? 'kept' : 'live'} />;
}

function NotificationsForm() {
  const dispatch = useAppDispatch();
  const stored = useAppSelector(selectNotificationSettings) ?? DEFAULT_NOTIFICATION_SETTINGS;
  const save = useAppSelector(selectNotificationsSave);
  const [enabled, setEnabled] = useState(stored.enabled);
  const [channels, setChannels] = useState<DeliveryChannel[]>(stored.delivery.channels);
  const ids = { enabled: useId(), push: useId(), in_app: useId() };

  const toggle = (channel: DeliveryChannel, on: boolean): void =>
    setChannels((list) => (on ? [...new Set([...list, channel])] : list.filter((c) => c !== channel)));

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    // The email switch saves on its own: whatever it holds now is kept, never this form's copy from its mount.
    const email = hasDeliveryChannel(stored, 'email');
    const settings = withDeliveryChannel({ enabled, delivery: { channels } }, 'email', email);
    dispatch(notificationsSaveRequested({ settings }));
  };

  return (
    <>
      <ThisDevicePush />
      <form className="settings-form card" onSubmit={submit} aria-label="Notification settings">
        <div className="check">
          <input
            id={ids.enabled}
            type="checkbox"
            checked={enabled}
            onChange={(e) => setEnabled(e.target.checked)}
          />
          <label htmlFor={ids.enabled}>
            <span className="check__label">Notify me</span>
            <span className="check__hint">New messages and offers from your channels.</span>
          </label>
        </div>
        <fieldset className="settings-form__group" disabled={!enabled}>
          <legend>How</legend>
          {(Object.keys(CHANNEL_LABELS) as FormChannel[]).map((channel) => (
            <div className="check" key={channel}>
              <input
                id={ids[channel]}
                type="checkbox"
                checked={channels.includes(channel)}
                onChange={(e) => toggle(channel, e.target.checked)}
              />
              <label htmlFor={ids[channel]}>
                <span className="check__label">{CHANNEL_LABELS[channel].label}</span>
                <span className="check__hint">{CHANNEL_LABELS[channel].hint}</span>
              </label>
            </div>
          ))}
        </fieldset>
        <SaveActions save={save} />
      </form>
    </>
  );
}
