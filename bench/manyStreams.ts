// 10,000 open live streams on one server process: the embedded server runs in a process of its own (its memory
// is its own, and its one core is what a stream costs); 625 members of one channel each open 16 streams (the most
// one person may, MAX_STREAMS_PER_USER) over raw sockets from this process. Measured: the time to open them all
// (a ticket, then the stream's GET, 64 at a time) and each one's; the server's memory with them idle, per stream;
// then a few messages sent one after another, each fanned out to every stream, with the time from the send to
// each stream's receipt of it (p50, p99, the last). The receiving side is one Node process reading 10,000 sockets,
// so the last receipt includes reading all the others: a floor for the server, not a ceiling.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type net from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BENCH_PASSWORD, SENDER_EMAIL, seedChannel } from '../drivers/seed';
import { MAX_STREAMS_PER_USER } from '../server/stream';
import { connectStream, signIn, startServerProcess } from './streamDriver';
import type { BenchServer } from './streamDriver';

const KB = 1024;
const MB = 1024 * 1024;
const OPENING_AT_ONCE = 64;

export interface Spread {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface ManyStreamsReport {
  streams: number;
  people: number;
  /** From the first ticket to the last stream's `: connected`. */
  openSeconds: number;
  /** Each stream's ticket and GET, until its `: connected`. */
  connect: Spread;
  rssBeforeMb: number;
  rssWithStreamsMb: number;
  /** Heap and Buffers after a full collection, before and with the streams, over the streams. */
  heapPerStreamKb: number;
  rssPerStreamKb: number;
  /** Send to each stream's receipt, over every message. */
  fanOut: Spread;
  /** The send's own answer (the sender's request), per message. */
  sendAnswerMs: number[];
  /** Each message's last receipt. */
  lastReceiptMs: number[];
  received: number;
  expected: number;
  fileLimit: number;
  loadAverage: number[];
  node: string;
  markdown: string;
}

export async function benchManyStreams({ streams = 10_000, messages = 5 } = {}): Promise<ManyStreamsReport> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qupm-bench-many-streams-'));
  const people = Math.ceil(streams / MAX_STREAMS_PER_USER);
  const channelId = await seedChannel(dataDir, {
    handle: 'many-streams',
    title: 'Many streams',
    members: people,
    memberEmail: (i) => `listener${i}@bench.qupm`,
  });
  let server: BenchServer | null = null;
  const sockets: Listener[] = [];
  try {
    server = await startServerProcess(dataDir);
    const { origin, stats } = server;
    const sender = await signIn(origin, SENDER_EMAIL, BENCH_PASSWORD);
    const sessions = await inBatches(
      Array.from({ length: people }, (_, i) => i),
      16,
      (i) => signIn(origin, `listener${i}@bench.qupm`, BENCH_PASSWORD),
    );
    const before = await stats(true);

    const connectMs: number[] = [];
    const opening = performance.now();
    const opened = await inBatches(
      Array.from({ length: streams }, (_, i) => i),
      OPENING_AT_ONCE,
      async (i) => {
        const session = sessions[i % people];
        if (!session) throw new Error('no listener');
        const started = performance.now();
        const listener = await openStream(origin, session.accessToken);
        connectMs.push(performance.now() - started);
        return listener;
      },
    );
    sockets.push(...opened);
    const openSeconds = (performance.now() - opening) / 1000;
    const withStreams = await stats(true);
    if (withStreams.live !== streams)
      throw new Error(`Only ${withStreams.live} of ${streams} streams opened`);

    const receipts: number[] = [];
    const sendAnswerMs: number[] = [];
    const lastReceiptMs: number[] = [];
    for (let m = 0; m < messages; m += 1) {
      const marker = `fan-out ${m} ${Date.now()}`;
      const got: number[] = [];
      const sentAt = performance.now();
      const all = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`Message ${m} reached ${got.length} of ${streams} streams in 120 s`)),
          120_000,
        );
        for (const listener of sockets) {
          listener.expect(marker, () => {
            got.push(performance.now() - sentAt);
            if (got.length === streams) {
              clearTimeout(timer);
              resolve();
            }
          });
        }
      });
      const res = await fetch(`${origin}/api/channels/${channelId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sender.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: marker }),
      });
      sendAnswerMs.push(round(performance.now() - sentAt));
      if (res.status !== 200) throw new Error(`The message was refused: ${await res.text()}`);
      await all;
      receipts.push(...got);
      lastReceiptMs.push(round(Math.max(...got)));
      // The streams settle between messages, as they would between a person's sends.
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const loadAverage = loadavg().map((value) => round(value));
    const report: Omit<ManyStreamsReport, 'markdown'> = {
      streams,
      people,
      openSeconds: round(openSeconds),
      connect: spread(connectMs),
      rssBeforeMb: round(before.rss / MB),
      rssWithStreamsMb: round(withStreams.rss / MB),
      heapPerStreamKb: round((withStreams.heapAndBuffers - before.heapAndBuffers) / streams / KB),
      rssPerStreamKb: round((withStreams.rss - before.rss) / streams / KB),
      fanOut: spread(receipts),
      sendAnswerMs,
      lastReceiptMs,
      received: receipts.length,
      expected: streams * messages,
      fileLimit: fileLimit(),
      loadAverage,
      node: process.version,
    };
    return { ...report, markdown: markdown(report) };
  } finally {
    for (const listener of sockets) listener.socket.destroy();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A stream read as it comes, told which text to wait for next. */
interface Listener {
  socket: net.Socket;
  expect(marker: string, onSeen: () => void): void;
}

async function openStream(origin: string, accessToken: string): Promise<Listener> {
  const socket = await connectStream(origin, accessToken);
  socket.setEncoding('latin1');
  let seen = '';
  let waiting: { marker: string; onSeen: () => void } | null = null;
  socket.on('data', (chunk: string) => {
    if (!waiting) return;
    seen += chunk;
    if (seen.includes(waiting.marker)) {
      const { onSeen } = waiting;
      waiting = null;
      onSeen();
    }
    // What is kept is enough to find a marker cut in two by the network.
    if (seen.length > 4096) seen = seen.slice(-256);
  });
  return {
    socket,
    expect: (marker, onSeen) => {
      seen = '';
      waiting = { marker, onSeen };
    },
  };
}

/** `work` on every item, `size` at a time, answers in the items' order. */
async function inBatches<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50Ms: round(at(0.5)), p99Ms: round(at(0.99)), maxMs: round(sorted[sorted.length - 1] ?? 0) };
}

/** This process's open-file limit, as `ulimit -n` says (each stream is a socket here and in the server). */
function fileLimit(): number {
  try {
    const limits = readFileSync('/proc/self/limits', 'utf8');
    const match = /Max open files\s+(\d+)/.exec(limits);
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

const round = (value: number): number => Math.round(value * 10) / 10;

function markdown(r: Omit<ManyStreamsReport, 'markdown'>): string {
  const ms = (s: Spread): string => `p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms, last ${s.maxMs} ms`;
  return [
    `## ${r.streams.toLocaleString('en')} open streams on one server process`,
    '',
    `${r.people} people of one channel, ${MAX_STREAMS_PER_USER} streams each; the server in its own process, the ` +
      `streams read by this one (open-file limit ${r.fileLimit}). Load average at the end: ${r.loadAverage.join(', ')}.`,
    '',
    '| measure | value |',
    '|---|---|',
    `| opening all ${r.streams.toLocaleString('en')} (${OPENING_AT_ONCE} at a time) | ${r.openSeconds} s |`,
    `| one stream's ticket and connect | ${ms(r.connect)} |`,
    `| server RSS before / with the streams | ${r.rssBeforeMb} MB / ${r.rssWithStreamsMb} MB |`,
    `| memory per idle stream (heap and Buffers after a collection / RSS) | ${r.heapPerStreamKb} KB / ${r.rssPerStreamKb} KB |`,
    `| one message, send to each stream's receipt (${r.sendAnswerMs.length} messages) | ${ms(r.fanOut)} |`,
    `| each message's last receipt | ${r.lastReceiptMs.map((v) => `${v} ms`).join(', ')} |`,
    `| the send's own answer | ${r.sendAnswerMs.map((v) => `${v} ms`).join(', ')} |`,
    `| receipts | ${r.received} of ${r.expected} |`,
    '',
  ].join('\n');
}
