// The emulators for the contract's run on the real thing, started once for the run, and its present: the world
// of support/world.ts is placed relative to now, as the emulators' clocks cannot be set.
import { startEmulatorsFor } from '../../support/emulators/globalSetup';
import { EMULATOR_PROJECT_ID } from '../support/emulatorProject';

export default async () => {
  process.env.QUPM_CONTRACT_START ??= String(Math.floor(Date.now() / 1000) * 1000);
  await startEmulatorsFor({ firestore: true, auth: { projectId: EMULATOR_PROJECT_ID } });
};
