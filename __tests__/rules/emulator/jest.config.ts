// npm run test:rules: firestore.rules on Google's Firestore emulator. The emulator at FIRESTORE_EMULATOR_HOST when
// one is running, else the jar the machine image ships, started for the run and stopped after it (globalSetup.ts).
import type { Config } from 'jest';
import base from '../../../jest.config';

const config: Config = {
  ...base,
  roots: ['<rootDir>/__tests__/rules/emulator'],
  testMatch: ['**/*.emulator.ts'],
  globalSetup: '<rootDir>/__tests__/rules/emulator/globalSetup.ts',
  globalTeardown: '<rootDir>/__tests__/support/emulators/globalTeardown.ts',
  // One emulator database shared by every test: run them in one worker.
  maxWorkers: 1,
  // CI runs these at nice 5 beside every other stage: a test of a few emulator round trips took over 30 s there once
  // (run 11). The bound only stops a hang.
  testTimeout: 90_000,
};

export default config;
