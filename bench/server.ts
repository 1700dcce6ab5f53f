// Server latency and throughput (issue #3 part 9): the embedded server on a temporary database with the demo
// world and production settings (scrypt N = 2^15), loaded by autocannon with 50 concurrent connections for
// about 10 s on each of: sign-in as the member, reading the member's user document, check_channel_permissions.
// Rate limits are raised so the benchmark measures the work, not the limiter. Server and load generator share
// this process (and its 2 cores), so the numbers are a floor for a dedicated machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildServer } from '../server/app';
import { DEMO_EMAILS, DEMO_PASSWORD } from '../server/demo';
import type { SessionResponse } from '../core/wire';

export interface EndpointBench {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export interface ServerBenchReport {
  connections: number;
  durationSeconds: number;
  node: string;
  endpoints: EndpointBench[];
  markdown: string;
}

export interface ServerBenchOptions {
  connections?: number;
  durationSeconds?: number;
}

const UNLIMITED = { max: 1_000_000_000, timeWindowMs: 60_000 };

export async function benchServer({
  connections = 50,
  durationSeconds = 10,
}: ServerBenchOptions = {}): Promise<ServerBenchReport> {
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
    const auth = { authorization: `Bearer ${session.accessToken}`, 'content-type': 'application/json' };

    const scenarios: Array<
      Omit<EndpointBench, 'requestsPerSecond' | 'p50Ms' | 'p99Ms' | 'requests' | 'non2xx' | 'errors'> & {
        headers: Record<string, string>;
        body?: string;
      }
    > = [
      {
        name: 'sign-in',
        method: 'POST',
        path: '/api/auth/signin',
        headers: { 'content-type': 'application/json' },
        body: signInBody,
      },
      { name: 'read user doc', method: 'GET', path: `/api/users/${session.user.uid}`, headers: auth },
      {
        name: 'check_channel_permissions',
        method: 'POST',
        path: '/api/callable/check_channel_permissions',
        headers: auth,
        body: JSON.stringify({ data: { channel_id: channelId } }),
      },
    ];

    const endpoints: EndpointBench[] = [];
    for (const scenario of scenarios) {
      const result = await autocannon({
        url: `${origin}${scenario.path}`,
        method: scenario.method,
        headers: scenario.headers,
        ...(scenario.body !== undefined ? { body: scenario.body } : {}),
        connections,
        duration: durationSeconds,
        timeout: 30,
      });
      endpoints.push({
        name: scenario.name,
        method: scenario.method,
        path: scenario.path.replace(session.user.uid, ':uid'),
        requestsPerSecond: Math.round(result.requests.average * 10) / 10,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        requests: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors,
      });
    }
    return {
      connections,
      durationSeconds,
      node: process.version,
      endpoints,
      markdown: markdown(endpoints, connections, durationSeconds),
    };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function markdown(endpoints: EndpointBench[], connections: number, durationSeconds: number): string {
  return [
    `## Server (embedded, ${connections} connections, ${durationSeconds} s each)`,
    '',
    'Sign-in pays scrypt (N = 2^15) on every request by design; the load generator runs in the same process.',
    '',
    '| endpoint | requests/s | p50 | p99 | requests | non-2xx | errors |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...endpoints.map(
      (e) =>
        `| ${e.name} (\`${e.method} ${e.path}\`) | ${e.requestsPerSecond} | ${e.p50Ms} ms | ${e.p99Ms} ms | ${e.requests} | ${e.non2xx} | ${e.errors} |`,
    ),
    '',
  ].join('\n');
}
