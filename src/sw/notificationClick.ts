// A click on a notification: focus an open window of the app (taking it to the message's path) or open one there.
// Only paths of this origin are ever opened (QUALITY.md), whatever a notification's data says.
import { sameOriginPath } from './push';
import type { NotificationLike, WorkerScope } from './scope';

export type ClickOutcome = 'focused' | 'opened';

export function clickTarget(data: unknown, origin: string): string {
  const path = typeof data === 'object' && data !== null ? (data as { path?: unknown }).path : undefined;
  return new URL(sameOriginPath(path, origin) ?? '/', origin).href;
}

export async function handleNotificationClick(
  scope: WorkerScope,
  notification: NotificationLike,
): Promise<ClickOutcome> {
  notification.close();
  const url = clickTarget(notification.data, scope.location.origin);
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const target = windows.find((client) => client.url === url) ?? windows[0];
  if (target) {
    // focus() first: it needs the click's user activation, which a navigation would outlive.
    await target.focus().catch(() => undefined);
    if (target.url !== url) await target.navigate(url).catch(() => undefined);
    return 'focused';
  }
  await scope.clients.openWindow(url);
  return 'opened';
}
