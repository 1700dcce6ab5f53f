// Offline shell: precache the build (shell, every route chunk, icons, manifest) and answer every navigation
// with the precached index.html, so any route of the app reloads offline.
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import type { PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

/** Paths the shell must never answer: the backend's API and its live stream. */
export const NAVIGATION_DENYLIST = [/^\/api(\/|$)/];

export function installPrecache(manifest: Array<PrecacheEntry | string>): void {
  precacheAndRoute(manifest);
  cleanupOutdatedCaches();
  registerRoute(
    new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: NAVIGATION_DENYLIST }),
  );
}
