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
  onAuthStateChanged,
} from 'firebase/auth';
import type { Auth } from 'firebase/auth';
import type * as FirestoreSdk from './firestoreSdk';
import type * as FunctionsSdk from 'firebase/functions';
import type * as MessagingSdk from 'firebase/messaging';
import type * as StorageSdk from 'firebase/storage';
import { isChunkLoadError, reportChunkLoadFailure } from '@/platform/chunks';
import { whenFirstScreenDrawn } from '@/platform/firstScreen';
import { browserLocalStorage, readString, removeKey, writeString } from '@/platform/storage';
import { LOCAL_STORAGE_KEYS } from '@/platform/storageKeys';
import { SIGN_OUT_CLEANUP_TIMEOUT_MS } from '@/timings';
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
  /**
   * Deletes what Firestore keeps on this device (its persistent cache: documents and pending writes) and stops
   * the instance; the next port call starts a new one. Never rejects, and is bounded: a sign-out must not hang.
   */
  forgetFirestore(): Promise<void>;
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
function once<T>(load: () => Promise<T>): Once<T> {
  let pending: Promise<T> | null = null;
  const get = () => {
    pending ??= load().catch((error: unknown) => {
      pending = null;
      if (isChunkLoadError(error)) reportChunkLoadFailure();
      throw toBackendError(error);
    });
    return pending;
  };
  return Object.assign(get, {
    forget() {
      const was = pending;
      pending = null;
      return was;
    },
  });
}

interface Once<T> {
  (): Promise<T>;
  /** Drops the memo (the next call loads again) and hands back what it held, if anything. */
  forget(): Promise<T> | null;
}

/** Work of a sign-out that must not hold it up: given up (and said so) after SIGN_OUT_CLEANUP_TIMEOUT_MS. */
async function boundedForSignOut(work: Promise<void>, what: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), SIGN_OUT_CLEANUP_TIMEOUT_MS);
  });
  try {
    if ((await Promise.race([work, late])) === 'late') console.warn(`${what} took too long; left to finish`);
  } catch (error) {
    console.warn(`${what} failed`, error instanceof Error ? error.message : error);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Firestore's cache on this device holds one person's documents. Firestore shares it between the accounts signed
 * in on a browser, so a cache written for someone else (whose session ended while no page could clear it, or
 * whose clearing another tab held up) is cleared before this person's first read: nobody reads another's
 * documents offline. clearIndexedDbPersistence is allowed here, before the instance's first use.
 */
async function keepCacheForOnePerson(
  sdk: typeof FirestoreSdk,
  db: FirestoreSdk.Firestore,
  uid: string | null,
): Promise<void> {
  if (uid === null) return;
  const storage = browserLocalStorage();
  const owner = readString(storage, LOCAL_STORAGE_KEYS.firestoreCacheOwner);
  if (owner === uid) return;
  if (owner !== null) await sdk.clearIndexedDbPersistence(db);
  writeString(storage, LOCAL_STORAGE_KEYS.firestoreCacheOwner, uid);
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
  /**
   * The page's app: Firestore's SDK (the largest chunk by far) loads once the first screen is drawn
   * (src/platform/firstScreen.ts), which the last known state draws without it.
   */
  firestoreAfterFirstScreen?: boolean;
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
    // A session that ends without this page asking (another tab signed out, a password changed elsewhere) leaves
    // Firestore's cache to this page to clear as well.
    let signedInUid: string | null = null;
    onAuthStateChanged(auth, (user) => {
      if (signedInUid !== null && user === null) void forgetFirestore();
      signedInUid = user?.uid ?? null;
    });
    return auth;
  };

  // The page's own app keeps Firestore's cache on the device (IndexedDB, shared by the tabs), for reconnects and
  // reads offline; a detached app, and a place without IndexedDB (Node, in tests), keep it in memory.
  const persistent = instance.persistence !== 'memory' && typeof indexedDB !== 'undefined';
  const startFirestore = async (): Promise<LoadedFirestore> => {
    if (instance.firestoreAfterFirstScreen) await whenFirstScreenDrawn();
    const sdk = await import(/* webpackChunkName: "firebase-firestore" */ './firestoreSdk');
    const db = sdk.initializeFirestore(
      getApp(),
      persistent
        ? { localCache: sdk.persistentLocalCache({ tabManager: sdk.persistentMultipleTabManager() }) }
        : {},
    );
    if (emulators.firestore)
      sdk.connectFirestoreEmulator(db, emulators.firestore.host, emulators.firestore.port);
    if (persistent) await keepCacheForOnePerson(sdk, db, getAuth().currentUser?.uid ?? null);
    return { sdk, db };
  };
  const loadFirestore = once(startFirestore);

  // Stopped first (clearing refuses a running instance); an instance never started in this page is made only to
  // be cleared, so what an earlier page kept goes too. In another tab still running it the clearing is refused
  // (failed-precondition): that tab clears it as its own session ends, and keepCacheForOnePerson guards the rest.
  const forgetFirestore = async (): Promise<void> => {
    if (!persistent) return;
    const started = loadFirestore.forget();
    const work = (async () => {
      let loaded: LoadedFirestore;
      if (started) loaded = await started;
      else {
        const sdk = await import(/* webpackChunkName: "firebase-firestore" */ './firestoreSdk');
        loaded = { sdk, db: sdk.initializeFirestore(getApp(), {}) };
      }
      await loaded.sdk.terminate(loaded.db);
      await loaded.sdk.clearIndexedDbPersistence(loaded.db);
      removeKey(browserLocalStorage(), LOCAL_STORAGE_KEYS.firestoreCacheOwner);
    })();
    await boundedForSignOut(work, "Clearing Firestore's cache");
  };

  const sdk: FirebaseSdk = {
    config,
    auth: getAuth,
    requireUid() {
      const uid = getAuth().currentUser?.uid;
      if (!uid) throw new BackendError('UNAUTHENTICATED', SIGN_IN_MESSAGE);
      return uid;
    },
    firestore: loadFirestore,
    forgetFirestore,
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
