// functions/'s tests on the real emulators (npm run test:functions:emulator): the functions' code on the Admin SDK
// against the Cloud Firestore emulator (with firestore.rules loaded, for the client side of each case) and the
// Firebase Auth emulator, both started for the run (globalSetup.ts) unless their variables name running ones.
import type { Config } from 'jest';
import base from '../../../jest.config';

const config: Config = {
  ...base,
  roots: ['<rootDir>/functions/__tests__/emulator'],
  testMatch: ['**/*.emulator.ts'],
  globalSetup: '<rootDir>/functions/__tests__/emulator/globalSetup.ts',
  globalTeardown: '<rootDir>/__tests__/support/emulators/globalTeardown.ts',
  // One emulator project shared by every test: run them in one worker.
  maxWorkers: 1,
  testTimeout: 30_000,
};

export default config;
