// The suites that run on the Firebase emulators:
//   npm run test:rules              firestore.rules on Google's Firestore emulator (__tests__/rules/emulator)
//   npm run test:contract:emulators the port contract on the real Firebase SDK against the Auth and Firestore
//                                   emulators with functions/'s real code (__tests__/contract/emulator)
//   npm run test:functions:emulator functions/'s own code on the Admin SDK against the same two emulators
//                                   (functions/__tests__/emulator: revocation, uploads tied to their records)
//   npm run test:firebase:emulators the last two in one Jest run (.ci/run): one start of each emulator for both
//   npm run test:firebase           the deployed shape on firebase-tools' Auth, Functions and Hosting emulators
//                                   and the Firestore jar, and the app's Firebase build in Chromium (e2e/firebase)
// Each suite starts the emulators it needs itself (its Jest globalSetup) unless their variables name running ones,
// and stops them; suites run together are Jest projects, run one file at a time, and the first to need an
// emulator starts it for the others. Where Java or the Firestore emulator's jar is missing it says so in one line
// and fails: a run that skips them is not a pass. `--if-available` (npm test) says so and succeeds instead, so
// that a machine without Java can still run the rest. Other arguments go to Jest.
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
  firebase: { name: 'QuPM on the Firebase emulators', config: 'e2e/firebase/jest.config.ts' },
} as const;

const args = process.argv.slice(2);
const names = args.filter((arg) => Object.hasOwn(SUITES, arg)) as Array<keyof typeof SUITES>;
const rest = args.filter((arg) => !Object.hasOwn(SUITES, arg));
if (names.length === 0) {
  console.error(
    `usage: node --import tsx scripts/test-on-emulators.ts ${Object.keys(SUITES).join('|')}... [--if-available]`,
  );
  process.exit(2);
}
const suites = names.map((name) => SUITES[name]);
const what = suites.map((suite) => suite.name).join(', ');
const ifAvailable = rest.includes('--if-available');
const missing = process.env.FIRESTORE_EMULATOR_HOST ? null : firestoreEmulatorMissing();
if (missing) {
  console.error(ifAvailable ? `${what}: not run. ${missing}` : missing);
  process.exit(ifAvailable ? 0 : 1);
}
// One suite: its own config. Several: each a project of one Jest run, in band (they share the emulators' data).
const selection =
  suites.length === 1
    ? ['--config', suites[0]?.config ?? '']
    : ['--projects', ...suites.map((suite) => suite.config), '--runInBand'];
const jest = spawnSync(
  process.execPath,
  [require.resolve('jest/bin/jest'), ...selection, ...rest.filter((arg) => arg !== '--if-available')],
  { stdio: 'inherit' },
);
process.exit(jest.status ?? 1);
