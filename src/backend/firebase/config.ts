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
} as const satisfies Record<keyof FirebaseConfig, string>;

export const DEFAULT_FUNCTIONS_REGION = 'us-central1';

const REQUIRED = ['apiKey', 'authDomain', 'projectId', 'appId', 'messagingSenderId', 'vapidKey'] as const;

/** The config from the environment; throws naming every required variable that is missing or blank. */
export function readFirebaseConfigFromEnv(env: Record<string, string | undefined>): FirebaseConfig {
  const read = (field: keyof FirebaseConfig): string | undefined => {
    const value = env[FIREBASE_ENV_VARIABLES[field]]?.trim();
    return value ? value : undefined;
  };
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
  return {
    apiKey: read('apiKey') ?? '',
    authDomain: read('authDomain') ?? '',
    projectId: read('projectId') ?? '',
    appId: read('appId') ?? '',
    messagingSenderId: read('messagingSenderId') ?? '',
    ...(storageBucket ? { storageBucket } : {}),
    vapidKey: read('vapidKey') ?? '',
    functionsRegion: read('functionsRegion') ?? DEFAULT_FUNCTIONS_REGION,
  };
}
