// Firebase as it is deployed, on this machine's emulators: Google's Cloud Firestore emulator (the jar the machine
// image ships, drivers/firestoreEmulator.ts: firebase-tools 15 refuses Java below 21 for its own launcher) with
// firestore.rules, and firebase-tools' Auth, Functions and Hosting emulators pointed at it, with functions/'s
// built lib/ and firebase.json's hosting section. Everything listens on loopback on ports picked free, starts
// within a deadline or fails saying why (drivers/emulatorProcess.ts), and stops with the run. Used by the
// emulator suite (e2e/firebase) and `npm run firebase:emulators`.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { answers, freePort, restCall, startEmulatorProcess } from './emulatorProcess';
import type { EmulatorProcess } from './emulatorProcess';
import { startCloudStorageStandIn } from './cloudStorageStandIn';
import type { CloudStorageStandIn } from './cloudStorageStandIn';
import { firestoreEmulatorMissing, startFirestoreEmulator } from './firestoreEmulator';
import type { FirestoreEmulator } from './firestoreEmulator';

const ROOT = path.resolve(__dirname, '..');
const LOOPBACK = '127.0.0.1';

/** A "demo-" project: firebase-tools uses no credentials for it and reaches no real service. */
export const EMULATOR_PROJECT_ID = 'demo-qupm';
/** The default bucket the Functions emulator gives the Admin SDK (firebase-tools' adminSdkConfig). */
export const EMULATOR_BUCKET = `${EMULATOR_PROJECT_ID}.appspot.com`;

const FUNCTIONS_ENTRY = path.join(ROOT, 'functions', 'lib', 'functions', 'src', 'index.js');

/**
 * firebase-tools loads its CLI, then every function of lib/ (one discovery run of the code): about 30 s on an idle
 * 2-core machine, several times that under load (over 240 s once, with seven test runs sharing two cores).
 */
const FIREBASE_TOOLS_START_MS = 360_000;

export interface EmulatorPorts {
  firestore: number;
  auth: number;
  functions: number;
  hosting: number;
  /** firebase-tools' own: its hub, its log stream, and two emulators it may start for some function kinds. */
  hub: number;
  logging: number;
  eventarc: number;
  tasks: number;
}

export interface RunningEmulators {
  projectId: string;
  ports: EmulatorPorts;
  hostingUrl: string;
  functionsUrl: string;
  authUrl: string;
  firestoreUrl: string;
  /** The Cloud Storage stand-in's (drivers/cloudStorageStandIn.ts), which the functions' Admin SDK lists. */
  storageUrl: string;
  /** The end of what firebase-tools printed, for a failing test to show. */
  output(): string;
  stop(): Promise<void>;
}

/** One free port per emulator, all different. */
export async function pickEmulatorPorts(): Promise<EmulatorPorts> {
  const names = ['firestore', 'auth', 'functions', 'hosting', 'hub', 'logging', 'eventarc', 'tasks'] as const;
  const taken = new Set<number>();
  const ports = {} as EmulatorPorts;
  for (const name of names) {
    let port = await freePort();
    while (taken.has(port)) port = await freePort();
    taken.add(port);
    ports[name] = port;
  }
  return ports;
}

/** The web build's variables for a Firebase build that talks to these emulators (src/backend/firebase/config.ts). */
export function firebaseBuildEnv(ports: EmulatorPorts): Record<string, string> {
  return {
    QUPM_BACKEND: 'firebase',
    // The Auth emulator accepts any API key; the rest only has to be well formed.
    QUPM_FIREBASE_API_KEY: 'demo-api-key',
    QUPM_FIREBASE_AUTH_DOMAIN: `${EMULATOR_PROJECT_ID}.firebaseapp.com`,
    QUPM_FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID,
    QUPM_FIREBASE_APP_ID: '1:000000000000:web:0000000000000000000000',
    QUPM_FIREBASE_MESSAGING_SENDER_ID: '000000000000',
    QUPM_VAPID_PUBLIC_KEY:
      'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U',
    QUPM_FIREBASE_FUNCTIONS_REGION: 'us-central1',
    QUPM_FIREBASE_AUTH_EMULATOR_HOST: `${LOOPBACK}:${ports.auth}`,
    QUPM_FIREBASE_FIRESTORE_EMULATOR_HOST: `${LOOPBACK}:${ports.firestore}`,
    QUPM_FIREBASE_FUNCTIONS_EMULATOR_HOST: `${LOOPBACK}:${ports.functions}`,
  };
}

/** The origins a build made with firebaseBuildEnv connects to instead of Google's services. */
export function emulatorOrigins(ports: EmulatorPorts): string[] {
  return [ports.auth, ports.firestore, ports.functions].map((port) => `http://${LOOPBACK}:${port}`);
}

/**
 * firebase.json's Content-Security-Policy with the emulators' origins added to connect-src: the one change the
 * emulator run makes to Hosting's headers, since the page talks to them instead of Google's hosts.
 */
export function withEmulatorOrigins(csp: string, origins: readonly string[]): string {
  return csp
    .split(';')
    .map((directive) => {
      const trimmed = directive.trim();
      return trimmed.startsWith('connect-src ') ? `${trimmed} ${origins.join(' ')}` : trimmed;
    })
    .join('; ');
}

/** What stops the emulators from starting on this machine, in one line, or null. */
export function firebaseEmulatorsMissing(): string | null {
  const firestore = firestoreEmulatorMissing();
  if (firestore) return firestore;
  if (!existsSync(FUNCTIONS_ENTRY)) {
    return 'functions/ is not built: run npm --prefix functions run build (its lib/ is what the emulator loads).';
  }
  return null;
}

interface HeaderRule {
  source?: string;
  regex?: string;
  headers: { key: string; value: string }[];
}
interface FirebaseJson {
  hosting: { public: string; headers: HeaderRule[]; predeploy?: unknown; [key: string]: unknown };
  functions: { source: string; predeploy?: unknown; [key: string]: unknown }[];
}

/** The project's firebase.json, as deployed. */
export function readFirebaseJson(): FirebaseJson {
  return JSON.parse(readFileSync(path.join(ROOT, 'firebase.json'), 'utf8')) as FirebaseJson;
}

/**
 * The configuration the emulators run from, in a folder of their own: firebase.json's hosting and functions
 * sections as they are (but Hosting serves `hostingDir`, and connect-src names the emulators), functions/ read
 * from the project, its parameters from a .env.local here (firebase-tools would otherwise write one into
 * functions/), and the emulators on the picked ports. Firestore is not among them: the jar runs it.
 */
function writeEmulatorConfig(folder: string, ports: EmulatorPorts, hostingDir: string): void {
  const project = readFirebaseJson();
  const { predeploy: _hostingPredeploy, ...hosting } = project.hosting;
  const origins = emulatorOrigins(ports);
  const headers = hosting.headers.map((rule) => ({
    ...rule,
    headers: rule.headers.map((header) =>
      header.key === 'Content-Security-Policy'
        ? { ...header, value: withEmulatorOrigins(header.value, origins) }
        : header,
    ),
  }));
  const functions = project.functions.map(({ predeploy: _predeploy, ...codebase }) => ({
    ...codebase,
    // Relative to this folder, so that Node resolves the functions' packages from the project's node_modules.
    source: path.relative(folder, path.join(ROOT, codebase.source)),
    configDir: '.',
  }));
  const at = (port: number) => ({ host: LOOPBACK, port });
  const config = {
    hosting: { ...hosting, public: path.relative(folder, hostingDir), headers },
    functions,
    emulators: {
      singleProjectMode: true,
      auth: at(ports.auth),
      functions: at(ports.functions),
      hosting: at(ports.hosting),
      hub: at(ports.hub),
      logging: at(ports.logging),
      eventarc: at(ports.eventarc),
      tasks: at(ports.tasks),
      ui: { enabled: false },
    },
  };
  writeFileSync(path.join(folder, 'firebase.json'), JSON.stringify(config, null, 2));
  // The functions' parameters (functions/src/params.ts) at their defaults: notification links point at the
  // project's default Hosting site, as on a first deploy.
  writeFileSync(
    path.join(folder, '.env.local'),
    'QUPM_FUNCTIONS_REGION=us-central1\nQUPM_ENFORCE_APP_CHECK=false\nQUPM_APP_ORIGIN=\n',
  );
}

interface FunctionTrigger {
  id: string;
  eventTrigger?: {
    eventType: string;
    eventFilters?: { database?: string; namespace?: string; document?: string };
    eventFilterPathPatterns?: { document?: string };
  };
}

/** The functions the Functions emulator loaded (its own listing). */
export async function loadedFunctions(functionsUrl: string): Promise<FunctionTrigger[]> {
  const answer = await restCall(`${functionsUrl}/backends`, 'GET');
  const backends = (answer.body as { backends?: { functionTriggers?: FunctionTrigger[] }[] } | null)
    ?.backends;
  return (backends ?? []).flatMap((backend) => backend.functionTriggers ?? []);
}

/**
 * Tells the jar which functions to call on document writes, as firebase-tools does for a Firestore emulator it
 * started itself (it skips them otherwise). The key is the Functions emulator's own: the function's id and its
 * trigger generation, 0 for an emulator whose functions were loaded once.
 */
async function registerFirestoreTriggers(functionsUrl: string, firestoreUrl: string): Promise<number> {
  let registered = 0;
  for (const trigger of await loadedFunctions(functionsUrl)) {
    const event = trigger.eventTrigger;
    if (!event?.eventType.startsWith('google.cloud.firestore.document.v1.')) continue;
    const pattern = event.eventFilterPathPatterns?.document;
    const answer = await restCall(
      `${firestoreUrl}/emulator/v1/projects/${EMULATOR_PROJECT_ID}/eventarcTrigger?eventarcTriggerId=${trigger.id}-0`,
      'POST',
      {
        eventType: event.eventType,
        database: event.eventFilters?.database ?? '(default)',
        namespace: event.eventFilters?.namespace ?? '(default)',
        document: {
          value: pattern ?? event.eventFilters?.document,
          matchType: pattern ? 'PATH_PATTERN' : 'EXACT',
        },
      },
    );
    if (answer.status !== 200) {
      throw new Error(
        `The Firestore emulator refused the trigger ${trigger.id}: ${JSON.stringify(answer.body)}`,
      );
    }
    registered += 1;
  }
  return registered;
}

/** firebase-tools' Auth, Functions and Hosting emulators, from a configuration written for the run. */
async function startFirebaseTools(
  ports: EmulatorPorts,
  hostingDir: string,
  storageHost: string,
): Promise<{ process: EmulatorProcess; folder: string }> {
  const folder = mkdtempSync(path.join(tmpdir(), 'qupm-firebase-emulators-'));
  writeEmulatorConfig(folder, ports, hostingDir);
  const functionsUrl = `http://${LOOPBACK}:${ports.functions}`;
  try {
    const started = await startEmulatorProcess({
      name: 'firebase-tools (Auth, Functions and Hosting emulators)',
      command: process.execPath,
      args: [
        require.resolve('firebase-tools/lib/bin/firebase.js'),
        'emulators:start',
        '--only',
        'auth,functions,hosting',
        '--project',
        EMULATOR_PROJECT_ID,
      ],
      cwd: folder,
      env: {
        ...process.env,
        // Offline and unattended (ARCHITECTURE.md "What these machines allow"): no prompts, no update check, no
        // probe of Google's metadata server for credentials.
        CI: '1',
        METADATA_SERVER_DETECTION: 'none',
        NO_UPDATE_NOTIFIER: '1',
        // The functions' Admin SDK reaches the jar through this: firebase-tools sets it only for a Firestore
        // emulator it started itself.
        FIRESTORE_EMULATOR_HOST: `${LOOPBACK}:${ports.firestore}`,
        // And Cloud Storage through this (firebase-admin makes STORAGE_EMULATOR_HOST of it): the stand-in, as
        // firebase-tools' Storage emulator downloads a jar these machines cannot fetch.
        FIREBASE_STORAGE_EMULATOR_HOST: storageHost,
      },
      // Ready once the three serve and the functions are loaded (Hosting and Auth answer before that). Hosting is
      // asked last: it logs every request, and its lines would crowd out the output a failed start shows.
      ready: async () =>
        (await answers(`http://${LOOPBACK}:${ports.auth}/`)) &&
        (await loadedFunctions(functionsUrl)).length > 0 &&
        (await answers(`http://${LOOPBACK}:${ports.hosting}/__/firebase/init.json`)),
      timeoutMs: FIREBASE_TOOLS_START_MS,
      // Its shutdown stops the Functions workers it runs: give it the time.
      stopGraceMs: 15_000,
    });
    return { process: started, folder };
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

export interface StartOptions {
  ports: EmulatorPorts;
  /** The web build Hosting serves (it may still be being built: Hosting reads files when asked). */
  hostingDir: string;
}

/**
 * Starts the Firestore jar (with firestore.rules) and firebase-tools side by side, then registers the Firestore
 * triggers of the loaded functions with the jar. Fails with one line when Java, the jar or functions/lib is
 * missing; whatever was started is stopped on any failure.
 */
export async function startFirebaseEmulators(options: StartOptions): Promise<RunningEmulators> {
  const missing = firebaseEmulatorsMissing();
  if (missing) throw new Error(missing);
  const { ports } = options;
  const firestoreUrl = `http://${LOOPBACK}:${ports.firestore}`;
  const functionsUrl = `http://${LOOPBACK}:${ports.functions}`;
  // In this process, on a free port: it answers at once, and stops with the run.
  const storage: CloudStorageStandIn = await startCloudStorageStandIn();
  const [firestore, tools] = await Promise.allSettled([
    startFirestoreEmulator({ port: ports.firestore, functionsEmulator: `${LOOPBACK}:${ports.functions}` }),
    startFirebaseTools(ports, options.hostingDir, storage.host),
  ]);
  const jar: FirestoreEmulator | null = firestore.status === 'fulfilled' ? firestore.value : null;
  const cli = tools.status === 'fulfilled' ? tools.value : null;
  const stop = async () => {
    // firebase-tools first: its functions must not meet a Firestore that is gone.
    await cli?.process.stop();
    if (cli) rmSync(cli.folder, { recursive: true, force: true });
    await jar?.stop();
    await storage.close();
  };
  try {
    if (!jar) throw (firestore as PromiseRejectedResult).reason;
    if (!cli) throw (tools as PromiseRejectedResult).reason;
    await jar.loadRules(EMULATOR_PROJECT_ID, readFileSync(path.join(ROOT, 'firestore.rules'), 'utf8'));
    if ((await registerFirestoreTriggers(functionsUrl, firestoreUrl)) === 0) {
      throw new Error(`The Functions emulator loaded no Firestore trigger:\n${cli.process.output()}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    projectId: EMULATOR_PROJECT_ID,
    ports,
    hostingUrl: `http://${LOOPBACK}:${ports.hosting}`,
    functionsUrl,
    authUrl: `http://${LOOPBACK}:${ports.auth}`,
    firestoreUrl,
    storageUrl: storage.url,
    output: () => cli.process.output(),
    stop,
  };
}

/** `npm run build` with the emulators' Firebase config (QUPM_BACKEND=firebase and their hosts), into `outDir`. */
export function buildForEmulators(outDir: string, ports: EmulatorPorts): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const build = spawn('npm', ['run', '-s', 'build', '--', '--env', `outDir=${outDir}`], {
      cwd: ROOT,
      env: { ...process.env, ...firebaseBuildEnv(ports) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-8_000);
    };
    build.stdout.on('data', keep);
    build.stderr.on('data', keep);
    build.on('error', reject);
    build.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`The Firebase build for the emulators failed:\n${output}`)),
    );
  });
}

export interface FirebaseApp {
  emulators: RunningEmulators;
  /** The build Hosting serves. */
  hostingDir: string;
  stop(): Promise<void>;
}

/**
 * The app on the emulators: the Firebase build made for them (once, into a temporary folder) while they start,
 * on free ports. Whatever was started is stopped when either fails.
 */
export async function startFirebaseApp(): Promise<FirebaseApp> {
  const missing = firebaseEmulatorsMissing();
  if (missing) throw new Error(missing);
  const ports = await pickEmulatorPorts();
  const hostingDir = mkdtempSync(path.join(tmpdir(), 'qupm-firebase-build-'));
  const [built, started] = await Promise.allSettled([
    buildForEmulators(hostingDir, ports),
    startFirebaseEmulators({ ports, hostingDir }),
  ]);
  const emulators = started.status === 'fulfilled' ? started.value : null;
  if (built.status === 'rejected' || !emulators) {
    await emulators?.stop();
    rmSync(hostingDir, { recursive: true, force: true });
    throw built.status === 'rejected' ? built.reason : (started as PromiseRejectedResult).reason;
  }
  return {
    emulators,
    hostingDir,
    async stop() {
      await emulators.stop();
      rmSync(hostingDir, { recursive: true, force: true });
    },
  };
}

/** The variable that names a running app's emulators to the emulator suite (JSON of EmulatorAddresses). */
export const EMULATORS_VARIABLE = 'QUPM_FIREBASE_EMULATORS';

/** What the emulator suite needs to know of a started app. */
export interface EmulatorAddresses {
  projectId: string;
  hostingUrl: string;
  functionsUrl: string;
  authUrl: string;
  firestoreUrl: string;
  storageUrl: string;
  ports: EmulatorPorts;
  hostingDir: string;
}

export function addressesOf({ emulators, hostingDir }: FirebaseApp): EmulatorAddresses {
  const { projectId, hostingUrl, functionsUrl, authUrl, firestoreUrl, storageUrl, ports } = emulators;
  return { projectId, hostingUrl, functionsUrl, authUrl, firestoreUrl, storageUrl, ports, hostingDir };
}
