// `npm run bench`: measures what a user pays for and writes bench/reports/bench.{md,json}.
// The build's sizes, Lighthouse on that build, the push-token bookkeeping cost over 30 simulated days, the
// embedded server's latency, live message latency between two browsers, a channel of 10,000 messages opened and
// scrolled back through, push fan-out to 1,000 tokens, and the
// server's memory with 100 live streams that never read, and 10,000 open streams on one process. A
// Lighthouse median below its bar makes the run fail (exit code 1), after the reports are written.
// `npm run bench -- server` runs the server's part alone (bench/reports/server.{md,json}), without a build;
// `npm run bench -- streams` the 10,000 open streams alone (bench/reports/streams.{md,json}). Each ends with the
// table of speed goals as far as that run measured it (bench/goals.ts).
// `npm run bench -- firebase` the signed-in first screen on the Firebase build alone, on the emulators
// (bench/reports/firebase.{md,json}).
// `npm run bench -- firstscreen [buildDir]` Lighthouse and the live latency alone (bench/reports/firstscreen.md),
// on `buildDir` when given (a build kept between runs) or on a fresh build; a third word, `lighthouse` or
// `latency`, runs that one alone; `burst` runs the latency with its burst parts (the whole part `npm run bench` runs).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { buildProduction, reportBundle } from './bundle';
import { goalLines, goalsMarkdown } from './goals';
import type { GoalInputs } from './goals';
import { benchFirebaseFirstScreen } from './firebaseFirstScreen';
import { benchLighthouse, lighthouseMarkdown } from './lighthouse';
import { benchWarmStart } from './warmStart';
import { benchLongChannel } from './longChannel';
import { benchManyStreams } from './manyStreams';
import { benchMessageLatency } from './messageLatency';
import { benchPushFanout } from './pushFanout';
import { benchPushTokens } from './pushTokens';
import { benchOverviewGrowth, benchServer } from './server';
import { benchSlowReaders } from './streams';
import type { BundleReport } from './bundle';

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

function markdown(report: BundleReport): string {
  const lines = [
    '# QuPM benchmark',
    '',
    `Run ${new Date().toISOString()} on Node ${process.version}.`,
    '',
    '## Bundle (production build, gzip -9)',
    '',
    `Shell (everything before the first screen of \`/\`): **${kb(report.shell.gzipBytes)}** of ${kb(report.shell.budgetBytes)} budget.`,
    '',
    '| shell file | bytes | gzipped |',
    '|---|---:|---:|',
    ...report.shell.files.map((f) => `| ${f.file} | ${f.bytes} | ${f.gzipBytes} |`),
    '',
    `Firestore/Messaging/Functions modules in the shell: ${report.shell.lazyOnlyModules.length}`,
    '',
    '| route chunk | gzipped |',
    '|---|---:|',
    ...report.routes.map((r) => `| ${r.chunk} | ${kb(r.gzipBytes)} |`),
    '',
  ];
  return lines.join('\n');
}

/** The table of speed goals from the parts this run measured (bench/goals.ts). */
function goals(inputs: GoalInputs): { lines: ReturnType<typeof goalLines>; markdown: string } {
  const lines = goalLines(inputs);
  const load = loadavg().map((value) => Math.round(value * 10) / 10);
  return { lines, markdown: goalsMarkdown(lines, load) };
}

/** The server's part alone: no build, its own report files, so a change to the server is measured in minutes. */
async function serverOnly(): Promise<void> {
  const { markdown: serverMarkdown, ...server } = await benchServer();
  const { markdown: overviewMarkdown, ...overviewGrowth } = await benchOverviewGrowth();
  const { markdown: goalsMd, lines: issueTable } = goals({ server: { ...server, markdown: serverMarkdown } });
  const reportsDir = path.join(__dirname, 'reports');
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(
    path.join(reportsDir, 'server.json'),
    JSON.stringify({ date: new Date().toISOString(), server, overviewGrowth, issueTable }, null, 2),
  );
  const md = `${serverMarkdown}\n${overviewMarkdown}\n${goalsMd}`;
  writeFileSync(path.join(reportsDir, 'server.md'), md);
  console.log(md);
}

/** The 10,000 streams alone (bench/reports/streams.{md,json}). */
async function streamsOnly(): Promise<void> {
  const { markdown: streamsMarkdown, ...manyStreams } = await benchManyStreams();
  const { markdown: goalsMd, lines: issueTable } = goals({
    manyStreams: { ...manyStreams, markdown: streamsMarkdown },
  });
  const reportsDir = path.join(__dirname, 'reports');
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(
    path.join(reportsDir, 'streams.json'),
    JSON.stringify({ date: new Date().toISOString(), manyStreams, issueTable }, null, 2),
  );
  const md = `${streamsMarkdown}\n${goalsMd}`;
  writeFileSync(path.join(reportsDir, 'streams.md'), md);
  console.log(md);
}

/** The signed-in first screen on the Firebase build alone (bench/reports/firebase.{md,json}). */
async function firebaseOnly(): Promise<void> {
  const { markdown: firstMarkdown, ...firebaseFirstScreen } = await benchFirebaseFirstScreen();
  const { markdown: goalsMd, lines: issueTable } = goals({ firebaseFirstScreen });
  const reportsDir = path.join(__dirname, 'reports');
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(
    path.join(reportsDir, 'firebase.json'),
    JSON.stringify({ date: new Date().toISOString(), firebaseFirstScreen, issueTable }, null, 2),
  );
  const md = `${firstMarkdown}\n${goalsMd}`;
  writeFileSync(path.join(reportsDir, 'firebase.md'), md);
  console.log(md);
}

/** Lighthouse and the live latency alone: the two numbers a change to the first screen or the live path moves. */
async function firstScreenOnly(buildDir: string | undefined, only: string | undefined): Promise<void> {
  const outDir = buildDir ?? mkdtempSync(path.join(tmpdir(), 'qupm-bench-'));
  try {
    if (!buildDir) await buildProduction(outDir);
    const lighthouse = only === 'latency' || only === 'burst' ? null : await benchLighthouse(outDir);
    const { markdown: latencyMarkdown, ...messageLatency } =
      only === 'lighthouse'
        ? { markdown: '' }
        : await benchMessageLatency(outDir, { idleOnly: only !== 'burst' });
    const reportsDir = path.join(__dirname, 'reports');
    mkdirSync(reportsDir, { recursive: true });
    writeFileSync(
      path.join(reportsDir, 'firstscreen.json'),
      JSON.stringify({ date: new Date().toISOString(), lighthouse, messageLatency }, null, 2),
    );
    const md = `${lighthouse ? lighthouseMarkdown(lighthouse) : ''}\n${latencyMarkdown}`;
    writeFileSync(path.join(reportsDir, 'firstscreen.md'), md);
    console.log(md);
  } finally {
    if (!buildDir) rmSync(outDir, { recursive: true, force: true });
  }
}

/** The warm start alone (`npm run bench -- warmstart [buildDir]`): a change to the start path moves it. */
async function warmStartOnly(buildDir: string | undefined): Promise<void> {
  const outDir = buildDir ?? mkdtempSync(path.join(tmpdir(), 'qupm-bench-'));
  try {
    if (!buildDir) await buildProduction(outDir);
    const { markdown: warmStartMarkdown, ...warmStart } = await benchWarmStart(outDir);
    console.log(JSON.stringify(warmStart));
    console.log(warmStartMarkdown);
  } finally {
    if (!buildDir) rmSync(outDir, { recursive: true, force: true });
  }
}

/** A build folder given on the command line, from where the command was run; a clear word if it holds no build. */
function buildDirArg(dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined;
  const absolute = path.resolve(process.env.INIT_CWD ?? process.cwd(), dir);
  if (!existsSync(path.join(absolute, 'index.html'))) {
    console.error(
      `${dir}: no build there (index.html missing); run \`npm run build\` or leave it out to build one`,
    );
    process.exit(2);
  }
  return absolute;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === 'firstscreen') return firstScreenOnly(buildDirArg(args[1]), args[2]);
  if (args[0] === 'warmstart') return warmStartOnly(buildDirArg(args[1]));
  if (args[0] === 'firebase') return firebaseOnly();
  if (process.argv.slice(2).includes('server')) return serverOnly();
  if (process.argv.slice(2).includes('streams')) return streamsOnly();
  const outDir = mkdtempSync(path.join(tmpdir(), 'qupm-bench-'));
  try {
    const bundle = reportBundle(await buildProduction(outDir), outDir);
    const lighthouse = await benchLighthouse(outDir);
    const { markdown: tokensMarkdown, ...pushTokens } = await benchPushTokens();
    const { markdown: serverMarkdown, ...server } = await benchServer();
    const { markdown: overviewMarkdown, ...overviewGrowth } = await benchOverviewGrowth();
    const { markdown: latencyMarkdown, ...messageLatency } = await benchMessageLatency(outDir);
    const { markdown: longChannelMarkdown, ...longChannel } = await benchLongChannel(outDir);
    const { markdown: warmStartMarkdown, ...warmStart } = await benchWarmStart(outDir);
    const { markdown: fanoutMarkdown, ...pushFanout } = await benchPushFanout();
    const { markdown: slowReadersMarkdown, ...slowReaders } = await benchSlowReaders();
    const { markdown: manyStreamsMarkdown, ...manyStreams } = await benchManyStreams();
    const { markdown: firebaseMarkdown, ...firebaseFirstScreen } = await benchFirebaseFirstScreen();
    const { markdown: goalsMd, lines: issueTable } = goals({
      lighthouse,
      firebaseFirstScreen,
      server: { ...server, markdown: serverMarkdown },
      messageLatency: { ...messageLatency, markdown: latencyMarkdown },
      manyStreams: { ...manyStreams, markdown: manyStreamsMarkdown },
    });
    const reportsDir = path.join(__dirname, 'reports');
    mkdirSync(reportsDir, { recursive: true });
    writeFileSync(
      path.join(reportsDir, 'bench.json'),
      JSON.stringify(
        {
          date: new Date().toISOString(),
          bundle,
          lighthouse,
          pushTokens,
          server,
          overviewGrowth,
          messageLatency,
          longChannel,
          warmStart,
          pushFanout,
          slowReaders,
          manyStreams,
          firebaseFirstScreen,
          issueTable,
        },
        null,
        2,
      ),
    );
    const md = `${markdown(bundle)}\n${lighthouseMarkdown(lighthouse)}\n${tokensMarkdown}\n${serverMarkdown}\n${overviewMarkdown}\n${latencyMarkdown}\n${longChannelMarkdown}\n${warmStartMarkdown}\n${fanoutMarkdown}\n${slowReadersMarkdown}\n${manyStreamsMarkdown}\n${firebaseMarkdown}\n${goalsMd}\n`;
    writeFileSync(path.join(reportsDir, 'bench.md'), md);
    console.log(md);
    if (lighthouse.failing.length > 0) process.exitCode = 1;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
