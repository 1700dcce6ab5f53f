// Push in the worker (spec §5): every push shows something — a push without the app's shape gets
// a generic notification, never silence (WebKit revokes silent subscriptions, Chromium shows its own "updated in
// the background" notice). A message is delivered once per id: every open window gets PUSH_MSG (unread counts,
// badge), at most one focused window is asked to present it in-app, and when that page answers foregroundHandled
// the worker shows nothing; otherwise one system notification tagged with the message id.
import { channelPath } from '../../core/paths';
import { parsePushPayload } from '../protocol/messages';
import type { PushMsgMessage, PushPayload, WorkerPushCounts } from '../protocol/messages';
import type { ForegroundWaits } from './foreground';
import { mustShowEveryPush } from './platform';
import type { SeenMessages } from './seen';
import type { WorkerScope } from './scope';

/** What a push without the app's shape shows (an empty push, a foreign or garbled payload). */
export const GENERIC_NOTIFICATION = { title: 'QuPM', body: 'You have something new in QuPM.' } as const;
/** One tag for every generic notification, so a burst of them leaves one on screen. */
export const GENERIC_TAG = 'qupm-generic';
export const NOTIFICATION_ICON = '/icons/icon-192.png';
const MAX_PATH_LENGTH = 2_000;

export type PushOutcome = 'generic' | 'duplicate' | 'shown' | 'handledInForeground';

/** spec §5: a raw push (without the app's shape) is ignored for routing and counted as `generic`. */
export type PushCounters = WorkerPushCounts;

export function createPushCounters(): PushCounters {
  return { shown: 0, inApp: 0, generic: 0, duplicates: 0 };
}

export interface PushDeps {
  scope: WorkerScope;
  seen: SeenMessages;
  foreground: ForegroundWaits;
  counters: PushCounters;
  /** How long the chosen page has to answer foregroundHandled. */
  foregroundWaitMs: number;
}

/** The pushed text as JSON, or null for an empty push or text that is not JSON. */
export function parsePushText(text: string | null): unknown {
  if (text === null || text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** `candidate` as a path of this origin (path, query, hash), or null for anything else (QUALITY.md). */
export function sameOriginPath(candidate: unknown, origin: string): string | null {
  if (typeof candidate !== 'string' || candidate === '' || candidate.length > MAX_PATH_LENGTH) return null;
  try {
    const url = new URL(candidate, origin);
    if (url.origin !== origin) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/**
 * Where a click on the message leads: its `url` when that is a path of this origin, else its channel on the home
 * screen (`/?channel=…`, read by the channel screen), else home.
 */
export function messagePath(payload: PushPayload, origin: string): string {
  const fromUrl = sameOriginPath(payload.data.url, origin);
  if (fromUrl !== null) return fromUrl;
  const channelId = payload.data.channelId;
  return channelId ? channelPath(channelId) : '/';
}

/** spec §5: a count above 0 sets the app badge, otherwise it clears it. Where badges are missing, nothing. */
export async function applyBadge(navigator: WorkerScope['navigator'], count: number): Promise<void> {
  try {
    if (count > 0) await navigator.setAppBadge?.(count);
    else await navigator.clearAppBadge?.();
  } catch {
    // The Badging API refuses in some contexts (not installed, no permission): the count is only a hint.
  }
}

async function show(scope: WorkerScope, title: string, options: NotificationOptions): Promise<void> {
  try {
    await scope.registration.showNotification(title, { icon: NOTIFICATION_ICON, ...options });
  } catch (error) {
    // Only without notification permission; nothing else can be shown then.
    console.warn('QuPM could not show a notification', error);
  }
}

export function showGeneric(scope: WorkerScope): Promise<void> {
  return show(scope, GENERIC_NOTIFICATION.title, {
    body: GENERIC_NOTIFICATION.body,
    tag: GENERIC_TAG,
    data: { path: '/' },
  });
}

export function showMessage(scope: WorkerScope, payload: PushPayload): Promise<void> {
  return show(scope, payload.notification.title || GENERIC_NOTIFICATION.title, {
    body: payload.notification.body,
    tag: payload.messageId,
    data: { messageId: payload.messageId, path: messagePath(payload, scope.location.origin) },
  });
}

function post(client: { postMessage(message: unknown): void }, message: PushMsgMessage): void {
  try {
    client.postMessage(message);
  } catch {
    // A window that is closing: it has nothing to show it in.
  }
}

/** Handles one push event's text (null for a push without data). */
export async function handlePush(deps: PushDeps, text: string | null): Promise<PushOutcome> {
  const { scope } = deps;
  const payload = parsePushPayload(parsePushText(text));
  if (payload === null) {
    await showGeneric(scope);
    deps.counters.generic += 1;
    return 'generic';
  }
  const showAlways = mustShowEveryPush(scope.navigator.userAgent);
  if (await deps.seen.checkAndRecord(payload.messageId)) {
    deps.counters.duplicates += 1;
    // WebKit counts a push that shows nothing against the subscription: show it again under its own tag, which
    // replaces the notification already there instead of adding a second one.
    if (showAlways) await showMessage(scope, payload);
    return 'duplicate';
  }
  await applyBadge(scope.navigator, payload.data.badge_count);
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
  // matchAll lists windows most recently focused first; only one of them ever presents the message.
  const presenter = showAlways
    ? undefined
    : windows.find((client) => client.focused && client.visibilityState === 'visible');
  // The wait starts before the message goes out, so an answer can never arrive before it is awaited.
  const handled = presenter ? deps.foreground.wait(payload.messageId, deps.foregroundWaitMs) : null;
  for (const client of windows) {
    post(client, { type: 'PUSH_MSG', messageId: payload.messageId, payload, present: client === presenter });
  }
  if (handled && (await handled)) {
    deps.counters.inApp += 1;
    return 'handledInForeground';
  }
  await showMessage(scope, payload);
  deps.counters.shown += 1;
  return 'shown';
}
