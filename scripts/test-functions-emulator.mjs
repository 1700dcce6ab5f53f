// npm run test:functions:emulator: functions/'s tests on the Firestore emulator (the jar the machine ships, as
// npm run test:rules uses it) and the Auth emulator (firebase-tools, installed here). Without both it says how to
// start them, and fails; it never skips tests silently. For example, on ports of your own:
//   java -cp /usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar \
//     com.google.cloud.datastore.emulator.firestore.CloudFirestore --host 127.0.0.1 --port 9301 &
//   CI=1 METADATA_SERVER_DETECTION=none npx firebase emulators:start --only auth --project demo-qupm \
//     --config <a firebase.json whose emulators.auth.port, hub.port and logging.port are free> &
//   FIRESTORE_EMULATOR_HOST=127.0.0.1:9301 FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9302 npm run test:functions:emulator
// The project is demo-qupm (what the Auth emulator was started with), or QUPM_EMULATOR_PROJECT.
import { spawnSync } from 'node:child_process';

const missing = ['FIRESTORE_EMULATOR_HOST', 'FIREBASE_AUTH_EMULATOR_HOST'].filter(
  (name) => !process.env[name],
);
if (missing.length > 0) {
  console.error(
    `npm run test:functions:emulator needs the Firestore and Auth emulators (${missing.join(' and ')} not set).\n` +
      'See the top of scripts/test-functions-emulator.mjs for how to start them.',
  );
  process.exit(1);
}
const jest = spawnSync(
  'npx',
  ['jest', '--config', 'functions/__tests__/emulator/jest.config.ts', ...process.argv.slice(2)],
  { stdio: 'inherit', env: { METADATA_SERVER_DETECTION: 'none', ...process.env } },
);
process.exit(jest.status ?? 1);
