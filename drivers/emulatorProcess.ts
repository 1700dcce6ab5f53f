// A local emulator as a child process that cannot outlive the run that started it: it is started on a free
// loopback port, waited for until it answers (bounded, with a clear error and its last output, never a hang), and
// stopped. On Linux it is started under `setpriv --pdeathsig KILL`, so the kernel kills it when its parent dies in
// any way (a test run killed with SIGKILL, a crash); a parent that exits normally kills it on its way out too.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { get, request } from 'node:http';
import { createServer } from 'node:net';

/** util-linux's setpriv (Debian's util-linux is essential, so every Debian machine has it). */
const SETPRIV = '/usr/bin/setpriv';

/** How long one readiness probe may take before it counts as no answer. */
const PROBE_TIMEOUT_MS = 2_000;
const PROBE_INTERVAL_MS = 100;
/** How long a stopped process gets to end by itself (SIGTERM) before it is killed (SIGKILL). */
const STOP_GRACE_MS = 5_000;
/** The output kept for an error message: the end of what the process printed. */
const OUTPUT_KEPT_CHARS = 4_000;

/** A free TCP port on the loopback interface, as the kernel hands one out. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

export interface EmulatorProcessOptions {
  /** What it is, for messages: "the Firestore emulator". */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Answers true once the process serves (called until it does, or the time is up). */
  ready: () => Promise<boolean>;
  /** How long it may take to answer. */
  timeoutMs: number;
  /** How long a stop waits for it to end by itself before killing it. */
  stopGraceMs?: number;
}

export interface EmulatorProcess {
  readonly pid: number;
  /** The end of what it printed (stdout and stderr). */
  output(): string;
  /** Stops it: SIGTERM, then SIGKILL after a grace period; resolves once it has exited. */
  stop(): Promise<void>;
}

/** A start that failed: one line a person can act on, then what the process printed. */
export class EmulatorStartError extends Error {
  override readonly name = 'EmulatorStartError';
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers run synchronously: a signal is all that can be sent, and SIGKILL needs no answer.
  process.once('exit', () => {
    for (const process of running) process.kill('SIGKILL');
  });
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startEmulatorProcess(options: EmulatorProcessOptions): Promise<EmulatorProcess> {
  const guarded = existsSync(SETPRIV);
  const child = spawn(
    guarded ? SETPRIV : options.command,
    guarded ? ['--pdeathsig', 'KILL', '--', options.command, ...options.args] : options.args,
    { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let spawnError: Error | null = null;
  child.once('error', (error) => {
    spawnError = error;
  });
  killOnExit(child);

  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    // The grace timer is cleared once it exits: a pending one would keep the stopping process (Jest's) alive.
    const grace = setTimeout(() => child.kill('SIGKILL'), options.stopGraceMs ?? STOP_GRACE_MS);
    await exited(child);
    clearTimeout(grace);
  };
  const lastLines = () =>
    output
      .trim()
      .split('\n')
      .slice(-15)
      .map((line) => `  ${line}`)
      .join('\n');

  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (spawnError) {
      throw new EmulatorStartError(`${options.name} could not be started: ${(spawnError as Error).message}`);
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new EmulatorStartError(
        `${options.name} exited (${child.exitCode ?? child.signalCode}) before it answered:\n${lastLines()}`,
      );
    }
    if (await options.ready().catch(() => false)) break;
    if (Date.now() >= deadline) {
      await stop();
      throw new EmulatorStartError(
        `${options.name} did not answer within ${Math.round(options.timeoutMs / 1000)} s; its last output:\n${lastLines()}`,
      );
    }
    await delay(PROBE_INTERVAL_MS);
  }
  return { pid: child.pid ?? 0, output: () => output, stop };
}

/**
 * GET `url` answers 2xx within the probe timeout. A connection of its own, closed after the answer: a kept-alive
 * one would hold the process that started the emulator (Jest's) open after its run.
 */
export function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = get(url, { agent: false, timeout: PROBE_TIMEOUT_MS }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve((response.statusCode ?? 0) >= 200 && (response.statusCode ?? 0) < 300),
      );
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

/**
 * A call to an emulator's REST endpoint on a connection of its own (see answers()): its status and its body,
 * parsed when it is JSON.
 */
export function restCall(
  url: string,
  method: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const call = request(
      url,
      {
        method,
        agent: false,
        headers: payload === undefined ? {} : { 'content-type': 'application/json' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text === '' ? null : JSON.parse(text);
          } catch {
            // not JSON: the text itself
          }
          resolve({ status: response.statusCode ?? 0, body: parsed });
        });
      },
    );
    call.on('error', reject);
    call.end(payload);
  });
}
