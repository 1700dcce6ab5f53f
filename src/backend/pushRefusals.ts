// A browser's refusal of a push subscription that no retry can change, recognised once for both adapters (the
// embedded server's Web Push in local/webPush.ts, Firebase Cloud Messaging in firebase/messaging.ts): Chromium
// refuses push in private windows with an AbortError saying "permission denied" although the permission is
// granted, from PushManager.subscribe, which FCM's getToken calls and lets through unchanged. Each adapter turns it
// into the same BackendError, and the push saga stops setup on its reason with its own words.
import { BackendError } from './ports';

export const PUSH_REFUSED_IN_WINDOW_MESSAGE = 'This browser window refuses push subscriptions';

/** The BackendError a window's refusal stands for, or null when `error` is something else. */
export function windowRefusalOf(error: unknown): BackendError | null {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  if (name !== 'AbortError' || typeof message !== 'string' || !/permission denied/i.test(message))
    return null;
  return new BackendError('FAILED_PRECONDITION', PUSH_REFUSED_IN_WINDOW_MESSAGE, 'push-refused-in-window');
}
