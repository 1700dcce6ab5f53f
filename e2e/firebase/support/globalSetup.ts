// Before the emulator suite: the app built for the emulators and the emulators started, once for the run
// (drivers/firebaseEmulators.ts startFirebaseApp); globalTeardown.ts stops them. Their addresses reach the tests
// through QUPM_FIREBASE_EMULATORS (support/emulators.ts), which the test workers inherit. When it is set already
// (emulators someone started with `npm run firebase:emulators`), the tests use those and nothing is started.
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH } from '../../../drivers/chromium';
import {
  EMULATORS_VARIABLE,
  addressesOf,
  firebaseEmulatorsMissing,
  startFirebaseApp,
} from '../../../drivers/firebaseEmulators';
import { keepForTeardown } from './running';

/** A failure in one line: what is missing and how to get it, without a stack trace. */
function plainError(message: string): Error {
  const error = new Error(message);
  error.stack = message;
  return error;
}

export default async function globalSetup(): Promise<void> {
  if (process.env[EMULATORS_VARIABLE]) return;
  const missing = firebaseEmulatorsMissing();
  if (missing) throw plainError(missing);
  if (!existsSync(CHROMIUM_PATH)) {
    throw plainError(`No Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (.ci/run does it).`);
  }
  const app = await startFirebaseApp();
  keepForTeardown(app);
  process.env[EMULATORS_VARIABLE] = JSON.stringify(addressesOf(app));
}
