// npm run test:contract:emulators: the port contract on the real Firebase SDK against the Auth and Firestore
// emulators with functions/'s real code (support/emulatorHarness.ts). The emulators are started once for the run
// (globalSetup.ts) unless FIRESTORE_EMULATOR_HOST and FIREBASE_AUTH_EMULATOR_HOST name running ones.
import type { Config } from 'jest';
import base from '../../../jest.config';

const config: Config = {
  ...base,
  roots: ['<rootDir>/__tests__/contract/emulator'],
  testMatch: ['**/*.emulator.ts'],
  globalSetup: '<rootDir>/__tests__/contract/emulator/globalSetup.ts',
  globalTeardown: '<rootDir>/__tests__/support/emulators/globalTeardown.ts',
  // One project on the emulators, cleared and seeded before each test: one worker.
  maxWorkers: 1,
  testTimeout: 30_000,
  setupFiles: [...(base.setupFiles ?? []), '<rootDir>/__tests__/contract/emulator/quietLogs.ts'],
};

export default config;
