// The Firebase emulator suite (npm run test:firebase, a stage of .ci/run): the deployed shape on the real
// emulators — the callables over HTTP, the triggers on real writes, the schedules, Hosting's headers and rewrites —
// and the app's Firebase build in Chromium against them. globalSetup builds the app for the emulators and starts
// them once for the whole suite (drivers/firebaseEmulators.ts); globalTeardown stops them.
import type { Config } from 'jest';
import base from '../../jest.config';

const config: Config = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/e2e/firebase'],
  // Node's environment, which tells the failure dump that a test failed (support/failureDump.ts).
  testEnvironment: '<rootDir>/e2e/support/environment.ts',
  setupFilesAfterEnv: [...(base.setupFilesAfterEnv ?? []), '<rootDir>/e2e/support/failureDump.ts'],
  testMatch: ['**/*.emulators.test.ts'],
  globalSetup: '<rootDir>/e2e/firebase/support/globalSetup.ts',
  globalTeardown: '<rootDir>/e2e/firebase/support/globalTeardown.ts',
  testTimeout: 90_000,
  // One emulator set and two cores: one file at a time.
  maxWorkers: 1,
};

export default config;
