// Jest's globalSetup for the suites that run on the Firebase emulators: each emulator a suite needs is the one its
// variable names when it is set (an emulator someone started), else one started here for the run, in parallel,
// on free loopback ports, and stopped by globalTeardown.ts (and by the kernel if the run is killed:
// drivers/emulatorProcess.ts). The variables are the ones the Admin SDK and @firebase/rules-unit-testing read,
// and the test workers inherit them.
import { startAuthEmulator } from '../../../drivers/authEmulator';
import type { AuthEmulator } from '../../../drivers/authEmulator';
import { startFirestoreEmulator } from '../../../drivers/firestoreEmulator';
import type { FirestoreEmulator } from '../../../drivers/firestoreEmulator';

interface Started {
  firestore?: FirestoreEmulator;
  auth?: AuthEmulator;
}

const KEY = '__qupmEmulators';

/** The emulators this process started, for globalTeardown (Jest runs both in the same context). */
export function startedEmulators(): Started {
  return ((globalThis as Record<string, unknown>)[KEY] as Started | undefined) ?? {};
}

export async function startEmulatorsFor(needs: {
  firestore?: boolean;
  auth?: { projectId: string };
}): Promise<void> {
  // Offline: Google's auth library (under the Admin SDK) must not look for a cloud metadata server.
  process.env.METADATA_SERVER_DETECTION = 'none';
  const started: Started = {};
  (globalThis as Record<string, unknown>)[KEY] = started;
  const firestore =
    needs.firestore && !process.env.FIRESTORE_EMULATOR_HOST
      ? startFirestoreEmulator().then((emulator) => {
          started.firestore = emulator;
          process.env.FIRESTORE_EMULATOR_HOST = emulator.hostPort;
        })
      : Promise.resolve();
  const auth =
    needs.auth && !process.env.FIREBASE_AUTH_EMULATOR_HOST
      ? startAuthEmulator({ projectId: needs.auth.projectId }).then((emulator) => {
          started.auth = emulator;
          process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.hostPort;
        })
      : Promise.resolve();
  const outcomes = await Promise.allSettled([firestore, auth]);
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await stopStartedEmulators();
    throw failed.reason;
  }
}

export async function stopStartedEmulators(): Promise<void> {
  const started = startedEmulators();
  await Promise.all([started.firestore?.stop(), started.auth?.stop()]);
  delete started.firestore;
  delete started.auth;
}
