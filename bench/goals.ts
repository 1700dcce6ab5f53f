// The table of speed goals ("Fast at every size": the first screen, the server, live messages, open streams) as
// this run measured it: each line with its reference (measured in the same run where there is one: the Fastify
// hello world; the Firebase sample's figures are given, its build is not in this repository), what QuPM
// measured, the goal, and whether it was met. A part that did not run (`npm run bench -- server` runs one)
// leaves its line "not measured in this run" rather than a number from another run.
import type { FirebaseFirstScreenReport } from './firebaseFirstScreen';
import type { LighthouseReport } from './lighthouse';
import type { IdleLatencyReport } from './messageLatency';
import type { ManyStreamsReport } from './manyStreams';
import type { ServerBenchReport } from './server';

/** Firebase's friendlychat web sample, measured once on these 2-core machines (its build is not here). */
export const SAMPLE = { performance: 97, lcpMs: 2190, tbtMs: 0, kb: 130 } as const;

export const GOALS = {
  lcpOfSample: 0.75,
  tbtMs: 50,
  performance: 100,
  firebaseFirstScreenBytes: 200 * 1024,
  readRatio: 0.3,
  writesPerSecond: 10_000,
  writeP99Ms: 20,
  liveP50Ms: 15,
  liveP99Ms: 40,
  streams: 10_000,
  streamsP99Ms: 1000,
  streamKb: 30,
} as const;

/** The server's four reads, by their names in bench/server.ts, and as the table names them. */
export const READS: ReadonlyArray<[endpoint: string, label: string]> = [
  ['read user doc', 'user document'],
  ['check_channel_permissions', 'permissions'],
  ['a page of 50 messages', 'a page of messages'],
  ['channel overview', 'the overview'],
];
const WRITE = 'send a message';

export interface GoalInputs {
  lighthouse?: LighthouseReport;
  firebaseFirstScreen?: FirebaseFirstScreenReport;
  server?: ServerBenchReport;
  messageLatency?: IdleLatencyReport;
  manyStreams?: ManyStreamsReport;
}

export interface GoalLine {
  measure: string;
  reference: string;
  measured: string;
  goal: string;
  /** null: not measured in this run. */
  met: boolean | null;
}

const NOT_MEASURED = 'not measured in this run';
const n = (value: number): string => Math.round(value).toLocaleString('en');

export function goalLines({
  lighthouse,
  firebaseFirstScreen,
  server,
  messageLatency,
  manyStreams,
}: GoalInputs): GoalLine[] {
  const lcpGoalMs = SAMPLE.lcpMs * GOALS.lcpOfSample;
  const lines: GoalLine[] = [];

  const lh = lighthouse?.medians;
  lines.push({
    measure: 'Lighthouse mobile, `/` signed out, median of 5',
    reference: `the sample (given): perf ${SAMPLE.performance}, LCP ${SAMPLE.lcpMs / 1000} s, TBT ${SAMPLE.tbtMs} ms`,
    measured: lh
      ? `perf ${lh.performance}, LCP ${(lh.lcpMs / 1000).toFixed(2)} s (${(lh.lcpMs / SAMPLE.lcpMs).toFixed(2)}×), TBT ${Math.round(lh.tbtMs)} ms`
      : NOT_MEASURED,
    goal: `LCP ≤ ${GOALS.lcpOfSample}× the sample's (${(lcpGoalMs / 1000).toFixed(2)} s), TBT ≤ ${GOALS.tbtMs} ms, perf ${GOALS.performance}`,
    met: lh ? lh.lcpMs <= lcpGoalMs && lh.tbtMs <= GOALS.tbtMs && lh.performance >= GOALS.performance : null,
  });

  const first = firebaseFirstScreen;
  lines.push({
    measure: 'signed-in first screen on the Firebase build, gzip -9',
    reference: `the sample (given): ${SAMPLE.kb} KB`,
    measured: first
      ? `${(first.gzipBytes / 1024).toFixed(1)} KB in ${first.files.length} files`
      : NOT_MEASURED,
    goal: `≤ ${Math.round(GOALS.firebaseFirstScreenBytes / 1024)} KB`,
    met: first ? first.gzipBytes <= GOALS.firebaseFirstScreenBytes : null,
  });

  const hello = server?.helloWorld;
  const reads = READS.map(([name, label]) => ({
    label,
    endpoint: server?.endpoints.find((e) => e.name === name),
  }));
  lines.push({
    measure: `server reads, ${server?.connections ?? 50} connections, × a Fastify hello world in the same run`,
    reference: hello === undefined ? 'the hello world: 1.0' : `the hello world: 1.0 (${n(hello)} requests/s)`,
    measured: server
      ? reads
          .map(({ label, endpoint }) =>
            endpoint
              ? `${label} ${endpoint.ratioToHelloWorld.toFixed(2)}× (${n(endpoint.requestsPerSecond)}/s)`
              : `${label}: ${NOT_MEASURED}`,
          )
          .join(', ')
      : NOT_MEASURED,
    goal: `≥ ${GOALS.readRatio}× each`,
    met: server
      ? reads.every(({ endpoint }) => endpoint !== undefined && endpoint.ratioToHelloWorld >= GOALS.readRatio)
      : null,
  });

  const write = server?.endpoints.find((e) => e.name === WRITE);
  lines.push({
    measure: 'message writes',
    reference: "better-sqlite3's own figures: tens of thousands of inserts a second",
    measured: write
      ? `${n(write.requestsPerSecond)}/s, p99 ${write.p99Ms} ms` +
        (write.writesPerCommit === undefined ? '' : `, ${write.writesPerCommit} sends per commit`)
      : NOT_MEASURED,
    goal: `≥ ${n(GOALS.writesPerSecond)}/s, p99 ≤ ${GOALS.writeP99Ms} ms`,
    met: write ? write.requestsPerSecond >= GOALS.writesPerSecond && write.p99Ms <= GOALS.writeP99Ms : null,
  });

  const idle = messageLatency?.idle;
  lines.push({
    measure: 'live message in the other window, idle',
    reference: 'one frame',
    measured: idle ? `p50 ${idle.p50Ms} ms, p99 ${idle.p99Ms} ms` : NOT_MEASURED,
    goal: `p50 ≤ ${GOALS.liveP50Ms} ms, p99 ≤ ${GOALS.liveP99Ms} ms`,
    met: idle ? idle.p50Ms <= GOALS.liveP50Ms && idle.p99Ms <= GOALS.liveP99Ms : null,
  });

  lines.push({
    measure: 'open streams on one box',
    reference: '—',
    measured: manyStreams
      ? `${n(manyStreams.streams)} streams, one message to all p50 ${manyStreams.fanOut.p50Ms} ms, ` +
        `p99 ${manyStreams.fanOut.p99Ms} ms; ${manyStreams.heapPerStreamKb} KB (heap and Buffers) / ` +
        `${manyStreams.rssPerStreamKb} KB (RSS) per idle stream`
      : NOT_MEASURED,
    goal: `${n(GOALS.streams)} streams, p99 ≤ ${GOALS.streamsP99Ms / 1000} s, ≤ ${GOALS.streamKb} KB per idle stream`,
    met: manyStreams
      ? manyStreams.streams >= GOALS.streams &&
        manyStreams.received === manyStreams.expected &&
        manyStreams.fanOut.p99Ms <= GOALS.streamsP99Ms &&
        Math.max(manyStreams.heapPerStreamKb, manyStreams.rssPerStreamKb) <= GOALS.streamKb
      : null,
  });
  return lines;
}

export function goalsMarkdown(lines: GoalLine[], loadAverage: number[]): string {
  const verdict = (met: boolean | null): string => (met === null ? '—' : met ? 'met' : 'not met');
  return [
    '## Speed goals: the table as measured',
    '',
    `Load average at the end: ${loadAverage.join(', ')} (2 cores; a loaded machine lowers every line but the ratios).`,
    '',
    '| measure | the reference | QuPM now | goal | |',
    '|---|---|---|---|---|',
    ...lines.map((l) => `| ${l.measure} | ${l.reference} | ${l.measured} | ${l.goal} | ${verdict(l.met)} |`),
    '',
  ].join('\n');
}
