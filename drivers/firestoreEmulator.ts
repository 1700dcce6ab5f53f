// Google's Cloud Firestore emulator, the jar the machine image ships (Debian package
// google-cloud-cli-firestore-emulator, run on Java 17; ARCHITECTURE.md "What these machines allow"), started
// straight from the jar on a free loopback port: no firebase-tools, whose own launcher refuses Java below 21. It
// evaluates firestore.rules exactly as production does. Used by `npm run test:rules`, the contract suite's run on
// the emulators and .ci/run.
//
//   node --import tsx drivers/firestoreEmulator.ts --check   one line saying what is missing, exit 1; or exit 0
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { EmulatorStartError, answers, freePort, restCall, startEmulatorProcess } from './emulatorProcess';

export const FIRESTORE_EMULATOR_JAR =
  process.env.QUPM_FIRESTORE_EMULATOR_JAR ??
  '/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar';
const MAIN_CLASS = 'com.google.cloud.datastore.emulator.firestore.CloudFirestore';

/** About 2 s on an idle machine; a loaded 2-core machine has taken ten times that. */
const START_TIMEOUT_MS = 60_000;

/**
 * JVM flags for a short-lived test server on a small machine: English messages (as gcloud's own launcher sets),
 * the serial collector (no GC threads competing for two cores), and the quick C1 compiler only (a run lasts
 * seconds to minutes; C2's warm-up would not pay for itself).
 */
const JVM_FLAGS = ['-Duser.language=en', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Xmx1g'];

/** The java executable: $JAVA, else the first `java` on PATH; null when there is none. */
export function findJava(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates = env.JAVA
    ? [env.JAVA]
    : (env.PATH ?? '')
        .split(path.delimiter)
        .filter((dir) => dir !== '')
        .map((dir) => path.join(dir, 'java'));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

/** One line saying what is missing to run the emulator, or null when Java and the jar are both there. */
export function firestoreEmulatorMissing(env: NodeJS.ProcessEnv = process.env): string | null {
  const jar = env.QUPM_FIRESTORE_EMULATOR_JAR ?? FIRESTORE_EMULATOR_JAR;
  const java = findJava(env) !== null;
  const jarThere = existsSync(jar);
  if (java && jarThere) return null;
  const missing = [
    java ? null : 'Java (no java on PATH; Debian: apt-get install openjdk-17-jre-headless)',
    jarThere
      ? null
      : `the emulator jar (${jar}; Debian: apt-get install google-cloud-cli-firestore-emulator, or set QUPM_FIRESTORE_EMULATOR_JAR)`,
  ].filter((part) => part !== null);
  return `The Firestore emulator cannot run here: missing ${missing.join(' and ')}.`;
}

export interface FirestoreEmulator {
  host: string;
  port: number;
  /** host:port, as FIRESTORE_EMULATOR_HOST takes it. */
  hostPort: string;
  /** Loads `rules` (the text of firestore.rules) for `projectId`; rejects with the compiler's message. */
  loadRules(projectId: string, rules: string): Promise<void>;
  /** Deletes every document of `projectId`'s database. */
  clear(projectId: string): Promise<void>;
  stop(): Promise<void>;
}

/** How often a clear is tried: the emulator has answered 500 to one made while writes were still landing. */
const CLEAR_ATTEMPTS = 3;

const messageOf = (body: unknown): string =>
  typeof body === 'object' && body !== null
    ? String((body as { error?: { message?: unknown } }).error?.message ?? JSON.stringify(body))
    : String(body);

/** The emulator's REST calls, for an emulator started elsewhere (FIRESTORE_EMULATOR_HOST). */
export function firestoreEmulatorAt(hostPort: string): Pick<FirestoreEmulator, 'loadRules' | 'clear'> {
  const base = `http://${hostPort}/emulator/v1/projects`;
  return {
    async loadRules(projectId, rules) {
      const answer = await restCall(`${base}/${projectId}:securityRules`, 'PUT', {
        rules: { files: [{ name: 'firestore.rules', content: rules }] },
      });
      if (answer.status !== 200) {
        throw new Error(`The Firestore emulator refused firestore.rules: ${messageOf(answer.body)}`);
      }
    },
    async clear(projectId) {
      for (let attempt = 1; ; attempt += 1) {
        const answer = await restCall(`${base}/${projectId}/databases/(default)/documents`, 'DELETE');
        if (answer.status === 200) return;
        if (attempt >= CLEAR_ATTEMPTS) {
          throw new Error(
            `The Firestore emulator did not clear its data (${answer.status}): ${messageOf(answer.body)}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    },
  };
}

/**
 * Starts the emulator on a free loopback port and resolves once it answers. Rejects with one clear line when
 * Java or the jar is missing, and with its output when it does not come up in time (it is stopped then).
 */
export async function startFirestoreEmulator(
  options: { timeoutMs?: number } = {},
): Promise<FirestoreEmulator> {
  const missing = firestoreEmulatorMissing();
  if (missing) throw new EmulatorStartError(missing);
  const java = findJava() ?? 'java';
  const host = '127.0.0.1';
  // A port handed out free can be taken before the emulator binds it (another run on the machine): try again.
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    try {
      const started = await startEmulatorProcess({
        name: 'The Firestore emulator',
        command: java,
        args: [
          ...JVM_FLAGS,
          '-cp',
          FIRESTORE_EMULATOR_JAR,
          MAIN_CLASS,
          '--host',
          host,
          '--port',
          String(port),
        ],
        ready: () => answers(`http://${host}:${port}/`),
        timeoutMs: options.timeoutMs ?? START_TIMEOUT_MS,
      });
      const hostPort = `${host}:${port}`;
      return { host, port, hostPort, ...firestoreEmulatorAt(hostPort), stop: started.stop };
    } catch (error) {
      const taken =
        error instanceof EmulatorStartError && /already in use|BindException/i.test(error.message);
      if (!taken || attempt >= 3) throw error;
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  if (process.argv[2] !== '--check') {
    console.error('usage: node --import tsx drivers/firestoreEmulator.ts --check');
    process.exit(2);
  }
  const missing = firestoreEmulatorMissing();
  if (missing) console.error(missing);
  process.exit(missing ? 1 : 0);
}
