// What the live-stream benchmarks share (bench/streams.ts, bench/manyStreams.ts): the embedded server in a process
// of its own (so its memory and its core are its own), asked for its memory and stream counts over IPC; sign-in;
// and a stream opened as a browser would (a ticket, then the stream's GET) over a raw socket, so the benchmark
// decides how it is read.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { buildServer } from '../server/app';
import type { SessionResponse } from '../core/wire';

const CHILD_FLAG = 'QUPM_BENCH_STREAM_SERVER_CHILD';

export interface ServerStats {
  rss: number;
  /** V8's heap plus Buffers outside it: what the server's own objects take. */
  heapAndBuffers: number;
  /** Live streams open now. */
  live: number;
  /** Streams closed for falling too far behind, since the start. */
  dropped: number;
}

type ChildMessage = { type: 'ready'; port: number } | ({ type: 'stats' } & ServerStats);

export interface BenchServer {
  origin: string;
  /** The server's memory and streams; after a full collection with `collect`. */
  stats(collect?: boolean): Promise<ServerStats>;
  close(): Promise<void>;
}

/** The server on `dataDir` (seeded already) in a child process, listening on a free port. */
export async function startServerProcess(dataDir: string): Promise<BenchServer> {
  const child = fork(__filename, [dataDir], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, [CHILD_FLAG]: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const { port } = await nextMessage(child, 'ready');
    return {
      origin: `http://127.0.0.1:${port}`,
      stats: async (collect = false) => {
        child.send({ type: 'stats', collect });
        const { type: _type, ...stats } = await nextMessage(child, 'stats');
        return stats;
      },
      close: async () => {
        child.kill('SIGTERM');
        await exited;
      },
    };
  } catch (error) {
    child.kill('SIGTERM');
    await exited;
    throw error;
  }
}

export async function signIn(origin: string, email: string, password: string): Promise<SessionResponse> {
  const res = await fetch(`${origin}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`Sign-in as ${email} failed: ${await res.text()}`);
  return (await res.json()) as SessionResponse;
}

/**
 * A stream of the session's: its ticket, then its GET over a raw socket, answered once the server wrote
 * `: connected`. Nothing listens to the socket's data then: the caller reads it (or, a frozen tab, never does).
 */
export async function connectStream(origin: string, accessToken: string): Promise<net.Socket> {
  const res = await fetch(`${origin}/api/stream/ticket`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}` },
  });
  if (res.status !== 200) throw new Error(`No stream ticket: ${await res.text()}`);
  const { ticket } = (await res.json()) as { ticket: string };
  const url = new URL(origin);
  const socket = net.connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    socket.on('error', reject);
    socket.once('close', () =>
      reject(new Error(`The stream closed before it connected: ${seen.slice(0, 200)}`)),
    );
    socket.on('data', (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      if (seen.includes(': connected')) resolve();
    });
    socket.write(
      `GET /api/stream?ticket=${encodeURIComponent(ticket)} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`,
    );
  });
  socket.removeAllListeners('data');
  socket.removeAllListeners('close');
  socket.removeAllListeners('error');
  socket.on('error', () => undefined);
  return socket;
}

function nextMessage<T extends ChildMessage['type']>(
  child: ChildProcess,
  type: T,
): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ChildMessage): void => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Extract<ChildMessage, { type: T }>);
    };
    const onExit = (code: number | null): void => reject(new Error(`The server process exited (${code})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** The server's process: listens, then answers its memory and stream counts when asked, until it is killed. */
async function serveForBench(dataDir: string): Promise<void> {
  const app = await buildServer({
    staticDir: path.join(dataDir, 'no-build'),
    dataDir,
    demo: false,
    rateLimits: false,
  });
  // Thousands of streams connect within moments of each other.
  await app.listen({ port: 0, host: '127.0.0.1', backlog: 4096 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const send = (message: ChildMessage): void => {
    process.send?.(message);
  };
  process.on('message', (message: { type?: string; collect?: boolean }) => {
    if (message.type !== 'stats') return;
    if (message.collect) globalThis.gc?.();
    const memory = process.memoryUsage();
    send({
      type: 'stats',
      rss: memory.rss,
      heapAndBuffers: memory.heapUsed + memory.external,
      live: app.qupm.liveStreams(),
      dropped: app.qupm.droppedStreams(),
    });
  });
  process.on('SIGTERM', () => {
    void app.close().finally(() => process.exit(0));
  });
  send({ type: 'ready', port: address.port });
}

if (process.env[CHILD_FLAG] === '1') {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: streamDriver.ts <dataDir> (as a benchmark’s child)');
  serveForBench(dataDir).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
