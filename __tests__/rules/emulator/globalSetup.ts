// The Firestore emulator for the rules suite: the one at FIRESTORE_EMULATOR_HOST, else the jar, started here.
import { startEmulatorsFor } from '../../support/emulators/globalSetup';

export default () => startEmulatorsFor({ firestore: true });
