// Server latency and throughput: the embedded server on a temporary database with the demo world and production
// settings (scrypt N = 2^15), loaded by autocannon with 50 concurrent connections for about 10 s on each of:
// four reads (the member's user document, check_channel_permissions, a page of 50 messages, the channel
// overview), one write (a message sent) and sign-in as the member. A Fastify hello world, in the same process
// layout and the same run, is measured in 2 s slices alternating with each endpoint's, so each line also reads as
// a ratio of Fastify's own speed on this machine at that moment (the machine is shared: absolute numbers move,
// ratios much less). Rate limits are raised so the benchmark measures the work, not the limiter. Server and load
// generator share this process (and its cores), so the numbers are a floor for a dedicated machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildServer } from '../server/app';
import { DEMO_EMAILS, DEMO_PASSWORD } from '../server/demo';
import { BENCH_PASSWORD, SENDER_EMAIL, seedChannel } from '../drivers/seed';
import type { SessionResponse } from '../core/wire';

export type EndpointKind = 'baseline' | 'auth' | 'read' | 'write';

export interface EndpointBench {
  name: string;
  kind: EndpointKind;
  method: 'GET' | 'POST';
  path: string;
  requestsPerSecond: number;
  /** requests/s over the Fastify hello world's in the slices alternating with this endpoint's. */
  ratioToHelloWorld: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** A write's requests over the transactions the group commit made for them (server/db/groupCommit.ts). */
  writesPerCommit?: number;
}

export interface ServerBenchReport {
  connections: number;
  durationSeconds: number;
  node: string;
  /** The hello world's requests/s over all its slices. */
  helloWorld: number;
  endpoints: EndpointBench[];
  loadAverage: number[];
  markdown: string;
}

export interface ServerBenchOptions {
  connections?: number;
  durationSeconds?: number;
}

const UNLIMITED = { max: 1_000_000_000, timeWindowMs: 60_000 };

interface Scenario {
  name: string;
  kind: EndpointKind;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** One run of the whole duration instead of 2 s slices (sign-in: one scrypt hash outlasts a slice). */
  unsliced?: true;
  /**
   * Connections for this endpoint alone. Sign-in: 50 hashes queued on libuv's 4 threads take longer than the run
   * on a busy machine, and it would measure the queue, not the work.
   */
  connections?: number;
}

type Measured = Omit<EndpointBench, 'ratioToHelloWorld'>;

/** One autocannon run of `seconds` against `origin`. */
function run(
  origin: string,
  scenario: Scenario,
  connections: number,
  seconds: number,
): Promise<autocannon.Result> {
  return autocannon({
    url: `${origin}${scenario.path}`,
    method: scenario.method,
    headers: scenario.headers,
    ...(scenario.body !== undefined ? { body: scenario.body } : {}),
    connections,
    duration: seconds,
    timeout: 30,
  });
}

const SLICE_SECONDS = 2;
const PAGE_MESSAGES = 50;
const SIGN_IN_CONNECTIONS = 4;
const HELLO: Scenario = {
  name: 'Fastify hello world',
  kind: 'baseline',
  method: 'GET',
  path: '/hello',
  headers: {},
};

interface Paired {
  endpoint: Measured;
  /** The hello world's requests in the slices paired with this endpoint's. */
  helloRequests: number;
  helloSeconds: number;
}

/**
 * The endpoint and the hello world in alternating slices of 2 s (as many as `durationSeconds` allows each), so
 * that both meet the same load from the rest of the machine and the ratio of their totals is fair. p50 is the
 * median of the slices' p50s, p99 the worst slice's.
 */
async function measurePaired(
  origin: string,
  helloOrigin: string,
  scenario: Scenario,
  connections: number,
  durationSeconds: number,
): Promise<Paired> {
  const sliceSeconds = scenario.unsliced ? durationSeconds : SLICE_SECONDS;
  const slices = Math.max(1, Math.round(durationSeconds / sliceSeconds));
  const results: autocannon.Result[] = [];
  let helloRequests = 0;
  let helloSeconds = 0;
  for (let i = 0; i < slices; i += 1) {
    const hello = await run(helloOrigin, HELLO, connections, sliceSeconds);
    helloRequests += hello.requests.total;
    helloSeconds += hello.duration;
    results.push(await run(origin, scenario, scenario.connections ?? connections, sliceSeconds));
  }
  const requests = results.reduce((sum, r) => sum + r.requests.total, 0);
  const seconds = results.reduce((sum, r) => sum + r.duration, 0);
  const p50s = results.map((r) => r.latency.p50).sort((a, b) => a - b);
  return {
    endpoint: {
      name: scenario.name,
      kind: scenario.kind,
      method: scenario.method,
      path: scenario.path,
      requestsPerSecond: Math.round((requests / seconds) * 10) / 10,
      p50Ms: p50s[Math.floor(p50s.length / 2)] ?? 0,
      p99Ms: Math.max(...results.map((r) => r.latency.p99)),
      requests,
      non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
      errors: results.reduce((sum, r) => sum + r.errors, 0),
    },
    helloRequests,
    helloSeconds,
  };
}

/** Fastify with one JSON route and its defaults: the reference every server line is compared with. */
async function startHelloWorld(): Promise<{ origin: string; close: () => Promise<void> }> {
  const hello = Fastify({ logger: false });
  hello.get('/hello', async () => ({ hello: 'world' }));
  await hello.listen({ port: 0, host: '127.0.0.1' });
  const address = hello.server.address();
  if (address === null || typeof address === 'string') throw new Error('The hello world has no address');
  return { origin: `http://127.0.0.1:${address.port}`, close: () => hello.close() };
}

export async function benchServer({
  connections = 50,
  durationSeconds = 10,
}: ServerBenchOptions = {}): Promise<ServerBenchReport> {
  const hello = await startHelloWorld();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qupm-bench-server-'));
  const app = await buildServer({
    staticDir: path.join(dataDir, 'no-build'),
    dataDir,
    demo: true,
    rateLimits: {
      auth: UNLIMITED,
      authPerIp: UNLIMITED,
      refresh: UNLIMITED,
      callables: UNLIMITED,
      messages: UNLIMITED,
      documents: UNLIMITED,
    },
  });
  const measured: Paired[] = [];
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('The server has no TCP address');
    const origin = `http://127.0.0.1:${address.port}`;

    const signInBody = JSON.stringify({ email: DEMO_EMAILS.member, password: DEMO_PASSWORD });
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      headers: { 'content-type': 'application/json' },
      payload: signInBody,
    });
    const session = signIn.json<SessionResponse>();
    const channels = await app.inject({
      url: '/api/channels?channelId=strategy-studio&limit=1',
      headers: { authorization: `Bearer ${session.accessToken}` },
    });
    const channelId = channels.json<{ channels: Array<{ id: string }> }>().channels[0]?.id;
    if (!channelId) throw new Error('The demo world has no strategy-studio channel');
    const read = { authorization: `Bearer ${session.accessToken}` };
    const auth = { ...read, 'content-type': 'application/json' };
    // The demo channel holds a few messages: filled to a whole page, so the page read is one of 50.
    for (let i = app.qupmContext.repos.messages.count(channelId); i < PAGE_MESSAGES; i += 1) {
      await app.inject({
        method: 'POST',
        url: `/api/channels/${channelId}/messages`,
        headers: auth,
        payload: JSON.stringify({ text: `An earlier message of the page, number ${i + 1}.` }),
      });
    }

    const scenarios: Scenario[] = [
      {
        name: 'read user doc',
        kind: 'read',
        method: 'GET',
        path: `/api/users/${session.user.uid}`,
        headers: read,
      },
      {
        name: 'check_channel_permissions',
        kind: 'read',
        method: 'POST',
        path: '/api/callable/check_channel_permissions',
        headers: auth,
        body: JSON.stringify({ data: { channel_id: channelId } }),
      },
      {
        name: 'a page of 50 messages',
        kind: 'read',
        method: 'GET',
        path: `/api/channels/${channelId}/messages?limit=${PAGE_MESSAGES}`,
        headers: read,
      },
      {
        name: 'channel overview',
        kind: 'read',
        method: 'GET',
        path: '/api/channels/overview',
        headers: read,
      },
      // No id in the body: the server names each message, so every request is a new message (not a repeat).
      {
        name: 'send a message',
        kind: 'write',
        method: 'POST',
        path: `/api/channels/${channelId}/messages`,
        headers: auth,
        body: JSON.stringify({ text: 'A message from the benchmark.' }),
      },
      // Last: its scrypt work queues on libuv's threadpool, where jose's token checks run too, and would slow
      // whatever came right after it.
      {
        name: 'sign-in',
        kind: 'auth',
        method: 'POST',
        path: '/api/auth/signin',
        headers: { 'content-type': 'application/json' },
        body: signInBody,
        unsliced: true,
        connections: SIGN_IN_CONNECTIONS,
      },
    ];

    for (const scenario of scenarios) {
      const commitsBefore = app.qupmContext.messageWrites.commits;
      const result = await measurePaired(origin, hello.origin, scenario, connections, durationSeconds);
      const commits = app.qupmContext.messageWrites.commits - commitsBefore;
      if (scenario.kind === 'write' && commits > 0) {
        result.endpoint.writesPerCommit = Math.round((result.endpoint.requests / commits) * 10) / 10;
      }
      result.endpoint.path = result.endpoint.path.replace(session.user.uid, ':uid').replace(channelId, ':id');
      measured.push(result);
    }
    // Sign-ins the load generator gave up on are still hashing on the threadpool (first in, first out): one more
    // per thread, awaited, lets them finish hashing, and a moment more lets them write their session, before the
    // database closes under them (one awaited sign-in alone left some still writing: an error printed at close).
    await Promise.all(
      Array.from({ length: SIGN_IN_CONNECTIONS }, () =>
        app.inject({
          method: 'POST',
          url: '/api/auth/signin',
          headers: { 'content-type': 'application/json' },
          payload: signInBody,
        }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
  } finally {
    await app.close();
    await hello.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const helloRequests = measured.reduce((sum, m) => sum + m.helloRequests, 0);
  const helloSeconds = measured.reduce((sum, m) => sum + m.helloSeconds, 0);
  const helloWorld = Math.round((helloRequests / helloSeconds) * 10) / 10;
  const endpoints: EndpointBench[] = measured.map(({ endpoint, helloRequests: h, helloSeconds: hs }) => ({
    ...endpoint,
    ratioToHelloWorld: Math.round((endpoint.requestsPerSecond / (h / hs)) * 1000) / 1000,
  }));
  const loadAverage = loadavg().map((value) => Math.round(value * 10) / 10);
  return {
    connections,
    durationSeconds,
    node: process.version,
    helloWorld,
    endpoints,
    loadAverage,
    markdown: markdown(helloWorld, endpoints, connections, durationSeconds, loadAverage),
  };
}

function markdown(
  helloWorld: number,
  endpoints: EndpointBench[],
  connections: number,
  durationSeconds: number,
  loadAverage: number[],
): string {
  const writes = endpoints.filter((e) => e.writesPerCommit !== undefined);
  return [
    `## Server (embedded, ${connections} connections, ${durationSeconds} s each)`,
    '',
    'Sign-in pays scrypt (N = 2^15) on every request by design; the load generator runs in the same process.',
    `Each endpoint alternates with a Fastify hello world (\`GET /hello\`, same process layout, ${SLICE_SECONDS} s slices);`,
    `the ratio is the endpoint's requests/s over the hello world's in its own slices. Hello world overall: ${helloWorld} requests/s.`,
    '',
    `Sign-in uses ${SIGN_IN_CONNECTIONS} connections (one per libuv thread: scrypt runs there).`,
    '',
    '| endpoint | kind | requests/s | × hello world | p50 | p99 | requests | non-2xx | errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...endpoints.map(
      (e) =>
        `| ${e.name} (\`${e.method} ${e.path}\`) | ${e.kind} | ${e.requestsPerSecond} | ${e.ratioToHelloWorld.toFixed(3)} | ${e.p50Ms} ms | ${e.p99Ms} ms | ${e.requests} | ${e.non2xx} | ${e.errors} |`,
    ),
    '',
    ...writes.map(
      (e) =>
        `${e.name}: ${e.writesPerCommit} requests per committed transaction (group commit; at most one per ` +
        `connection waits in a group, ${connections} here).`,
    ),
    `Load average at the end: ${loadAverage.join(', ')}.`,
    '',
  ].join('\n');
}

export interface OverviewGrowthLine {
  messages: number;
  /** Unread in the channel for the reader (the owner, read up to the first message). */
  unread: number;
  overviewP50Ms: number;
  overviewP99Ms: number;
  /** The COUNT the overview made before the counts were kept (migration 015), run alone on the same data. */
  countedP50Ms: number;
}

export interface OverviewGrowthReport {
  lines: OverviewGrowthLine[];
  loadAverage: number[];
  markdown: string;
}

/** The COUNT per channel and person the overview ran on every request until migration 015 kept the counts. */
const COUNTED_UNREAD = `SELECT COUNT(*) AS n FROM messages
  WHERE channel_id = ? AND (created_at, id) > (?, ?) AND sender_id != ?`;

/**
 * The overview as its channel grows to 1,000, 10,000 and 100,000 messages (in process, `inject`: the server's
 * work without the network), the reader having read only the first: its time should not grow with the channel.
 * Beside it, the COUNT it made before, alone, on the same data.
 */
export async function benchOverviewGrowth(
  sizes: number[] = [1_000, 10_000, 100_000],
  requests = 200,
): Promise<OverviewGrowthReport> {
  const lines: OverviewGrowthLine[] = [];
  for (const size of sizes) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'qupm-bench-overview-'));
    try {
      const channelId = await seedChannel(dataDir, {
        handle: 'growing',
        title: 'Growing',
        members: 1,
        memberEmail: () => 'member@bench.qupm',
        messages: { count: size, spanMs: size * 1000, endAt: Date.now(), readUpTo: 0 },
      });
      const app = await buildServer({
        staticDir: path.join(dataDir, 'no-build'),
        dataDir,
        demo: false,
        rateLimits: false,
      });
      try {
        const signIn = await app.inject({
          method: 'POST',
          url: '/api/auth/signin',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ email: SENDER_EMAIL, password: BENCH_PASSWORD }),
        });
        const session = signIn.json<SessionResponse>();
        const headers = { authorization: `Bearer ${session.accessToken}` };
        const times: number[] = [];
        let unread = 0;
        for (let i = 0; i < requests; i += 1) {
          const started = performance.now();
          const res = await app.inject({ url: '/api/channels/overview', headers });
          times.push(performance.now() - started);
          unread = res.json<{ channels: Array<{ unread: number }> }>().channels[0]?.unread ?? -1;
        }
        const { db } = app.qupmContext;
        const mark = db
          .prepare<[string, string], { at: number; id: string }>(
            'SELECT last_read_at AS at, last_read_id AS id FROM channel_reads WHERE uid = ? AND channel_id = ?',
          )
          .get(session.user.uid, channelId);
        const counted = db.prepare<[string, number, string, string], { n: number }>(COUNTED_UNREAD);
        const countTimes: number[] = [];
        for (let i = 0; i < Math.min(requests, 50); i += 1) {
          const started = performance.now();
          const n = counted.get(channelId, mark?.at ?? 0, mark?.id ?? '', session.user.uid)?.n;
          countTimes.push(performance.now() - started);
          if (n !== unread) throw new Error(`The kept count (${unread}) is not the COUNT (${n})`);
        }
        const sorted = [...times].sort((a, b) => a - b);
        const q = (values: number[], at: number): number =>
          Math.round(([...values].sort((a, b) => a - b)[Math.floor(at * values.length)] ?? 0) * 100) / 100;
        lines.push({
          messages: size,
          unread,
          overviewP50Ms: q(sorted, 0.5),
          overviewP99Ms: q(sorted, 0.99),
          countedP50Ms: q(countTimes, 0.5),
        });
      } finally {
        await app.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const loadAverage = loadavg().map((value) => Math.round(value * 10) / 10);
  return {
    lines,
    loadAverage,
    markdown: [
      '## The overview as a channel grows (in process)',
      '',
      `One reader who read only the first message; ${requests} overview requests at each size (\`inject\`, no network). ` +
        `Beside it, the COUNT the overview made per channel before its counts were kept, alone. Load average: ${loadAverage.join(', ')}.`,
      '',
      '| messages | unread | overview p50 | overview p99 | the former COUNT alone, p50 |',
      '|---:|---:|---:|---:|---:|',
      ...lines.map(
        (l) =>
          `| ${l.messages.toLocaleString('en')} | ${l.unread.toLocaleString('en')} | ${l.overviewP50Ms} ms | ${l.overviewP99Ms} ms | ${l.countedP50Ms} ms |`,
      ),
      '',
    ].join('\n'),
  };
}
