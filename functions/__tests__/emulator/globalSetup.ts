// The emulators for functions/'s tests on the real thing, started once for the run unless FIRESTORE_EMULATOR_HOST
// and FIREBASE_AUTH_EMULATOR_HOST name running ones (as the contract's run does).
import { startEmulatorsFor } from '../../../__tests__/support/emulators/globalSetup';
import { PROJECT } from './support/emulators';

export default async () => {
  await startEmulatorsFor({ firestore: true, auth: { projectId: PROJECT } });
};
