// npm run test:rules: the firestore.rules suite, on a running Firestore emulator only (README "Deploying to
// Firebase"). Without one it says how to start it, and fails; it never skips tests silently.
import { spawnSync } from 'node:child_process';

if (!process.env.FIRESTORE_EMULATOR_HOST) {
  console.error(
    'npm run test:rules needs the Firestore emulator (FIRESTORE_EMULATOR_HOST is not set). Run:\n' +
      '  npx firebase-tools@15 emulators:exec --only firestore "npm run test:rules"',
  );
  process.exit(1);
}
const jest = spawnSync(
  'npx',
  ['jest', '--config', '__tests__/rules/emulator/jest.config.ts', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
process.exit(jest.status ?? 1);
