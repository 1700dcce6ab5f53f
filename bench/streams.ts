// Server memory with 100 slow readers: the embedded server runs in its own process (so its
// memory is its own); 100 live streams of the channel's members are opened over raw sockets that read the
// connection's first bytes and then never read again; a sender posts 2,000 messages of 4,000 characters to the
// channel, each streamed to all 100. Without a cap every stream would queue every frame (about 800 MB in all);
// with it, a stream more than STREAM_MAX_BUFFERED_BYTES behind is dropped (server/stream.ts). Reported: the
// server's RSS before the streams, after opening them, at its peak while publishing and after, and how many
// streams it dropped. What the kernel holds in socket buffers is not in RSS.
import { mkdtempSync, rmSync } from 'node:fs';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BENCH_PASSWORD, SENDER_EMAIL, seedChannel } from '../drivers/seed';
import { MAX_STREAMS_PER_USER } from '../server/stream';
import { STREAM_MAX_BUFFERED_BYTES } from '../core/wire';
import { connectStream, signIn, startServerProcess } from './streamDriver';
import type { BenchServer } from './streamDriver';

const MB = 1024 * 1024;

export interface SlowReadersReport {
  streams: number;
  messages: number;
  /** Bytes of stream frames each reader was sent (what it would hold without the cap). */
  bytesPerStream: number;
  rssBeforeMb: number;
  rssWithStreamsMb: number;
  rssPeakMb: number;
  rssAfterMb: number;
  /** Heap and Buffers after a full collection: what the server still holds once the streams are gone. */
  heapAndBuffersBeforeMb: number;
  heapAndBuffersAfterMb: number;
  dropped: number;
  stillOpen: number;
  publishSeconds: number;
  node: string;
  markdown: string;
}

export async function benchSlowReaders({ streams = 100, messages = 2000 } = {}): Promise<SlowReadersReport> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qupm-bench-streams-'));
  const readers = Math.ceil(streams / MAX_STREAMS_PER_USER);
  const channelId = await seed(dataDir, readers);
  let server: BenchServer | null = null;
  const sockets: net.Socket[] = [];
  try {
    server = await startServerProcess(dataDir);
    const { origin, stats } = server;

    const sender = await signIn(origin, SENDER_EMAIL, BENCH_PASSWORD);
    const readerSessions = await Promise.all(
      Array.from({ length: readers }, (_, i) => signIn(origin, `reader${i}@bench.qupm`, BENCH_PASSWORD)),
    );
    const before = await stats(true);

    for (let i = 0; i < streams; i += 1) {
      const session = readerSessions[i % readers];
      if (!session) throw new Error('no reader');
      // A reader that takes the stream's first bytes and then never reads again (a frozen tab, a stalled phone).
      const socket = await connectStream(origin, session.accessToken);
      socket.pause();
      sockets.push(socket);
    }
    const withStreams = await stats();
    if (withStreams.live !== streams)
      throw new Error(`Only ${withStreams.live} of ${streams} streams opened`);

    const text = 'x'.repeat(4000);
    let peak = withStreams.rss;
    let bytesPerStream = 0;
    const started = performance.now();
    for (let i = 0; i < messages; i += 1) {
      const res = await fetch(`${origin}/api/channels/${channelId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sender.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`A message was refused: ${body}`);
      // The message frame: id and event lines around the message's JSON.
      bytesPerStream += body.length + 40;
      if (i % 100 === 99) peak = Math.max(peak, (await stats()).rss);
    }
    const publishSeconds = (performance.now() - started) / 1000;
    const after = await stats();
    peak = Math.max(peak, after.rss);
    const collected = await stats(true);

    const report = {
      streams,
      messages,
      bytesPerStream,
      rssBeforeMb: round(before.rss / MB),
      rssWithStreamsMb: round(withStreams.rss / MB),
      rssPeakMb: round(peak / MB),
      rssAfterMb: round(after.rss / MB),
      heapAndBuffersBeforeMb: round(before.heapAndBuffers / MB),
      heapAndBuffersAfterMb: round(collected.heapAndBuffers / MB),
      dropped: after.dropped,
      stillOpen: after.live,
      publishSeconds: round(publishSeconds),
      node: process.version,
    };
    return { ...report, markdown: markdown(report) };
  } finally {
    for (const socket of sockets) socket.destroy();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A sender who owns a channel, and `readers` members of it (each may open MAX_STREAMS_PER_USER streams). */
function seed(dataDir: string, readers: number): Promise<string> {
  return seedChannel(dataDir, {
    handle: 'slow-readers',
    title: 'Slow readers',
    members: readers,
    memberEmail: (i) => `reader${i}@bench.qupm`,
  });
}

const round = (value: number): number => Math.round(value * 10) / 10;

function markdown(r: Omit<SlowReadersReport, 'markdown'>): string {
  const unbounded = (r.bytesPerStream * r.streams) / MB;
  return [
    `## Server memory with ${r.streams} slow readers`,
    '',
    `${r.streams} live streams that never read; ${r.messages.toLocaleString('en')} messages of 4,000 characters ` +
      `streamed to each (${round(r.bytesPerStream / MB)} MB a stream, ${Math.round(unbounded)} MB in all ` +
      `without a cap). A stream more than ${STREAM_MAX_BUFFERED_BYTES / MB} MB behind is dropped. The server ` +
      'runs in its own process; socket buffers held by the kernel are not in its RSS.',
    '',
    '| server RSS before streams | with the streams open | peak while publishing | after | streams dropped | still open | publishing took |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${r.rssBeforeMb} MB | ${r.rssWithStreamsMb} MB | ${r.rssPeakMb} MB | ${r.rssAfterMb} MB | ${r.dropped} of ${r.streams} | ${r.stillOpen} | ${r.publishSeconds} s |`,
    '',
    `Heap and Buffers after a full collection: ${r.heapAndBuffersAfterMb} MB (${r.heapAndBuffersBeforeMb} MB ` +
      'before the streams): what the dropped streams held is freed. RSS does not fall back at once: the process ' +
      'keeps freed memory for reuse.',
    '',
  ].join('\n');
}
