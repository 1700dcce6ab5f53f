// npm run test:rules: the firestore.rules suite on Google's Firestore emulator. Without FIRESTORE_EMULATOR_HOST the
// suite starts the emulator jar itself (__tests__/rules/emulator/globalSetup.ts) and stops it. Where Java or the
// jar is missing it says so in one line and fails: a run that skips the rules is not a pass. `--if-available`
// (npm test) says so and succeeds instead, so a machine without Java can still run the rest.
import { spawnSync } from 'node:child_process';
import { firestoreEmulatorMissing } from '../drivers/firestoreEmulator';

const args = process.argv.slice(2);
const ifAvailable = args.includes('--if-available');
const missing = process.env.FIRESTORE_EMULATOR_HOST ? null : firestoreEmulatorMissing();
if (missing) {
  console.error(ifAvailable ? `firestore.rules on the emulator: not run. ${missing}` : missing);
  process.exit(ifAvailable ? 0 : 1);
}
const jest = spawnSync(
  process.execPath,
  [
    require.resolve('jest/bin/jest'),
    '--config',
    '__tests__/rules/emulator/jest.config.ts',
    ...args.filter((arg) => arg !== '--if-available'),
  ],
  { stdio: 'inherit' },
);
process.exit(jest.status ?? 1);
