// Lighthouse on the production build: mobile preset (Lighthouse's default), five runs against the
// embedded server on localhost, the median of each score and metric. Lighthouse 12.8 (13 needs Node 22) drives
// Debian's Chromium (CHROME_PATH, default /usr/bin/chromium); each run starts with cleared storage, so it measures
// a first visit, before any service worker.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildServer } from '../server/app';
import { CHROMIUM_ARGS } from '../drivers/chromium';

// Lighthouse runs as its own CLI process: it serialises functions into the page, and the TypeScript loader this
// script runs under would rename them into code the page cannot run.
const LIGHTHOUSE_CLI = path.join(__dirname, '..', 'node_modules', 'lighthouse', 'cli', 'index.js');
const run = promisify(execFile);

interface Lhr {
  lighthouseVersion: string;
  runtimeError?: { message: string };
  categories: Record<string, { score: number | null } | undefined>;
  audits: Record<string, { numericValue?: number } | undefined>;
}

export const LIGHTHOUSE_RUNS = 5;
/** The bars: each category's median score must reach these (0-100). */
export const LIGHTHOUSE_BARS = { performance: 95, accessibility: 95, 'best-practices': 95 } as const;
type Category = keyof typeof LIGHTHOUSE_BARS;
const CATEGORIES = Object.keys(LIGHTHOUSE_BARS) as Category[];
const METRICS = {
  lcpMs: 'largest-contentful-paint',
  tbtMs: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  fcpMs: 'first-contentful-paint',
} as const;
type Metric = keyof typeof METRICS;

export interface LighthouseReport {
  runs: number;
  url: string;
  lighthouseVersion: string;
  medians: Record<Category, number> & Record<Metric, number>;
  each: Array<Record<Category, number> & Record<Metric, number>>;
  failing: string[];
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Lighthouse sometimes loses the trace of a load (NO_NAVSTART); such a run is repeated, up to this often. */
const ATTEMPTS = 3;

async function attempt(url: string): Promise<Lhr> {
  try {
    const { stdout } = await run(
      process.execPath,
      [
        LIGHTHOUSE_CLI,
        url,
        '--output=json',
        '--quiet',
        `--only-categories=${CATEGORIES.join(',')}`,
        `--chrome-flags=${CHROMIUM_ARGS.join(' ')}`,
      ],
      {
        env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return JSON.parse(stdout) as Lhr;
  } catch (error) {
    // The CLI exits non-zero on a runtime error but still prints its report.
    const stdout = (error as { stdout?: unknown }).stdout;
    if (typeof stdout === 'string' && stdout.startsWith('{')) return JSON.parse(stdout) as Lhr;
    throw new Error(`Lighthouse did not run: ${String((error as Error).message).slice(0, 300)}`, {
      cause: error,
    });
  }
}

async function runOnce(url: string): Promise<Lhr> {
  let last = '';
  for (let i = 0; i < ATTEMPTS; i += 1) {
    const lhr = await attempt(url);
    if (!lhr.runtimeError) return lhr;
    last = lhr.runtimeError.message;
  }
  throw new Error(`Lighthouse failed ${ATTEMPTS} times: ${last}`);
}

/** Serves `buildDir` with the real server on localhost and runs Lighthouse on `/` five times. */
export async function benchLighthouse(buildDir: string): Promise<LighthouseReport> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qupm-lighthouse-'));
  const app = await buildServer({ staticDir: buildDir, dataDir, demo: true, rateLimits: false });
  await app.listen({ port: 0, host: 'localhost' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('The server has no TCP address');
  const url = `http://localhost:${address.port}/`;
  const each: LighthouseReport['each'] = [];
  let lighthouseVersion = '';
  try {
    for (let i = 0; i < LIGHTHOUSE_RUNS; i += 1) {
      const lhr = await runOnce(url);
      lighthouseVersion = lhr.lighthouseVersion;
      const scores = Object.fromEntries(
        CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
      ) as Record<Category, number>;
      const metrics = Object.fromEntries(
        (Object.keys(METRICS) as Metric[]).map((m) => [
          m,
          lhr.audits[METRICS[m]]?.numericValue ?? Number.NaN,
        ]),
      ) as Record<Metric, number>;
      each.push({ ...scores, ...metrics });
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const keys = [...CATEGORIES, ...(Object.keys(METRICS) as Metric[])];
  const medians = Object.fromEntries(
    keys.map((k) => [k, median(each.map((run) => run[k]))]),
  ) as LighthouseReport['medians'];
  const failing = CATEGORIES.filter((c) => medians[c] < LIGHTHOUSE_BARS[c]).map(
    (c) => `${c} ${medians[c]} < ${LIGHTHOUSE_BARS[c]}`,
  );
  return { runs: LIGHTHOUSE_RUNS, url, lighthouseVersion, medians, each, failing };
}

export function lighthouseMarkdown(report: LighthouseReport): string {
  const m = report.medians;
  return [
    `## Lighthouse (${report.lighthouseVersion}, mobile preset, median of ${report.runs}, production build)`,
    '',
    '| category | median | bar |',
    '|---|---:|---:|',
    ...CATEGORIES.map((c) => `| ${c} | ${m[c]} | ≥ ${LIGHTHOUSE_BARS[c]} |`),
    '',
    `LCP ${Math.round(m.lcpMs)} ms, TBT ${Math.round(m.tbtMs)} ms, CLS ${m.cls.toFixed(3)}, FCP ${Math.round(m.fcpMs)} ms.`,
    '',
    report.failing.length === 0 ? 'Every bar is met.' : `**Below the bar:** ${report.failing.join('; ')}`,
    '',
  ].join('\n');
}
