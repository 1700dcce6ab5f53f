// The Firebase web configuration, read from the variables webpack's DefinePlugin injects at build time
// (README "Deploying to Firebase"). These values are public by design; none of them is a secret.
import { BackendError } from '../ports';

export interface FirebaseConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  appId: string;
  messagingSenderId: string;
  storageBucket?: string;
  /** The public key of the project's Web Push certificate (FCM "Web configuration"). */
  vapidKey: string;
  /** Where the callable functions run; a region such as 'us-central1' or a custom domain. */
  functionsRegion?: string;
  /**
   * Emulators to use instead of Google's services, for tests and local runs only: a build made without their
   * variables has none, and talks to the project itself.
   */
  emulators?: FirebaseEmulators;
}

/** Where an emulator listens (host, port). */
export interface EmulatorHost {
  host: string;
  port: number;
}

export interface FirebaseEmulators {
  auth?: EmulatorHost;
  firestore?: EmulatorHost;
  functions?: EmulatorHost;
  storage?: EmulatorHost;
}

/** Every variable the Firebase build reads, by config field. */
export const FIREBASE_ENV_VARIABLES = {
  apiKey: 'QUPM_FIREBASE_API_KEY',
  authDomain: 'QUPM_FIREBASE_AUTH_DOMAIN',
  projectId: 'QUPM_FIREBASE_PROJECT_ID',
  appId: 'QUPM_FIREBASE_APP_ID',
  messagingSenderId: 'QUPM_FIREBASE_MESSAGING_SENDER_ID',
  storageBucket: 'QUPM_FIREBASE_STORAGE_BUCKET',
  vapidKey: 'QUPM_VAPID_PUBLIC_KEY',
  functionsRegion: 'QUPM_FIREBASE_FUNCTIONS_REGION',
} as const satisfies Record<Exclude<keyof FirebaseConfig, 'emulators'>, string>;

/** The emulators' variables, one per emulator, each `host:port` (as Firebase's own FIRESTORE_EMULATOR_HOST). */
export const FIREBASE_EMULATOR_ENV_VARIABLES = {
  auth: 'QUPM_FIREBASE_AUTH_EMULATOR_HOST',
  firestore: 'QUPM_FIREBASE_FIRESTORE_EMULATOR_HOST',
  functions: 'QUPM_FIREBASE_FUNCTIONS_EMULATOR_HOST',
  storage: 'QUPM_FIREBASE_STORAGE_EMULATOR_HOST',
} as const satisfies Record<keyof FirebaseEmulators, string>;

export const DEFAULT_FUNCTIONS_REGION = 'us-central1';

const REQUIRED = ['apiKey', 'authDomain', 'projectId', 'appId', 'messagingSenderId', 'vapidKey'] as const;

/** `host:port` (a host name or an IPv4 address, and a port), or null. */
export function parseEmulatorHost(value: string): EmulatorHost | null {
  const match = /^([A-Za-z0-9.-]+):(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (!match?.[1] || !Number.isInteger(port) || port < 1 || port > 65535) return null;
  return { host: match[1], port };
}

function readEmulators(read: (name: string) => string | undefined): FirebaseEmulators | undefined {
  const emulators: FirebaseEmulators = {};
  const malformed: string[] = [];
  for (const [emulator, name] of Object.entries(FIREBASE_EMULATOR_ENV_VARIABLES)) {
    const value = read(name);
    if (value === undefined) continue;
    const host = parseEmulatorHost(value);
    if (host) emulators[emulator as keyof FirebaseEmulators] = host;
    else malformed.push(name);
  }
  if (malformed.length > 0) {
    throw new BackendError(
      'FAILED_PRECONDITION',
      `The Firebase emulators are misconfigured: ${malformed.join(', ')} must be host:port.`,
    );
  }
  return Object.keys(emulators).length > 0 ? emulators : undefined;
}

/** The config from the environment; throws naming every required variable that is missing or blank. */
export function readFirebaseConfigFromEnv(env: Record<string, string | undefined>): FirebaseConfig {
  const readName = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const read = (field: keyof typeof FIREBASE_ENV_VARIABLES): string | undefined =>
    readName(FIREBASE_ENV_VARIABLES[field]);
  const missing = REQUIRED.filter((field) => read(field) === undefined).map(
    (field) => FIREBASE_ENV_VARIABLES[field],
  );
  if (missing.length > 0) {
    throw new BackendError(
      'FAILED_PRECONDITION',
      `The Firebase backend is not configured: set ${missing.join(', ')} when building ` +
        '(README "Deploying to Firebase").',
    );
  }
  const storageBucket = read('storageBucket');
  const emulators = readEmulators(readName);
  return {
    apiKey: read('apiKey') ?? '',
    authDomain: read('authDomain') ?? '',
    projectId: read('projectId') ?? '',
    appId: read('appId') ?? '',
    messagingSenderId: read('messagingSenderId') ?? '',
    ...(storageBucket ? { storageBucket } : {}),
    vapidKey: read('vapidKey') ?? '',
    functionsRegion: read('functionsRegion') ?? DEFAULT_FUNCTIONS_REGION,
    ...(emulators ? { emulators } : {}),
  };
}
