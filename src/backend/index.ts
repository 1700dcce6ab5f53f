// The backend the build was configured for (QUPM_BACKEND=local|firebase), loaded lazily and once: its chunk loads
// beside the first screen's, never inside the shell. The unused adapter is dropped from the build.
import { yieldToMain } from '@/platform/browser';
import { getServiceWorkerRegistration } from '@/platform/serviceWorker';
import type { AdapterHost } from './host';
import type { Backend } from './ports';

/** The page, as the adapters may use it: the service worker's one owner answers for the registration. */
const host: AdapterHost = { serviceWorkerRegistration: getServiceWorkerRegistration };

let backend: Promise<Backend> | null = null;

export function loadBackend(): Promise<Backend> {
  backend ??= (
    __BACKEND__ === 'firebase'
      ? import(/* webpackChunkName: "backend-firebase" */ './firebase').then((m) =>
          m.createFirebaseBackend(m.readFirebaseConfigFromEnv(__FIREBASE_ENV__), host, {
            firestoreAfterFirstScreen: true,
          }),
        )
      : import(/* webpackChunkName: "backend-local" */ './local').then(async (m) => {
          // The chunk's evaluation is one task; the adapter's start and the sagas it resumes come in the next.
          await yieldToMain();
          return m.createLocalBackend({ host });
        })
  ).catch((error: unknown) => {
    // A failed load is not remembered: the next call tries again (the recovery reloads once).
    backend = null;
    throw error;
  });
  return backend;
}

export type { Backend } from './ports';
export { BackendError } from './ports';
