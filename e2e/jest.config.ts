// Browser tests (npm run test:e2e): the production build in dist/, served by the real embedded server, driven
// in Debian's Chromium through playwright-core.
import type { Config } from 'jest';
import base from '../jest.config';

const config: Config = {
  ...base,
  rootDir: '..',
  roots: ['<rootDir>/e2e'],
  testMatch: ['**/*.e2e.test.ts'],
  globalSetup: '<rootDir>/e2e/support/globalSetup.ts',
  testTimeout: 90_000,
  // Two cores: one Chromium at a time keeps the suite steady.
  maxWorkers: 1,
};

export default config;
