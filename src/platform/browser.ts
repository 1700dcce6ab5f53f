// The browser edge of the service-worker, update, recovery and inbox sagas: every global they touch, behind small
// functions and eventChannel factories the sagas `call`, so saga tests provide answers here and nothing deeper.
import { eventChannel } from 'redux-saga';
import type { EventChannel } from 'redux-saga';
import { parseWorkerToPageMessage } from '@/protocol/messages';
import type { PageToWorkerMessage, PushMsgMessage } from '@/protocol/messages';

/** The clock, as an effect (STYLE.md 7: time only through effects). */
export function now(): number {
  return Date.now();
}

function serviceWorkerContainer(): ServiceWorkerContainer | null {
  try {
    return typeof navigator !== 'undefined' && 'serviceWorker' in navigator ? navigator.serviceWorker : null;
  } catch {
    return null;
  }
}

export type WorkerMessageEvent = { kind: 'push'; message: PushMsgMessage } | { kind: 'ignored' };

/**
 * Messages the worker posts to this page (not replies, which travel over their own MessageChannel): PUSH_MSG is
 * emitted, anything malformed or unknown is emitted as 'ignored' so it is counted. Answers the channel of a page
 * without service workers with nothing.
 */
export function createWorkerMessageChannel(): EventChannel<WorkerMessageEvent> {
  return eventChannel((emit) => {
    const container = serviceWorkerContainer();
    if (!container) return () => undefined;
    const onMessage = (event: MessageEvent): void => {
      const message = parseWorkerToPageMessage(event.data);
      if (message === null) emit({ kind: 'ignored' });
      else if (message.type === 'PUSH_MSG') emit({ kind: 'push', message });
    };
    container.addEventListener('message', onMessage);
    // Messages sent before the page listened wait in the client's queue until it is started.
    container.startMessages();
    return () => container.removeEventListener('message', onMessage);
  });
}

export type WorkerLifecycleEvent = { type: 'controllerchange' } | { type: 'messageerror' };

/** Controller changes and undeliverable messages, for the health counts. */
export function createWorkerLifecycleChannel(): EventChannel<WorkerLifecycleEvent> {
  return eventChannel((emit) => {
    const container = serviceWorkerContainer();
    if (!container) return () => undefined;
    const onControllerChange = (): void => emit({ type: 'controllerchange' });
    const onMessageError = (): void => emit({ type: 'messageerror' });
    container.addEventListener('controllerchange', onControllerChange);
    container.addEventListener('messageerror', onMessageError);
    return () => {
      container.removeEventListener('controllerchange', onControllerChange);
      container.removeEventListener('messageerror', onMessageError);
    };
  });
}

/** Posts a message that expects no answer to the active worker (foregroundHandled). */
export async function postToWorker(message: PageToWorkerMessage): Promise<void> {
  const container = serviceWorkerContainer();
  if (!container) return;
  const registration = await container.ready;
  registration.active?.postMessage(message);
}

/**
 * A worker restart the app triggers: a page cannot stop a worker, so it asks the browser to fetch the worker's
 * script again (a changed script installs a fresh worker; the next message starts a stopped one anew).
 */
export async function restartServiceWorker(): Promise<void> {
  const container = serviceWorkerContainer();
  const registration = await container?.getRegistration();
  if (!registration) throw new Error('No service worker is registered');
  await registration.update();
}

/** Asks the browser whether a new version of the worker is deployed (a new one then installs and waits). */
export async function checkForNewVersion(): Promise<void> {
  const registration = await serviceWorkerContainer()?.getRegistration();
  await registration?.update();
}

/** Tells the waiting worker to take over (SKIP_WAITING); false when no worker waits. */
export async function activateWaitingWorker(): Promise<boolean> {
  const registration = await serviceWorkerContainer()?.getRegistration();
  const waiting = registration?.waiting;
  if (!waiting) return false;
  const message: PageToWorkerMessage = { type: 'SKIP_WAITING' };
  waiting.postMessage(message);
  return true;
}

// spec §4: the workers an older build (or the Firebase SDK's default) registered for messaging.
const LEGACY_SCRIPT_SUFFIX = '/firebase-messaging-sw.js';
const LEGACY_SCOPE_PART = '/firebase-cloud-messaging-push-scope';

/** Whether a registration belongs to a legacy messaging worker (spec §4). */
export function isLegacyMessagingWorker(scope: string, scriptUrls: Array<string | undefined>): boolean {
  if (scope.includes(LEGACY_SCOPE_PART)) return true;
  return scriptUrls.some((url) => {
    if (!url) return false;
    try {
      return new URL(url).pathname.endsWith(LEGACY_SCRIPT_SUFFIX);
    } catch {
      return url.endsWith(LEGACY_SCRIPT_SUFFIX);
    }
  });
}

export interface LegacyCleanup {
  removed: string[];
  failed: Array<{ scope: string; error: string }>;
}

/** Unregisters every legacy messaging worker; a failure is reported, never thrown (spec §4: only a warning). */
export async function unregisterLegacyWorkers(): Promise<LegacyCleanup> {
  const container = serviceWorkerContainer();
  const result: LegacyCleanup = { removed: [], failed: [] };
  if (!container) return result;
  const registrations = await container.getRegistrations();
  for (const registration of registrations) {
    const scripts = [registration.active, registration.waiting, registration.installing].map(
      (w) => w?.scriptURL,
    );
    if (!isLegacyMessagingWorker(registration.scope, scripts)) continue;
    try {
      if (await registration.unregister()) result.removed.push(registration.scope);
      else result.failed.push({ scope: registration.scope, error: 'The browser refused to unregister it' });
    } catch (error) {
      result.failed.push({
        scope: registration.scope,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return result;
}

/** Deletes every Cache Storage cache of this origin (the precache repairs itself from the network). */
export async function clearAllCaches(): Promise<void> {
  if (typeof caches === 'undefined') return;
  const names = await caches.keys();
  await Promise.all(names.map((name) => caches.delete(name)));
}

export function reloadPage(): void {
  window.location.reload();
}

/** spec §5: a count above 0 sets the app badge, otherwise it clears it. Where badges are missing, nothing. */
export async function applyAppBadge(count: number): Promise<void> {
  try {
    const nav = navigator as Navigator & {
      setAppBadge?: (count?: number) => Promise<void>;
      clearAppBadge?: () => Promise<void>;
    };
    if (count > 0) await nav.setAppBadge?.(count);
    else await nav.clearAppBadge?.();
  } catch {
    // The Badging API refuses outside an installed app in some browsers: the badge is only a hint.
  }
}

/** The browser's own dialogs, which the iOS debug menu uses (spec §2: "opens a prompt"). */
export interface Dialogs {
  prompt(text: string): string | null;
  alert(text: string): void;
}

export const browserDialogs: Dialogs = {
  prompt: (text) => window.prompt(text),
  alert: (text) => window.alert(text),
};
