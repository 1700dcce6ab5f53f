// The Firebase emulators' driver where no emulator is needed: what stops the emulator suite (npm run test:firebase,
// .ci/run's stage) on a machine without Java or the Firestore jar, said in one line and at once, never a hang; the
// one change the emulator run makes to Hosting's headers; and ports that never collide.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pickEmulatorPorts, readFirebaseJson, withEmulatorOrigins } from '../../drivers/firebaseEmulators';

const ROOT = path.resolve(__dirname, '../..');

/** The emulator suite as .ci/run starts it, with `env` changed; bounded, so that a hang fails the test. */
function runSuite(env: Record<string, string>, extra: string[] = []) {
  const { FIRESTORE_EMULATOR_HOST: _running, ...inherited } = process.env;
  return spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/test-on-emulators.ts', 'firebase', '--ci', ...extra],
    { cwd: ROOT, env: { ...inherited, ...env }, encoding: 'utf8', timeout: 60_000 },
  );
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

describe('the emulator suite on a machine that cannot run the emulators', () => {
  it('fails in one line naming the missing jar, and starts nothing', () => {
    const run = runSuite({ QUPM_FIRESTORE_EMULATOR_JAR: '/nowhere/cloud-firestore-emulator.jar' });
    expect(run.status).toBe(1);
    expect(lines(run.stderr)).toEqual([
      expect.stringMatching(
        /^The Firestore emulator cannot run here: missing the emulator jar \(\/nowhere\/cloud-firestore-emulator\.jar;/,
      ),
    ]);
    expect(run.stdout).toBe('');
  });

  it('fails in one line naming Java when there is none', () => {
    const run = runSuite({ JAVA: '/nowhere/java' });
    expect(run.status).toBe(1);
    expect(lines(run.stderr)).toEqual([
      expect.stringMatching(/^The Firestore emulator cannot run here: missing Java \(no java on PATH;/),
    ]);
  });

  it('says it did not run and succeeds, under --if-available (npm test on such a machine)', () => {
    const run = runSuite({ JAVA: '/nowhere/java' }, ['--if-available']);
    expect(run.status).toBe(0);
    expect(lines(run.stderr)).toEqual([
      expect.stringMatching(
        /^QuPM on the Firebase emulators: not run\. The Firestore emulator cannot run here/,
      ),
    ]);
  });
});

describe('withEmulatorOrigins', () => {
  it('adds the emulators to connect-src of firebase.json’s policy and changes nothing else', () => {
    const { hosting } = readFirebaseJson();
    const csp = hosting.headers
      .flatMap((rule) => rule.headers)
      .find((header) => header.key === 'Content-Security-Policy')?.value;
    if (!csp) throw new Error('firebase.json sets no Content-Security-Policy');
    const origins = ['http://127.0.0.1:9001', 'http://127.0.0.1:9002'];
    const directives = (policy: string) => policy.split(';').map((directive) => directive.trim());

    const changed = directives(withEmulatorOrigins(csp, origins));
    const before = directives(csp);
    expect(changed).toHaveLength(before.length);
    changed.forEach((directive, at) => {
      const original = before[at] ?? '';
      expect(directive).toBe(
        original.startsWith('connect-src ') ? `${original} ${origins.join(' ')}` : original,
      );
    });
    expect(changed.filter((directive) => directive.endsWith('http://127.0.0.1:9002'))).toHaveLength(1);
  });
});

describe('pickEmulatorPorts', () => {
  it('gives every emulator a port of its own', async () => {
    const ports = Object.values(await pickEmulatorPorts());
    expect(ports).toHaveLength(8);
    expect(new Set(ports).size).toBe(8);
    for (const port of ports) expect(port).toBeGreaterThan(0);
  });
});
