// .ci/run's stage machinery (.ci/stages.sh), driven in bash with stand-in stages: every test and check is counted
// once into the closing "N passed, N failed", a stage that fails without a report still fails the run, stages of
// a `together` group really run at the same time, a begun stage runs beside what comes after it and is counted even
// when nobody awaits it, and the table names each stage with its wall and CPU time.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const STAGES = path.join(__dirname, '..', '..', '.ci', 'stages.sh');

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'qupm-ci-'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `script` in bash after sourcing the stage machinery; `$SCRATCH` is a folder of the test's own. */
function run(script: string): { code: number | null; out: string; lines: string[] } {
  const result = spawnSync('bash', ['-c', `set -uo pipefail\nsource "${STAGES}"\n${script}`], {
    encoding: 'utf8',
    env: { ...process.env, SCRATCH: scratch },
  });
  const out = result.stdout + result.stderr;
  return { code: result.status, out, lines: out.trimEnd().split('\n') };
}

/** A stand-in Jest stage: writes a Jest --json report with these counts and exits with `code`. */
const jestReport = (passed: number, failed: number, code = failed > 0 ? 1 : 0) =>
  `echo '{"numPassedTests":${passed},"numFailedTests":${failed},"numRuntimeErrorTestSuites":0}' >"$STAGE_JSON"; exit ${code}`;

/** The table row of a stage: its name, its wall seconds, its CPU seconds and its result. */
const row = (lines: string[], name: string) => lines.find((line) => line.startsWith(`  ${name} `));

describe('.ci/stages.sh', () => {
  it('counts a check as one test and each test of a Jest report, and ends "N passed, N failed" with exit 0', () => {
    const { code, lines } = run(`
      tests() { ${jestReport(12, 0)}; }
      stage "lint" check true
      stage "unit tests" jest tests
      finish`);
    expect(lines.at(-1)).toBe('13 passed, 0 failed');
    expect(code).toBe(0);
    expect(row(lines, 'lint')).toMatch(/^ {2}lint +\d+ s +\d+ s {2}ok$/);
    expect(row(lines, 'unit tests')).toMatch(/ {2}ok \(12 passed, 0 failed\)$/);
  });

  it('fails the run on a failed check or a failed test, and says which stage failed', () => {
    const { code, lines } = run(`
      tests() { ${jestReport(3, 2)}; }
      stage "types" check false
      stage "browser tests" jest tests
      finish`);
    expect(lines.at(-1)).toBe('3 passed, 3 failed');
    expect(code).toBe(1);
    expect(row(lines, 'types')).toMatch(/FAILED$/);
    expect(row(lines, 'browser tests')).toMatch(/FAILED \(3 passed, 2 failed\)$/);
  });

  it('counts a Jest stage that stops without a report, or exits non-zero with none failed, as one failure', () => {
    const { code, lines } = run(`
      crashed() { echo "globalSetup threw"; return 1; }
      refused() { ${jestReport(5, 0, 1)}; }
      stage "on the emulators" jest crashed
      stage "contract" jest refused
      finish`);
    expect(lines).toContain('globalSetup threw');
    expect(row(lines, 'on the emulators')).toMatch(/FAILED \(0 passed, 1 failed\)$/);
    expect(row(lines, 'contract')).toMatch(/FAILED \(5 passed, 1 failed\)$/);
    expect(lines.at(-1)).toBe('5 passed, 2 failed');
    expect(code).toBe(1);
  });

  it('runs the stages of a group at the same time, and prints each one’s output whole', () => {
    // Each stage marks that it started and then waits (bounded) for the other's mark: run one after the other,
    // neither would see the other's.
    const { code, lines } = run(`
      meet() { touch "$SCRATCH/$1"; for _ in $(seq 100); do [ -e "$SCRATCH/$2" ] && echo "$1 met $2" && return 0; sleep 0.1; done; echo "$1 alone"; return 1; }
      first() { meet a b; }
      second() { meet b a; }
      together "first|check|first" "second|check|second"
      finish`);
    expect(lines).toEqual(expect.arrayContaining(['a met b', 'b met a']));
    expect(lines.indexOf('---- output of: first')).toBeLessThan(lines.indexOf('a met b'));
    expect(lines.indexOf('---- output of: second')).toBeLessThan(lines.indexOf('b met a'));
    expect(lines.at(-1)).toBe('2 passed, 0 failed');
    expect(code).toBe(0);
  });

  it('gives each stage of a group its own report, and counts a failed one', () => {
    const { code, lines } = run(`
      good() { ${jestReport(4, 0)}; }
      bad() { ${jestReport(1, 1)}; }
      together "good|jest|good" "bad|jest|bad"
      finish`);
    expect(row(lines, 'good')).toMatch(/ok \(4 passed, 0 failed\)$/);
    expect(row(lines, 'bad')).toMatch(/FAILED \(1 passed, 1 failed\)$/);
    expect(lines.at(-1)).toBe('5 passed, 1 failed');
    expect(code).toBe(1);
  });

  it('runs a begun stage beside the stages after it, and records it when awaited, under a name with spaces', () => {
    // The begun stage waits (bounded) for a mark that only the stage after it makes: were `begin` to wait for its
    // stage, it would never see it, and the run would hang on the bound and fail.
    const { code, lines } = run(`
      waits() { for _ in $(seq 100); do [ -e "$SCRATCH/built" ] && echo "saw the build" && return 0; sleep 0.1; done; return 1; }
      tests() { ${jestReport(3, 0)}; }
      begin "browser tests (two workers)|check|waits"
      stage "build" check touch "$SCRATCH/built"
      begin "unit tests|jest|tests"
      await_stages "browser tests (two workers)" "unit tests"
      finish`);
    expect(lines.indexOf('---- output of: browser tests (two workers)')).toBeLessThan(
      lines.indexOf('saw the build'),
    );
    expect(row(lines, 'browser tests (two workers)')).toMatch(/ok$/);
    expect(row(lines, 'unit tests')).toMatch(/ok \(3 passed, 0 failed\)$/);
    expect(lines.at(-1)).toBe('5 passed, 0 failed');
    expect(code).toBe(0);
  });

  it('counts a begun stage nobody awaited when the run finishes, and fails the run when it failed', () => {
    const { code, lines } = run(`
      bad() { ${jestReport(2, 1)}; }
      begin "forgotten|jest|bad"
      stage "lint" check true
      finish`);
    expect(row(lines, 'forgotten')).toMatch(/FAILED \(2 passed, 1 failed\)$/);
    expect(lines.at(-1)).toBe('3 passed, 1 failed');
    expect(code).toBe(1);
  });

  it('lists every stage in the table in the order they ended, then the total', () => {
    const { lines } = run(`
      stage "npm ci" check true
      stage "build" check true
      finish`);
    const table = lines.slice(lines.indexOf('==> stage times') + 1);
    expect(table.map((line) => line.trim().split(/ {2,}/)[0])).toEqual([
      'stage',
      'npm ci',
      'build',
      'total',
      '2 passed, 0 failed',
    ]);
  });
});
