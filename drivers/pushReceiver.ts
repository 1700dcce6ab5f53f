// A stand-in for a push service on localhost: an HTTPS server that records every push it is handed and answers
// with the status a test chooses (201 delivered, 404/410 gone, 500 failing), optionally after a delay (a slow
// push service, so that pushes are in flight when a test kills the server).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import { Agent } from 'node:https';
import path from 'node:path';

const TLS_DIR = path.join(__dirname, 'tls');
/** The receiver's certificate (PEM), for a client that must trust it: its path, and its contents. */
export const TLS_CERT_FILE = path.join(TLS_DIR, 'cert.pem');
export const TLS_CERT = readFileSync(TLS_CERT_FILE);
const TLS_KEY = readFileSync(path.join(TLS_DIR, 'key.pem'));

export interface ReceivedPush {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** performance.now() when it had arrived whole (the benchmark's clock; tests never assert on it). */
  at: number;
}

export interface PushReceiver {
  origin: string;
  received: ReceivedPush[];
  /** The status answered for pushes to `path` (default 201). */
  answer(path: string, status: number): void;
  /** The statuses answered for the next pushes to `path`, one each, before answer()'s (or 201) applies again. */
  answerNext(path: string, statuses: number[]): void;
  /** Answers every push this many milliseconds after it arrived (it is recorded on arrival). */
  delayMs: number;
  /** Holds every answer (pushes are recorded, their senders wait) until release(). */
  hold(): void;
  /** Sends the held answers and stops holding. */
  release(): void;
  /** Resolves once `probe` holds for what was received (polled; the test's own timeout bounds it). */
  until(probe: (received: ReceivedPush[]) => boolean): Promise<void>;
  /** An agent that trusts the receiver's certificate. */
  agent: Agent;
  close(): Promise<void>;
}

export async function startPushReceiver(): Promise<PushReceiver> {
  const received: ReceivedPush[] = [];
  const answers = new Map<string, number>();
  const sequences = new Map<string, number[]>();
  let held: Array<() => void> | null = null;
  const server: Server = createServer({ cert: TLS_CERT, key: TLS_KEY }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = request.url ?? '/';
      received.push({
        path: url,
        headers: request.headers,
        body: Buffer.concat(chunks),
        at: performance.now(),
      });
      const status = sequences.get(url)?.shift() ?? answers.get(url) ?? 201;
      const reply = (): void => {
        response.statusCode = status;
        response.end();
      };
      const answer = (): void => {
        if (receiver.delayMs > 0) setTimeout(reply, receiver.delayMs);
        else reply();
      };
      if (held) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The receiver has no TCP address');
  const agent = new Agent({ ca: TLS_CERT, keepAlive: false });
  const receiver: PushReceiver = {
    origin: `https://127.0.0.1:${address.port}`,
    received,
    answer: (p, status) => answers.set(p, status),
    answerNext: (p, statuses) => sequences.set(p, [...(sequences.get(p) ?? []), ...statuses]),
    delayMs: 0,
    hold: () => {
      held ??= [];
    },
    release: () => {
      const waiting = held ?? [];
      held = null;
      for (const answer of waiting) answer();
    },
    until: (probe) =>
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (probe(received)) resolve();
          else setTimeout(check, 10);
        };
        check();
      }),
    agent,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
