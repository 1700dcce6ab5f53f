// The SDK's seams for tests and local runs: each backend instance may have its own named Firebase app (two people
// signed in at once in one process), and each service may be pointed at its emulator. Without either, the page
// gets the default app and Google's services, as before.
import { createFirebaseSdk } from '@/backend/firebase/sdk';
import type { FirebaseConfig } from '@/backend/firebase';
import { CONFIG, resetSdkFakes } from './sdkFakes';
import type * as Fakes from './sdkFakes';
import type { AppFake, AuthFake, FirestoreFake, FunctionsFake } from './sdkFakes';

jest.mock('firebase/app', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAppModule());
jest.mock('firebase/auth', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAuthModule());
jest.mock('firebase/firestore', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFirestoreModule());
jest.mock('firebase/functions', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFunctionsModule());
jest.mock('firebase/storage', () => {
  const storage = { type: 'storage' };
  return { storage, getStorage: jest.fn(() => storage), connectStorageEmulator: jest.fn() };
});

const app = jest.requireMock<AppFake>('firebase/app');
const auth = jest.requireMock<AuthFake>('firebase/auth');
const fs = jest.requireMock<FirestoreFake>('firebase/firestore');
const fn = jest.requireMock<FunctionsFake>('firebase/functions');
const st = jest.requireMock<{ storage: object; connectStorageEmulator: jest.Mock }>('firebase/storage');

beforeEach(() => resetSdkFakes());

const EMULATED: FirebaseConfig = {
  ...CONFIG,
  emulators: {
    auth: { host: '127.0.0.1', port: 9199 },
    firestore: { host: '127.0.0.1', port: 9180 },
    functions: { host: 'localhost', port: 9101 },
    storage: { host: '127.0.0.1', port: 9190 },
  },
};

describe('createFirebaseSdk', () => {
  it('uses the default app when the instance is not named (the page: its stored session is keyed by it)', () => {
    createFirebaseSdk(CONFIG).auth();
    expect(app.initializeApp).toHaveBeenCalledTimes(1);
    expect(app.initializeApp.mock.calls[0]).toHaveLength(1);
  });

  it('gives a named instance its own app, so two instances sign in side by side', () => {
    createFirebaseSdk(CONFIG, { appName: 'device-1' }).auth();
    createFirebaseSdk(CONFIG, { appName: 'device-2' }).auth();
    expect(app.initializeApp.mock.calls.map(([, name]) => name)).toEqual(['device-1', 'device-2']);
    expect(auth.initializeAuth.mock.calls.map(([made]) => (made as { name: string }).name)).toEqual([
      'device-1',
      'device-2',
    ]);
  });

  it('talks to Google’s services when no emulator is configured', async () => {
    const sdk = createFirebaseSdk(CONFIG);
    sdk.auth();
    await Promise.all([sdk.firestore(), sdk.functions(), sdk.storage()]);
    expect(auth.connectAuthEmulator).not.toHaveBeenCalled();
    expect(fs.connectFirestoreEmulator).not.toHaveBeenCalled();
    expect(fn.connectFunctionsEmulator).not.toHaveBeenCalled();
    expect(st.connectStorageEmulator).not.toHaveBeenCalled();
  });

  it('points each service at its emulator once, when it is first loaded', async () => {
    const sdk = createFirebaseSdk(EMULATED);
    sdk.auth();
    sdk.auth();
    await Promise.all([sdk.firestore(), sdk.firestore(), sdk.functions(), sdk.storage()]);
    expect(auth.connectAuthEmulator.mock.calls).toEqual([
      [auth.instance, 'http://127.0.0.1:9199', { disableWarnings: true }],
    ]);
    expect(fs.connectFirestoreEmulator.mock.calls).toEqual([[fs.db, '127.0.0.1', 9180]]);
    expect(fn.connectFunctionsEmulator.mock.calls).toEqual([[fn.functions, 'localhost', 9101]]);
    expect(st.connectStorageEmulator.mock.calls).toEqual([[st.storage, '127.0.0.1', 9190]]);
  });

  it('points only the services that have an emulator', async () => {
    const sdk = createFirebaseSdk({ ...CONFIG, emulators: { firestore: { host: '127.0.0.1', port: 9180 } } });
    sdk.auth();
    await Promise.all([sdk.firestore(), sdk.functions()]);
    expect(fs.connectFirestoreEmulator).toHaveBeenCalledTimes(1);
    expect(auth.connectAuthEmulator).not.toHaveBeenCalled();
    expect(fn.connectFunctionsEmulator).not.toHaveBeenCalled();
  });
});
