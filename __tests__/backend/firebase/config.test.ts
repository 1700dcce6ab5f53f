import { BackendError } from '@/backend/ports';

import {
  FIREBASE_EMULATOR_ENV_VARIABLES,
  FIREBASE_ENV_VARIABLES,
  readFirebaseConfigFromEnv,
} from '@/backend/firebase/config';

const ENV = {
  QUPM_FIREBASE_API_KEY: 'api-key',
  QUPM_FIREBASE_AUTH_DOMAIN: 'qupm.firebaseapp.com',
  QUPM_FIREBASE_PROJECT_ID: 'qupm',
  QUPM_FIREBASE_APP_ID: '1:123:web:abc',
  QUPM_FIREBASE_MESSAGING_SENDER_ID: '123',
  QUPM_VAPID_PUBLIC_KEY: 'BPublicKey',
};

function thrownBy(work: () => unknown): BackendError {
  try {
    work();
  } catch (error) {
    if (error instanceof BackendError) return error;
    throw error;
  }
  throw new Error('expected a BackendError');
}

describe('readFirebaseConfigFromEnv', () => {
  it('reads the required variables and calls the functions in us-central1 unless told otherwise', () => {
    expect(readFirebaseConfigFromEnv(ENV)).toStrictEqual({
      apiKey: 'api-key',
      authDomain: 'qupm.firebaseapp.com',
      projectId: 'qupm',
      appId: '1:123:web:abc',
      messagingSenderId: '123',
      vapidKey: 'BPublicKey',
      functionsRegion: 'us-central1',
    });
  });

  it('takes the optional storage bucket and functions region when they are set', () => {
    const config = readFirebaseConfigFromEnv({
      ...ENV,
      QUPM_FIREBASE_STORAGE_BUCKET: 'qupm.appspot.com',
      QUPM_FIREBASE_FUNCTIONS_REGION: 'europe-west1',
    });
    expect(config.storageBucket).toBe('qupm.appspot.com');
    expect(config.functionsRegion).toBe('europe-west1');
  });

  it('trims values, so that a stray newline from a .env file does not end up in the bundle', () => {
    expect(readFirebaseConfigFromEnv({ ...ENV, QUPM_FIREBASE_PROJECT_ID: ' qupm\n' }).projectId).toBe('qupm');
  });

  it('names every required variable that is missing, and only those', () => {
    const { QUPM_FIREBASE_API_KEY: _api, QUPM_VAPID_PUBLIC_KEY: _vapid, ...rest } = ENV;
    const error = thrownBy(() => readFirebaseConfigFromEnv(rest));
    expect(error.status).toBe('FAILED_PRECONDITION');
    expect(error.message).toContain('QUPM_FIREBASE_API_KEY, QUPM_VAPID_PUBLIC_KEY');
    expect(error.message).not.toContain('QUPM_FIREBASE_PROJECT_ID');
    expect(error.message).not.toContain('STORAGE_BUCKET');
  });

  it('counts a blank value as missing', () => {
    const error = thrownBy(() => readFirebaseConfigFromEnv({ ...ENV, QUPM_FIREBASE_APP_ID: '   ' }));
    expect(error.message).toContain('QUPM_FIREBASE_APP_ID');
  });

  it('names all six required variables when nothing is configured (a firebase build without its config)', () => {
    const error = thrownBy(() => readFirebaseConfigFromEnv({}));
    for (const name of Object.keys(ENV)) expect(error.message).toContain(name);
  });

  it('reads exactly the variables the build injects (DefinePlugin keeps QUPM_FIREBASE_* and QUPM_VAPID_*)', () => {
    for (const name of [
      ...Object.values(FIREBASE_ENV_VARIABLES),
      ...Object.values(FIREBASE_EMULATOR_ENV_VARIABLES),
    ])
      expect(name).toMatch(/^QUPM_(FIREBASE_|VAPID_)/);
  });

  it('has no emulators unless their variables are set (a build for the project)', () => {
    expect(readFirebaseConfigFromEnv(ENV)).not.toHaveProperty('emulators');
    expect(readFirebaseConfigFromEnv({ ...ENV, QUPM_FIREBASE_AUTH_EMULATOR_HOST: '  ' })).not.toHaveProperty(
      'emulators',
    );
  });

  it('reads each emulator it is given as host:port, and only those', () => {
    const config = readFirebaseConfigFromEnv({
      ...ENV,
      QUPM_FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9199',
      QUPM_FIREBASE_FIRESTORE_EMULATOR_HOST: ' localhost:9180\n',
      QUPM_FIREBASE_FUNCTIONS_EMULATOR_HOST: '127.0.0.1:9101',
    });
    expect(config.emulators).toStrictEqual({
      auth: { host: '127.0.0.1', port: 9199 },
      firestore: { host: 'localhost', port: 9180 },
      functions: { host: '127.0.0.1', port: 9101 },
    });
  });

  it.each(['127.0.0.1', 'http://127.0.0.1:9199', '127.0.0.1:0', '127.0.0.1:65536', ':9199', 'a b:1'])(
    'refuses the emulator host %j, naming its variable',
    (value) => {
      const error = thrownBy(() =>
        readFirebaseConfigFromEnv({ ...ENV, QUPM_FIREBASE_STORAGE_EMULATOR_HOST: value }),
      );
      expect(error.status).toBe('FAILED_PRECONDITION');
      expect(error.message).toContain('QUPM_FIREBASE_STORAGE_EMULATOR_HOST must be host:port');
    },
  );
});
