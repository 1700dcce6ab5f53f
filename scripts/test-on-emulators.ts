// The suites that run on the Firebase emulators:
//   npm run test:rules              firestore.rules on Google's Firestore emulator (__tests__/rules/emulator)
//   npm run test:contract:emulators the port contract on the real Firebase SDK against the Auth and Firestore
//                                   emulators with functions/'s real code (__tests__/contract/emulator)
//   npm run test:functions:emulator functions/'s own code on the Admin SDK against the same two emulators
//                                   (functions/__tests__/emulator: revocation, uploads tied to their records)
// Each suite starts the emulators it needs itself (its Jest globalSetup) unless their variables name running ones,
// and stops them. Where Java or the Firestore emulator's jar is missing it says so in one line and fails: a run
// that skips them is not a pass. `--if-available` (npm test) says so and succeeds instead, so that a machine
// without Java can still run the rest. Other arguments go to Jest.
import { spawnSync } from 'node:child_process';
import { firestoreEmulatorMissing } from '../drivers/firestoreEmulator';

const SUITES = {
  rules: { name: 'firestore.rules on the emulator', config: '__tests__/rules/emulator/jest.config.ts' },
  contract: {
    name: 'the port contract on the emulators',
    config: '__tests__/contract/emulator/jest.config.ts',
  },
  functions: {
    name: "functions/' tests on the emulators",
    config: 'functions/__tests__/emulator/jest.config.ts',
  },
} as const;

const [suiteName, ...rest] = process.argv.slice(2);
const suite = SUITES[suiteName as keyof typeof SUITES] as (typeof SUITES)[keyof typeof SUITES] | undefined;
if (!suite) {
  console.error(
    `usage: node --import tsx scripts/test-on-emulators.ts ${Object.keys(SUITES).join('|')} [--if-available]`,
  );
  process.exit(2);
}
const ifAvailable = rest.includes('--if-available');
const missing = process.env.FIRESTORE_EMULATOR_HOST ? null : firestoreEmulatorMissing();
if (missing) {
  console.error(ifAvailable ? `${suite.name}: not run. ${missing}` : missing);
  process.exit(ifAvailable ? 0 : 1);
}
const jest = spawnSync(
  process.execPath,
  [
    require.resolve('jest/bin/jest'),
    '--config',
    suite.config,
    ...rest.filter((arg) => arg !== '--if-available'),
  ],
  { stdio: 'inherit' },
);
process.exit(jest.status ?? 1);
