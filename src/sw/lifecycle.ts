// Worker lifecycle: the first worker takes control of open pages at once (so a first visit is already
// offline-ready); later versions wait until the page asks for SKIP_WAITING (the update banner's restart).
import { clientsClaim } from 'workbox-core';

export function installLifecycle(): void {
  clientsClaim();
}

export function skipWaiting(scope: ServiceWorkerGlobalScope): void {
  void scope.skipWaiting();
}
