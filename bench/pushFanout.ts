// Push fan-out throughput: one message to a channel with 1,000 member tokens, timed from the
// request that enqueues it to the last push handed to a local Web Push receiver (HTTPS on 127.0.0.1, standing in
// for the push service). Every push is encrypted for its own subscription (aes128gcm, RFC 8291) and VAPID-signed,
// as for a browser. The server, its push worker and the receiver share this process and its 2 cores, so the
// numbers are a floor for a dedicated machine and a real push service.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildServer } from '../server/app';
import { BENCH_PASSWORD, SENDER_EMAIL, seedChannel } from '../drivers/seed';
import { newDocumentId } from '../server/ids';
import { DEFAULT_PUSH_CONCURRENCY } from '../server/services/pushQueue';
import type { SessionResponse } from '../core/wire';
import { startPushReceiver, TLS_CERT } from '../drivers/pushReceiver';
import { subscriptionToken } from '../drivers/webPushTokens';

export interface FanoutRun {
  /** From sending the message to its request's answer (the sender's wait: it never includes the pushes). */
  requestMs: number;
  /** From sending the message to the last push arriving at the receiver. */
  fanoutMs: number;
  pushesPerSecond: number;
}

export interface PushFanoutReport {
  tokens: number;
  concurrency: number;
  runs: FanoutRun[];
  medianPushesPerSecond: number;
  node: string;
  markdown: string;
}

export async function benchPushFanout({ tokens = 1000, runs = 3 } = {}): Promise<PushFanoutReport> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qupm-bench-fanout-'));
  const receiver = await startPushReceiver();
  // Connections to the push service are kept open, as they would be to FCM or Mozilla's autopush.
  const agent = new Agent({ ca: TLS_CERT, keepAlive: true, maxSockets: DEFAULT_PUSH_CONCURRENCY });
  try {
    const channelId = await seed(dataDir, tokens, receiver.origin);
    const app = await buildServer({
      staticDir: path.join(dataDir, 'no-build'),
      dataDir,
      demo: false,
      rateLimits: false,
      push: { allowEndpoint: (url) => url.origin === receiver.origin, agent },
    });
    try {
      const session = (
        await app.inject({
          method: 'POST',
          url: '/api/auth/signin',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ email: SENDER_EMAIL, password: BENCH_PASSWORD }),
        })
      ).json<SessionResponse>();

      const results: FanoutRun[] = [];
      for (let run = 0; run < runs; run += 1) {
        receiver.received.length = 0;
        const started = performance.now();
        const res = await app.inject({
          method: 'POST',
          url: `/api/channels/${channelId}/messages`,
          headers: { authorization: `Bearer ${session.accessToken}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ text: `Fan-out run ${run + 1}: the new price list is in the channel.` }),
        });
        const answered = performance.now();
        if (res.statusCode !== 200) throw new Error(`The message was refused: ${res.body}`);
        await receiver.until((received) => received.length >= tokens);
        const last = Math.max(...receiver.received.map((push) => push.at));
        const fanoutMs = last - started;
        results.push({
          requestMs: round(answered - started),
          fanoutMs: round(fanoutMs),
          pushesPerSecond: Math.round((tokens / fanoutMs) * 1000),
        });
      }
      const sorted = results.map((r) => r.pushesPerSecond).sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
      return {
        tokens,
        concurrency: DEFAULT_PUSH_CONCURRENCY,
        runs: results,
        medianPushesPerSecond: median,
        node: process.version,
        markdown: markdown(tokens, results, median),
      };
    } finally {
      await app.close();
    }
  } finally {
    agent.destroy();
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A sender who owns a channel with `tokens` members, each with one subscription at the receiver. */
function seed(dataDir: string, tokens: number, origin: string): Promise<string> {
  return seedChannel(dataDir, {
    handle: 'fan-out',
    title: 'Fan-out',
    members: tokens,
    memberEmail: (i) => `member${i}@bench.qupm`,
    withMember(repos, uid, i, now) {
      const subscription = subscriptionToken(`m${i}`, `${origin}/push/m${i}`);
      repos.tokens.insert(uid, {
        id: newDocumentId(),
        token: subscription.token,
        deviceId: `device-${i}`,
        createdAt: now,
        lastUsed: now,
        status: 'active',
        platform: 'web',
        userAgent: 'Bench/1',
      });
    },
  });
}

const round = (ms: number): number => Math.round(ms * 10) / 10;

function markdown(tokens: number, runs: FanoutRun[], median: number): string {
  return [
    `## Push fan-out (one message to ${tokens.toLocaleString('en')} member tokens)`,
    '',
    `Each push encrypted (aes128gcm) and VAPID-signed for its own subscription, handed to a local HTTPS receiver; ` +
      `${DEFAULT_PUSH_CONCURRENCY} pushes in flight at most. Timed from sending the message to the last push ` +
      'received. Server, worker and receiver share one process.',
    '',
    `Median: **${median} pushes/s**.`,
    '',
    '| run | message request answered | last push received | pushes/s |',
    '|---:|---:|---:|---:|',
    ...runs.map((r, i) => `| ${i + 1} | ${r.requestMs} ms | ${r.fanoutMs} ms | ${r.pushesPerSecond} |`),
    '',
  ].join('\n');
}
