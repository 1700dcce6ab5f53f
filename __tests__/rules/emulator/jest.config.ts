// npm run test:rules: firestore.rules on the Firestore emulator, which these machines cannot install (README
// "Deploying to Firebase"). It refuses to start without FIRESTORE_EMULATOR_HOST rather than skip anything:
//   firebase emulators:exec --only firestore "npm run test:rules"
import type { Config } from 'jest';
import base from '../../../jest.config';

if (!process.env.FIRESTORE_EMULATOR_HOST) {
  throw new Error(
    'npm run test:rules needs a running Firestore emulator (FIRESTORE_EMULATOR_HOST is not set). Run it as: ' +
      'firebase emulators:exec --only firestore "npm run test:rules"',
  );
}

const config: Config = {
  ...base,
  roots: ['<rootDir>/__tests__/rules/emulator'],
  testMatch: ['**/*.emulator.ts'],
  // One emulator database shared by every test: run them in one worker.
  maxWorkers: 1,
};

export default config;
