// The emulators' process driver at its bad moments, with a small Node server standing in for an emulator: one
// that answers late, never, or dies at once; a stop that has to kill; a parent that is killed outright.
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { EmulatorStartError, answers, freePort, startEmulatorProcess } from '../../drivers/emulatorProcess';
import { eventually } from '../support/eventually';

/** A stand-in emulator: listens on `port` after `after` ms, prints a line, ignores SIGTERM when told to. */
const STAND_IN = `
const [port, after, stubborn] = process.argv.slice(1);
if (stubborn === 'stubborn') process.on('SIGTERM', () => console.log('not stopping'));
console.log('starting');
setTimeout(() => {
  require('node:http').createServer((_, res) => res.end('Ok')).listen(Number(port), '127.0.0.1');
}, Number(after));
setInterval(() => undefined, 1000);
`;

const standIn = (port: number, after: number, extra: string[] = []) => ({
  name: 'The stand-in emulator',
  command: process.execPath,
  args: ['-e', STAND_IN, String(port), String(after), ...extra],
  ready: () => answers(`http://127.0.0.1:${port}/`),
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Whether a process whose command line contains `pattern` runs (pgrep answers 1 when none does). */
const running = (pattern: string): boolean => {
  try {
    execFileSync('pgrep', ['-f', pattern]);
    return true;
  } catch {
    return false;
  }
};

describe('startEmulatorProcess', () => {
  it('waits until it answers, then stops it', async () => {
    const port = await freePort();
    const started = await startEmulatorProcess({ ...standIn(port, 300), timeoutMs: 10_000 });
    expect(await answers(`http://127.0.0.1:${port}/`)).toBe(true);
    expect(started.output()).toContain('starting');
    await started.stop();
    expect(alive(started.pid)).toBe(false);
    expect(await answers(`http://127.0.0.1:${port}/`)).toBe(false);
  });

  it('gives up after its time with a clear error and the last output, and leaves nothing running', async () => {
    const port = await freePort();
    // Long enough for the stand-in (a Node process) to print under a loaded machine's slow start.
    const error = await startEmulatorProcess({ ...standIn(port, 60_000), timeoutMs: 3_000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EmulatorStartError);
    expect((error as Error).message).toMatch(
      /^The stand-in emulator did not answer within 3 s; its last output:\n {2}starting/,
    );
    expect(running(`${port} 60000`)).toBe(false);
  });

  it('shows what it printed while starting, not what it printed while being stopped', async () => {
    const port = await freePort();
    const error = await startEmulatorProcess({
      ...standIn(port, 60_000, ['stubborn']),
      timeoutMs: 3_000,
      stopGraceMs: 1_000,
    }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/its last output:\n {2}starting$/);
    expect(running(`${port} 60000`)).toBe(false);
  });

  it('says so at once when it exits before answering, with what it printed', async () => {
    const error = await startEmulatorProcess({
      name: 'The stand-in emulator',
      command: process.execPath,
      args: ['-e', "console.error('Address already in use'); process.exit(3)"],
      ready: async () => false,
      timeoutMs: 30_000,
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'The stand-in emulator exited (3) before it answered:\n  Address already in use',
    );
  });

  it('says so when the command does not exist', async () => {
    const error = await startEmulatorProcess({
      name: 'The stand-in emulator',
      command: '/nonexistent/java',
      args: [],
      ready: async () => false,
      timeoutMs: 30_000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorStartError);
    expect((error as Error).message).toMatch(
      /^The stand-in emulator (could not be started|exited \(\d+\) before it answered)/,
    );
  });

  it('kills one that ignores SIGTERM', async () => {
    const port = await freePort();
    const started = await startEmulatorProcess({
      ...standIn(port, 0, ['stubborn']),
      timeoutMs: 10_000,
      stopGraceMs: 300,
    });
    await started.stop();
    expect(alive(started.pid)).toBe(false);
    expect(started.output()).toContain('not stopping');
  });

  it('dies with the process that started it, even when that one is killed outright (SIGKILL)', async () => {
    const port = await freePort();
    // A parent that starts the stand-in through the driver, prints its pid, and waits to be killed.
    const parent = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `
        const { startEmulatorProcess, answers } = require(${JSON.stringify(path.resolve(__dirname, '../../drivers/emulatorProcess.ts'))});
        startEmulatorProcess({
          name: 'stand-in', command: process.execPath,
          args: ['-e', ${JSON.stringify(STAND_IN)}, '${port}', '0'],
          ready: () => answers('http://127.0.0.1:${port}/'), timeoutMs: 20000,
        }).then((started) => console.log('pid ' + started.pid));
        setInterval(() => undefined, 1000);
        `,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const pid = await new Promise<number>((resolve) => {
      let out = '';
      parent.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = /pid (\d+)/.exec(out);
        if (found) resolve(Number(found[1]));
      });
    });
    expect(alive(pid)).toBe(true);
    parent.kill('SIGKILL');
    await eventually(() => expect(alive(pid)).toBe(false));
    expect(await answers(`http://127.0.0.1:${port}/`)).toBe(false);
  }, 30_000);
});
