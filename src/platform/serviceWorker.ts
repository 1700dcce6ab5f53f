// The page's one owner of the service worker: the Workbox object that registers /sw.js at
// scope / lives here, and this is the only module of the page that touches navigator.serviceWorker. The sagas
// (registration, protocol, health, update, start-up, inbox) and the push edge reach the worker through these
// functions and eventChannel factories, so saga tests provide answers here and nothing deeper. The Workbox
// instance and the registrations are kept here, never in the store.
// Only messageSW is in the shell; the Workbox class (registration and lifecycle) loads in its own chunk when the
// service-worker saga starts, which registers after the page's load event anyway.
import { messageSW } from 'workbox-window/messageSW.js';
import type { Workbox } from 'workbox-window';
import { eventChannel } from 'redux-saga';
import type { EventChannel } from 'redux-saga';
import { parseWorkerToPageMessage } from '@/protocol/messages';
import type { PageToWorkerMessage, PushMsgMessage } from '@/protocol/messages';

export type { Workbox };

export const SERVICE_WORKER_URL = '/sw.js';
export const SERVICE_WORKER_SCOPE = '/';

export class ServiceWorkerProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServiceWorkerProtocolError';
  }
}

/** The browser's worker container, or null where there is none (or reading it throws, as in some private modes). */
function serviceWorkerContainer(): ServiceWorkerContainer | null {
  try {
    return typeof navigator !== 'undefined' && 'serviceWorker' in navigator ? navigator.serviceWorker : null;
  } catch {
    return null;
  }
}

// ---- registration and lifecycle (workbox-window)

export type ServiceWorkerEvent =
  | { type: 'controlling'; isUpdate: boolean }
  | { type: 'waiting'; isUpdate: boolean }
  | { type: 'activated'; isUpdate: boolean };

let workbox: Promise<Workbox> | null = null;

export function isServiceWorkerSupported(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
}

/**
 * The page's one Workbox, once its chunk is loaded. A failed load is not remembered (the next call tries again);
 * the caller recovers a ChunkLoadError as for every lazy chunk (spec §4).
 */
export function getWorkbox(): Promise<Workbox> {
  workbox ??= import(/* webpackChunkName: "workbox" */ 'workbox-window').then(
    ({ Workbox }) => new Workbox(SERVICE_WORKER_URL, { scope: SERVICE_WORKER_SCOPE }),
    (error: unknown) => {
      workbox = null;
      throw error;
    },
  );
  return workbox;
}

export function createServiceWorkerChannel(wb: Workbox): EventChannel<ServiceWorkerEvent> {
  return eventChannel((emit) => {
    const onControlling = (e: { isUpdate?: boolean }): void =>
      emit({ type: 'controlling', isUpdate: Boolean(e.isUpdate) });
    // A worker already waiting at registration is read with hasWaitingWorker, not from this event: Workbox
    // announces it in a microtask right after register() resolves, before the saga listens again.
    const onWaiting = (e: { isUpdate?: boolean; wasWaitingBeforeRegister?: boolean }): void => {
      if (!e.wasWaitingBeforeRegister) emit({ type: 'waiting', isUpdate: Boolean(e.isUpdate) });
    };
    const onActivated = (e: { isUpdate?: boolean }): void =>
      emit({ type: 'activated', isUpdate: Boolean(e.isUpdate) });
    wb.addEventListener('controlling', onControlling);
    wb.addEventListener('waiting', onWaiting);
    wb.addEventListener('activated', onActivated);
    return () => {
      wb.removeEventListener('controlling', onControlling);
      wb.removeEventListener('waiting', onWaiting);
      wb.removeEventListener('activated', onActivated);
    };
  });
}

/** Registers the worker (workbox-window waits for the page's load event so it never competes with it). */
export async function registerServiceWorker(wb: Workbox): Promise<void> {
  const registration = await wb.register();
  if (!registration) throw new Error('The service worker could not be registered');
}

export function isPageControlled(): boolean {
  return (serviceWorkerContainer()?.controller ?? null) !== null;
}

/** The registration that controls this page's scope, or null (none yet, or no service workers here). */
export async function getServiceWorkerRegistration(): Promise<ServiceWorkerRegistration | null> {
  return (await serviceWorkerContainer()?.getRegistration()) ?? null;
}

/**
 * The registration once it has an active worker. Where there is none it never settles: callers bound the wait
 * (the protocol's 5 s, the push provider's timeout).
 */
export function readyServiceWorkerRegistration(): Promise<ServiceWorkerRegistration> {
  const container = serviceWorkerContainer();
  if (!container) return Promise.reject(new ServiceWorkerProtocolError('Service workers are not available'));
  return container.ready;
}

// ---- messages (the protocol of src/protocol)

/** Sends a message to the worker that controls this scope and resolves with its raw answer (a MessageChannel). */
export async function postToActiveWorker(message: PageToWorkerMessage): Promise<unknown> {
  // `ready` waits for an active worker; with none registered it never settles, which the caller's race bounds.
  const registration = await readyServiceWorkerRegistration();
  const worker = registration.active;
  if (!worker) throw new ServiceWorkerProtocolError('No active service worker');
  return messageSW(worker, message);
}

/** Posts a message that expects no answer to the active worker (foregroundHandled). */
export async function postToWorker(message: PageToWorkerMessage): Promise<void> {
  const container = serviceWorkerContainer();
  if (!container) return;
  const registration = await container.ready;
  registration.active?.postMessage(message);
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

// ---- restarts and updates

/**
 * A worker restart the app triggers: a page cannot stop a worker, so it asks the browser to fetch the worker's
 * script again (a changed script installs a fresh worker; the next message starts a stopped one anew).
 */
export async function restartServiceWorker(): Promise<void> {
  const registration = await getServiceWorkerRegistration();
  if (!registration) throw new Error('No service worker is registered');
  await registration.update();
}

/** Asks the browser whether a new version of the worker is deployed (a new one then installs and waits). */
export async function checkForNewVersion(): Promise<void> {
  const registration = await getServiceWorkerRegistration();
  await registration?.update();
}

/**
 * Whether a new version of the worker is installed and waits. Read after registering: a worker that was already
 * waiting when the page loaded (an update found before a reload) fires no new lifecycle event the page can catch.
 */
export async function hasWaitingWorker(): Promise<boolean> {
  const registration = await getServiceWorkerRegistration();
  return (registration?.waiting ?? null) !== null;
}

/** Tells the waiting worker to take over (SKIP_WAITING); false when no worker waits. */
export async function activateWaitingWorker(): Promise<boolean> {
  const registration = await getServiceWorkerRegistration();
  const waiting = registration?.waiting;
  if (!waiting) return false;
  const message: PageToWorkerMessage = { type: 'SKIP_WAITING' };
  waiting.postMessage(message);
  return true;
}

// ---- legacy workers (spec §4)

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
