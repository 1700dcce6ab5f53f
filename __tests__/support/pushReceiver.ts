// A stand-in for a push service on localhost: an HTTPS server that records every push it is handed and answers
// with the status a test chooses (201 delivered, 404/410 gone, 500 failing).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import { Agent } from 'node:https';
import path from 'node:path';

const TLS_DIR = path.join(__dirname, 'tls');
export const TLS_CERT = readFileSync(path.join(TLS_DIR, 'cert.pem'));
const TLS_KEY = readFileSync(path.join(TLS_DIR, 'key.pem'));

export interface ReceivedPush {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface PushReceiver {
  origin: string;
  received: ReceivedPush[];
  /** The status answered for pushes to `path` (default 201). */
  answer(path: string, status: number): void;
  /** An agent that trusts the receiver's certificate. */
  agent: Agent;
  close(): Promise<void>;
}

export async function startPushReceiver(): Promise<PushReceiver> {
  const received: ReceivedPush[] = [];
  const answers = new Map<string, number>();
  const server: Server = createServer({ cert: TLS_CERT, key: TLS_KEY }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = request.url ?? '/';
      received.push({ path: url, headers: request.headers, body: Buffer.concat(chunks) });
      response.statusCode = answers.get(url) ?? 201;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The receiver has no TCP address');
  const agent = new Agent({ ca: TLS_CERT, keepAlive: false });
  return {
    origin: `https://127.0.0.1:${address.port}`,
    received,
    answer: (p, status) => answers.set(p, status),
    agent,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
