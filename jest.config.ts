// Unit and integration tests (npm test). Browser tests have their own config in e2e/.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from 'jest';

// functions/ is its own deployable package with its own dependencies; its tests run here, beside the rest.
if (!existsSync(path.join(__dirname, 'functions/node_modules/firebase-functions'))) {
  throw new Error("functions/ has no dependencies yet: run 'npm ci --prefix functions' first (README).");
}

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      target: 'es2022',
      transform: { react: { runtime: 'automatic' } },
    },
    module: { type: 'commonjs' },
  },
];

const config: Config = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__', '<rootDir>/functions/__tests__'],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  transform: { '^.+\\.(t|j)sx?$': swc as unknown as string },
  moduleNameMapper: {
    '^@/(.*)$': '<rootDir>/src/$1',
    '^@core/(.*)$': '<rootDir>/core/$1',
    '\\.css$': '<rootDir>/__tests__/support/styleStub.ts',
  },
  // A few server dependencies ship only as ES modules; swc turns them into CommonJS for Jest.
  transformIgnorePatterns: ['/node_modules/(?!(cookie|jose)/)'],
  setupFiles: ['<rootDir>/__tests__/support/globals.ts'],
  clearMocks: true,
  restoreMocks: true,
};

export default config;
