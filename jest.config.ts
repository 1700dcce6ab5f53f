// Unit and integration tests (npm test). Browser tests have their own config in e2e/.
import type { Config } from 'jest';

// functions/ is an npm workspace of this package (one `npm ci` installs both); its tests run here, beside the rest.

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
  // file-type (upload sniffing) and the ES-module packages it reads with; workbox-window's messageSW
  // module, which the page imports alone so the Workbox class can load in its own chunk.
  transformIgnorePatterns: [
    '/node_modules/(?!(workbox-window|cookie|jose|file-type|strtok3|token-types|uint8array-extras|@tokenizer|@borewit)/)',
  ],
  setupFiles: ['<rootDir>/__tests__/support/globals.ts'],
  setupFilesAfterEnv: ['<rootDir>/__tests__/support/testingLibrary.ts'],
  // Jest's default of 5 s per test is a timed assertion in disguise: on a loaded machine with two workers, integration
  // tests (300 messages posted at once, 30 simulated days of push checks) passed it. Speed is the bench's to measure;
  // this bound only stops a test that hangs.
  testTimeout: 30_000,
  clearMocks: true,
  restoreMocks: true,
};

export default config;
