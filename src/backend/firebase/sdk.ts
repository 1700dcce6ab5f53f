// The SDK, initialised lazily and once. firebase/app and firebase/auth are static imports of this (itself lazily
// loaded) adapter: auth is needed at start to restore the session. Firestore, Functions and Messaging load with
// import() when a port first needs them, each into its own chunk, and each promise is kept so that concurrent
// first calls share one import and one instance; a failed load is forgotten so that the next call retries.
import { deleteApp, initializeApp } from 'firebase/app';
import type { FirebaseApp } from 'firebase/app';
import {
  browserLocalPersistence,
  connectAuthEmulator,
  inMemoryPersistence,
  indexedDBLocalPersistence,
  initializeAuth,
} from 'firebase/auth';
import type { Auth } from 'firebase/auth';
import type * as FirestoreSdk from './firestoreSdk';
import type * as FunctionsSdk from 'firebase/functions';
import type * as MessagingSdk from 'firebase/messaging';
import type * as StorageSdk from 'firebase/storage';
import { isChunkLoadError, reportChunkLoadFailure } from '@/platform/chunks';
import { BackendError } from '../ports';
import type { FirebaseConfig } from './config';
import { DEFAULT_FUNCTIONS_REGION } from './config';
import { SIGN_IN_MESSAGE, toBackendError } from './errors';

export interface LoadedFirestore {
  sdk: typeof FirestoreSdk;
  db: FirestoreSdk.Firestore;
}
export interface LoadedFunctions {
  sdk: typeof FunctionsSdk;
  functions: FunctionsSdk.Functions;
}
export interface LoadedStorage {
  sdk: typeof StorageSdk;
  storage: StorageSdk.FirebaseStorage;
}
/** `messaging` is null where the browser cannot do web push (isSupported() answered false). */
export interface LoadedMessaging {
  sdk: typeof MessagingSdk;
  messaging: MessagingSdk.Messaging | null;
}

export interface FirebaseSdk {
  readonly config: FirebaseConfig;
  auth(): Auth;
  /** The signed-in user's uid; throws UNAUTHENTICATED when nobody is signed in. */
  requireUid(): string;
  firestore(): Promise<LoadedFirestore>;
  functions(): Promise<LoadedFunctions>;
  messaging(): Promise<LoadedMessaging>;
  /** Cloud Storage, for attachments: loaded the first time a file is sent or opened. */
  storage(): Promise<LoadedStorage>;
  /**
   * Another app of the same project, whose session lives in memory only, for work that must not sign this one
   * in or out: a sign-up (Firebase Auth signs a new account in where it creates it, and a sign-up signs nobody in
   * here, as on the embedded server). dispose() deletes it.
   */
  detached(): DetachedSdk;
}

export interface DetachedSdk extends FirebaseSdk {
  dispose(): Promise<void>;
}

/**
 * One memoised load; a rejection clears the memo (a chunk that failed offline loads once back online). A chunk
 * that failed to load is also reported, so the spec's chunk recovery runs (§4): a page whose
 * build was replaced cannot fetch the SDK's chunks by retrying, only by reloading.
 */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = null;
      if (isChunkLoadError(error)) reportChunkLoadFailure();
      throw toBackendError(error);
    });
    return pending;
  };
}

/** One backend instance's own Firebase app. */
export interface FirebaseInstance {
  /**
   * The app's name, where several backends live in one process (two people signed in at once, in a test). The
   * page has one backend and leaves it out: the default app, whose name keys the session the SDK keeps across
   * reloads.
   */
  appName?: string;
  /** Where the session is kept: the browser's storage (the default), or memory only (a detached app). */
  persistence?: 'browser' | 'memory';
}

/** Names the detached apps of a page apart. */
let detachedApps = 0;

export function createFirebaseSdk(config: FirebaseConfig, instance: FirebaseInstance = {}): FirebaseSdk {
  return buildSdk(config, instance).sdk;
}

/** The SDK of one app, and that app once a port made it. */
function buildSdk(
  config: FirebaseConfig,
  instance: FirebaseInstance,
): { sdk: FirebaseSdk; madeApp(): FirebaseApp | null } {
  let app: FirebaseApp | null = null;
  let auth: Auth | null = null;
  const emulators = config.emulators ?? {};

  const getApp = (): FirebaseApp => {
    const options = {
      apiKey: config.apiKey,
      authDomain: config.authDomain,
      projectId: config.projectId,
      appId: config.appId,
      messagingSenderId: config.messagingSenderId,
      ...(config.storageBucket ? { storageBucket: config.storageBucket } : {}),
    };
    app ??=
      instance.appName === undefined ? initializeApp(options) : initializeApp(options, instance.appName);
    return app;
  };

  const getAuth = (): Auth => {
    if (auth) return auth;
    // No popupRedirectResolver: QuPM signs in with email and password only, and the resolver is a large part
    // of the auth bundle. IndexedDB first (shared with workers), localStorage where IndexedDB is unavailable.
    auth = initializeAuth(getApp(), {
      persistence:
        instance.persistence === 'memory'
          ? inMemoryPersistence
          : [indexedDBLocalPersistence, browserLocalPersistence],
    });
    // Before anything else reaches Auth. The SDK's console warning and page banner are for people trying
    // emulators by hand; tests and the local Firebase run know where they are.
    if (emulators.auth) {
      connectAuthEmulator(auth, `http://${emulators.auth.host}:${emulators.auth.port}`, {
        disableWarnings: true,
      });
    }
    return auth;
  };

  const sdk: FirebaseSdk = {
    config,
    auth: getAuth,
    requireUid() {
      const uid = getAuth().currentUser?.uid;
      if (!uid) throw new BackendError('UNAUTHENTICATED', SIGN_IN_MESSAGE);
      return uid;
    },
    firestore: once(async () => {
      const sdk = await import(/* webpackChunkName: "firebase-firestore" */ './firestoreSdk');
      const db = sdk.getFirestore(getApp());
      if (emulators.firestore)
        sdk.connectFirestoreEmulator(db, emulators.firestore.host, emulators.firestore.port);
      return { sdk, db };
    }),
    functions: once(async () => {
      const sdk = await import(/* webpackChunkName: "firebase-functions" */ 'firebase/functions');
      const functions = sdk.getFunctions(getApp(), config.functionsRegion ?? DEFAULT_FUNCTIONS_REGION);
      if (emulators.functions) {
        sdk.connectFunctionsEmulator(functions, emulators.functions.host, emulators.functions.port);
      }
      return { sdk, functions };
    }),
    storage: once(async () => {
      const sdk = await import(/* webpackChunkName: "firebase-storage" */ 'firebase/storage');
      const storage = sdk.getStorage(getApp());
      if (emulators.storage)
        sdk.connectStorageEmulator(storage, emulators.storage.host, emulators.storage.port);
      return { sdk, storage };
    }),
    messaging: once(async () => {
      const sdk = await import(/* webpackChunkName: "firebase-messaging" */ 'firebase/messaging');
      // isSupported() checks for service workers, the Push API, IndexedDB and a secure context; getMessaging()
      // throws where any is missing (iOS Safari outside an installed web app, some private modes).
      if (!(await sdk.isSupported())) return { sdk, messaging: null };
      return { sdk, messaging: sdk.getMessaging(getApp()) };
    }),
    detached() {
      detachedApps += 1;
      const other = buildSdk(config, {
        appName: `${instance.appName ?? 'qupm'}-detached-${detachedApps}`,
        persistence: 'memory',
      });
      return {
        ...other.sdk,
        async dispose() {
          // No port was used, no app was made: nothing to delete.
          const made = other.madeApp();
          if (made) await deleteApp(made);
        },
      };
    },
  };
  return { sdk, madeApp: () => app };
}
