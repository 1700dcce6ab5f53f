// functions/'s tests on the real emulators (npm run test:functions:emulator): the functions' code on the Admin SDK
// against the Cloud Firestore emulator (with firestore.rules loaded, for the client side of each case) and the
// Firebase Auth emulator. It refuses to start without both rather than skip anything; see
// scripts/test-functions-emulator.mjs for how to start them.
import type { Config } from 'jest';
import base from '../../../jest.config';

const missing = ['FIRESTORE_EMULATOR_HOST', 'FIREBASE_AUTH_EMULATOR_HOST'].filter(
  (name) => !process.env[name],
);
if (missing.length > 0) {
  throw new Error(
    `npm run test:functions:emulator needs the Firestore and Auth emulators (${missing.join(' and ')} not set).`,
  );
}

const config: Config = {
  ...base,
  roots: ['<rootDir>/functions/__tests__/emulator'],
  testMatch: ['**/*.emulator.ts'],
  // One emulator project shared by every test: run them in one worker.
  maxWorkers: 1,
  testTimeout: 30_000,
};

export default config;
