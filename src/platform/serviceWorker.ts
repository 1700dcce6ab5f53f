// The browser edge of the service worker: workbox-window registers /sw.js at scope / and its events become an
// eventChannel. The Workbox instance is kept here, never in the store.
import { Workbox } from 'workbox-window';
import { eventChannel } from 'redux-saga';
import type { EventChannel } from 'redux-saga';

export const SERVICE_WORKER_URL = '/sw.js';
export const SERVICE_WORKER_SCOPE = '/';

export type ServiceWorkerEvent =
  | { type: 'controlling'; isUpdate: boolean }
  | { type: 'waiting'; isUpdate: boolean }
  | { type: 'activated'; isUpdate: boolean };

let workbox: Workbox | null = null;

export function isServiceWorkerSupported(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
}

export function getWorkbox(): Workbox {
  workbox ??= new Workbox(SERVICE_WORKER_URL, { scope: SERVICE_WORKER_SCOPE });
  return workbox;
}

export function createServiceWorkerChannel(wb: Workbox): EventChannel<ServiceWorkerEvent> {
  return eventChannel((emit) => {
    const onControlling = (e: { isUpdate?: boolean }): void =>
      emit({ type: 'controlling', isUpdate: Boolean(e.isUpdate) });
    const onWaiting = (e: { isUpdate?: boolean }): void =>
      emit({ type: 'waiting', isUpdate: Boolean(e.isUpdate) });
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
  return isServiceWorkerSupported() && navigator.serviceWorker.controller !== null;
}
