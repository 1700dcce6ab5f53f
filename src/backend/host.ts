// The page around an adapter: what an adapter may use of it is handed over when the adapter is created
// (src/backend/index.ts), so no adapter reaches for the page's service worker itself (its one owner is
// src/platform/serviceWorker.ts).

export interface AdapterHost {
  /** The app's own service-worker registration (the one controlling this page's scope), or null. */
  serviceWorkerRegistration(): Promise<ServiceWorkerRegistration | null>;
}

/** A host with no service worker: what an adapter assumes when it is given none (tests, scripts). */
export const NO_HOST: AdapterHost = { serviceWorkerRegistration: async () => null };
