// The port contract on the Firebase adapter and the real Firebase JS SDK, against the Auth and Firestore emulators
// with firestore.rules and functions/'s real code (support/emulatorHarness.ts). Nothing of the SDK is mocked.
import { describePortContract } from '../portContract';
import { closeEmulatorEnvironment, createEmulatorHarness } from '../support/emulatorHarness';

afterAll(closeEmulatorEnvironment);

describe('the Firebase backend on the emulators', () => {
  describePortContract(createEmulatorHarness, ['storage', 'clock']);
});
