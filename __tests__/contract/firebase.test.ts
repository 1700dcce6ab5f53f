// The port contract on the Firebase adapter, with the SDK's modules faked over one in-memory Firestore and
// functions/'s real callables and triggers behind them (portContract.ts, support/firebaseHarness.ts).
import { describePortContract } from './portContract';
import { createFirebaseHarness } from './support/firebaseHarness';
import type * as Sdk from './support/firebaseSdk';

jest.mock(
  'firebase/app',
  () => jest.requireActual<typeof Sdk>('./support/firebaseSdk').firebaseModules().app,
);
jest.mock(
  'firebase/auth',
  () => jest.requireActual<typeof Sdk>('./support/firebaseSdk').firebaseModules().auth,
);
jest.mock(
  'firebase/firestore',
  () => jest.requireActual<typeof Sdk>('./support/firebaseSdk').firebaseModules().firestore,
);
jest.mock(
  'firebase/functions',
  () => jest.requireActual<typeof Sdk>('./support/firebaseSdk').firebaseModules().functions,
);
jest.mock(
  'firebase/messaging',
  () => jest.requireActual<typeof Sdk>('./support/firebaseSdk').firebaseModules().messaging,
);

jest.mock(
  'firebase/storage',
  () => jest.requireActual<typeof Sdk>('./support/firebaseSdk').firebaseModules().storage,
);

describe('the Firebase backend', () => {
  describePortContract(createFirebaseHarness);
});
