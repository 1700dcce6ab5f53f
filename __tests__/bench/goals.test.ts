// The speed goals' table (bench/goals.ts): each line judged against its goal from what a run measured, and a part
// that did not run left unjudged rather than passed.
import { goalLines, goalsMarkdown, READS } from '../../bench/goals';
import type { EndpointBench, ServerBenchReport } from '../../bench/server';
import type { ManyStreamsReport } from '../../bench/manyStreams';

const endpoint = (name: string, ratio: number, extra: Partial<EndpointBench> = {}): EndpointBench => ({
  name,
  kind: 'read',
  method: 'GET',
  path: '/api/x',
  requestsPerSecond: ratio * 20_000,
  ratioToHelloWorld: ratio,
  p50Ms: 2,
  p99Ms: 10,
  requests: 1000,
  non2xx: 0,
  errors: 0,
  ...extra,
});

const server = (ratios: number[], write: Partial<EndpointBench>): ServerBenchReport => ({
  connections: 50,
  durationSeconds: 10,
  node: 'v20',
  helloWorld: 20_000,
  endpoints: [
    ...READS.map(([name], i) => endpoint(name, ratios[i] ?? 0)),
    endpoint('send a message', 0.5, { kind: 'write', ...write }),
  ],
  loadAverage: [1, 1, 1],
  markdown: '',
});

const streams = (changes: Partial<ManyStreamsReport>): ManyStreamsReport => ({
  streams: 10_000,
  people: 625,
  openSeconds: 10,
  connect: { p50Ms: 50, p99Ms: 100, maxMs: 200 },
  rssBeforeMb: 100,
  rssWithStreamsMb: 230,
  heapPerStreamKb: 11,
  rssPerStreamKb: 13,
  fanOut: { p50Ms: 150, p99Ms: 400, maxMs: 420 },
  sendAnswerMs: [200],
  lastReceiptMs: [420],
  received: 10_000,
  expected: 10_000,
  fileLimit: 20_000,
  loadAverage: [1, 1, 1],
  node: 'v20',
  markdown: '',
  ...changes,
});

const line = (lines: ReturnType<typeof goalLines>, measure: string) => {
  const found = lines.find((l) => l.measure.startsWith(measure));
  if (!found) throw new Error(`no line "${measure}"`);
  return found;
};

describe('the speed goals table', () => {
  it('leaves every line unjudged when its part did not run', () => {
    const lines = goalLines({});
    expect(lines).toHaveLength(6);
    expect(lines.map((l) => [l.met, l.measured])).toEqual(
      lines.map(() => [null, 'not measured in this run']),
    );
  });

  it('meets the reads only when every one of the four reaches 0.3× the hello world', () => {
    const write = { requestsPerSecond: 12_000, p99Ms: 15 };
    expect(line(goalLines({ server: server([0.3, 0.31, 0.4, 0.5], write) }), 'server reads').met).toBe(true);
    const oneShort = line(goalLines({ server: server([0.3, 0.31, 0.29, 0.5], write) }), 'server reads');
    expect(oneShort.met).toBe(false);
    expect(oneShort.measured).toContain('a page of messages 0.29×');
  });

  it('meets the Firebase first screen only at 200 KB or less, and names its files and bytes', () => {
    const judge = (bytes: number[]) =>
      line(
        goalLines({
          firebaseFirstScreen: {
            files: bytes.map((gzipBytes, i) => ({ file: `/static/js/${i}.js`, gzipBytes })),
            gzipBytes: bytes.reduce((sum, b) => sum + b, 0),
            goalBytes: 200 * 1024,
          },
        }),
        'signed-in first screen',
      );
    expect(judge([100 * 1024, 100 * 1024])).toMatchObject({ met: true, measured: '200.0 KB in 2 files' });
    expect(judge([100 * 1024, 100 * 1024 + 1]).met).toBe(false);
  });

  it('meets the writes only at 10,000 a second with a p99 of 20 ms or less', () => {
    const judge = (write: Partial<EndpointBench>) =>
      line(goalLines({ server: server([1, 1, 1, 1], write) }), 'message writes');
    expect(judge({ requestsPerSecond: 10_000, p99Ms: 20, writesPerCommit: 12.5 })).toMatchObject({
      met: true,
      measured: '10,000/s, p99 20 ms, 12.5 sends per commit',
    });
    expect(judge({ requestsPerSecond: 9_999, p99Ms: 20 }).met).toBe(false);
    expect(judge({ requestsPerSecond: 10_000, p99Ms: 21 }).met).toBe(false);
  });

  it('meets the open streams only when all 10,000 got every message within the p99 and memory bars', () => {
    const judge = (changes: Partial<ManyStreamsReport>) =>
      line(goalLines({ manyStreams: streams(changes) }), 'open streams').met;
    expect(judge({})).toBe(true);
    expect(judge({ received: 9_999 })).toBe(false);
    expect(judge({ fanOut: { p50Ms: 150, p99Ms: 1001, maxMs: 1100 } })).toBe(false);
    expect(judge({ rssPerStreamKb: 31 })).toBe(false);
    expect(judge({ streams: 5_000, received: 5_000, expected: 5_000 })).toBe(false);
  });

  it('prints one row per line with its verdict and the load it was measured under', () => {
    const markdown = goalsMarkdown(goalLines({ manyStreams: streams({}) }), [2.5, 3, 4]);
    expect(markdown).toContain('Load average at the end: 2.5, 3, 4');
    expect(
      markdown.split('\n').filter((row) => row.startsWith('| ') && !row.startsWith('| measure')),
    ).toHaveLength(6);
    expect(markdown).toMatch(/\| open streams on one box \|.*\| met \|/);
  });
});
