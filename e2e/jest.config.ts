// Browser tests (npm run test:e2e): the production build in dist/, served by the real embedded server, driven
// in Debian's Chromium through playwright-core.
import type { Config } from 'jest';
import base from '../jest.config';

const config: Config = {
  ...base,
  rootDir: '..',
  roots: ['<rootDir>/e2e'],
  // Node's environment, which tells the failure dump that a test failed (support/failureDump.ts).
  testEnvironment: '<rootDir>/e2e/support/environment.ts',
  setupFilesAfterEnv: [...(base.setupFilesAfterEnv ?? []), '<rootDir>/e2e/support/failureDump.ts'],
  testMatch: ['**/*.e2e.test.ts'],
  globalSetup: '<rootDir>/e2e/support/globalSetup.ts',
  // Each wait in a test has its own bound (Playwright's 30 s); this one only stops a test that hangs, and is generous
  // because two workers on a loaded two-core machine made a 40-step test pass 90 s.
  testTimeout: 180_000,
  // Two workers on two cores. A test file starts its own server (a free port, a temporary data folder of its
  // own) and its own Chromium (a temporary profile of its own), so the two workers share nothing.
  maxWorkers: 2,
};

export default config;
