// The Firebase Auth emulator of the installed firebase-tools (a dev dependency; it runs offline), started alone on
// free loopback ports from a firebase.json written for the run, so that two runs on one machine never meet: its
// hub and logging ports are free ones too, and its working folder (where it writes firebase-debug.log) is a
// temporary one. Used by the contract suite's run on the emulators.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { answers, freePort, restCall, startEmulatorProcess } from './emulatorProcess';

/** firebase-tools loads a large CLI and compiles the emulator's API spec: seconds idle, far more under load. */
const START_TIMEOUT_MS = 120_000;

export interface OobCode {
  email: string;
  requestType: 'VERIFY_EMAIL' | 'PASSWORD_RESET' | 'VERIFY_AND_CHANGE_EMAIL' | string;
  oobCode: string;
  newEmail?: string;
}

export interface AuthEmulator {
  host: string;
  port: number;
  /** host:port, as FIREBASE_AUTH_EMULATOR_HOST takes it. */
  hostPort: string;
  projectId: string;
  stop(): Promise<void>;
}

/** The emulator's own REST endpoints (not Google's API), for an emulator at `hostPort`. */
export function authEmulatorAt(hostPort: string, projectId: string) {
  const base = `http://${hostPort}/emulator/v1/projects/${projectId}`;
  const call = async (method: string, suffix: string): Promise<unknown> => {
    const answer = await restCall(`${base}${suffix}`, method);
    if (answer.status !== 200) {
      throw new Error(`The Auth emulator answered ${method} ${suffix} with ${answer.status}`);
    }
    return answer.body;
  };
  return {
    /** Deletes every account of the project. */
    clear: async (): Promise<void> => void (await call('DELETE', '/accounts')),
    /** The out-of-band codes (the links Auth would have mailed), oldest first. */
    oobCodes: async (): Promise<OobCode[]> =>
      ((await call('GET', '/oobCodes')) as { oobCodes?: OobCode[] } | null)?.oobCodes ?? [],
  };
}

/**
 * Starts the Auth emulator for `projectId` (a `demo-` project: firebase-tools then needs no login and reaches for
 * no real service) and resolves once it answers; on failure it is stopped and the error carries its output.
 */
export async function startAuthEmulator(options: {
  projectId: string;
  timeoutMs?: number;
}): Promise<AuthEmulator> {
  const host = '127.0.0.1';
  const [port, hub, logging] = [await freePort(), await freePort(), await freePort()];
  const folder = mkdtempSync(path.join(tmpdir(), 'qupm-auth-emulator-'));
  writeFileSync(
    path.join(folder, 'firebase.json'),
    JSON.stringify({
      emulators: {
        auth: { host, port },
        hub: { host, port: hub },
        logging: { host, port: logging },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const cli = require.resolve('firebase-tools/lib/bin/firebase.js');
  try {
    const started = await startEmulatorProcess({
      name: 'The Auth emulator (firebase-tools)',
      command: process.execPath,
      args: [
        cli,
        'emulators:start',
        '--only',
        'auth',
        '--project',
        options.projectId,
        '--config',
        'firebase.json',
      ],
      cwd: folder,
      env: {
        ...process.env,
        // Offline and unattended (ARCHITECTURE.md "What these machines allow"): no prompts, no update check, no
        // probe of Google's metadata server for credentials.
        CI: '1',
        METADATA_SERVER_DETECTION: 'none',
        NO_UPDATE_NOTIFIER: '1',
      },
      ready: () => answers(`http://${host}:${port}/`),
      timeoutMs: options.timeoutMs ?? START_TIMEOUT_MS,
    });
    return {
      host,
      port,
      hostPort: `${host}:${port}`,
      projectId: options.projectId,
      async stop() {
        await started.stop();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}
