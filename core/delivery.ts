// Whether a person wants a kind of delivery (spec §5; docs/decisions/push.md): their
// notifications are enabled and the kind is among their delivery channels. Written once for the backends (who
// gets a push), the client's push gate (whether this device keeps a token) and its inbox (whether an open page
// shows a notice). A channel the person muted (core/mutes.ts) sends them neither, until the mute ends.
import type { DeliveryChannel } from './limits';
import type { NotificationSettings } from './model';
import { isMuted } from './mutes';

/** Notifications enabled, with `channel` among the delivery channels. No settings: nothing is wanted. */
export function wantsDelivery(
  settings: NotificationSettings | null | undefined,
  channel: DeliveryChannel,
): boolean {
  return settings?.enabled === true && settings.delivery.channels.includes(channel);
}

/** spec §5: push is for users whose notifications are enabled with 'push' among the delivery channels. */
export function wantsPush(settings: NotificationSettings | null | undefined): boolean {
  return wantsDelivery(settings, 'push');
}

/** Notices inside an open QuPM window: notifications enabled with 'in_app' among the delivery channels. */
export function wantsInApp(settings: NotificationSettings | null | undefined): boolean {
  return wantsDelivery(settings, 'in_app');
}

/** Push for a message of a channel: push wanted, and the channel not muted for the person at `at`. */
export function wantsPushFrom(
  settings: NotificationSettings | null | undefined,
  mutedUntil: number | null | undefined,
  at: number,
): boolean {
  return wantsPush(settings) && !isMuted(mutedUntil, at);
}

/** An in-app notice for a message of a channel: in-app wanted, and the channel not muted at `at`. */
export function wantsInAppFrom(
  settings: NotificationSettings | null | undefined,
  mutedUntil: number | null | undefined,
  at: number,
): boolean {
  return wantsInApp(settings) && !isMuted(mutedUntil, at);
}

/** Whether `channel` is among the chosen delivery channels (whether or not notifications are on). */
export function hasDeliveryChannel(
  settings: NotificationSettings | null | undefined,
  channel: DeliveryChannel,
): boolean {
  return settings?.delivery.channels.includes(channel) === true;
}

/** The settings with `channel` chosen (`on`) or not; everything else as it was, the order kept. */
export function withDeliveryChannel(
  settings: NotificationSettings,
  channel: DeliveryChannel,
  on: boolean,
): NotificationSettings {
  const others = settings.delivery.channels.filter((c) => c !== channel);
  return { ...settings, delivery: { channels: on ? [...others, channel] : others } };
}
