// functions/'s callables served in-process over HTTP as the Cloud Functions runtime serves them: each request to
// /{projectId}/{region}/{name} (the path the Firebase JS SDK calls once connectFunctionsEmulator points it here)
// goes to that function's own request handler, the one `firebase deploy` ships, so the Firebase callable
// protocol (its body, the ID token verified by the Admin SDK, App Check, error encoding) is the real one. The
// runtime hands functions an Express request and response; only what firebase-functions' callable handler and
// its CORS middleware use of them is added here to Node's own.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A callable as functions.ts exports it: Express's (request, response) handler. */
type RequestHandler = (request: IncomingMessage, response: ServerResponse) => unknown;

export interface CallableHost {
  host: string;
  port: number;
  close(): Promise<void>;
}

function expressRequest(request: IncomingMessage, body: Buffer): IncomingMessage {
  const header = (name: string): string | undefined => {
    const value = request.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  const json = (header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';
  // As express.json(): the parsed body, or none (the handler then answers invalid-argument).
  let parsed: unknown;
  if (json && body.length > 0) {
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      parsed = undefined;
    }
  }
  return Object.assign(request, { body: parsed, rawBody: body, header, get: header });
}

function expressResponse(response: ServerResponse): ServerResponse {
  const res = Object.assign(response, {
    status(code: number) {
      response.statusCode = code;
      return res;
    },
    set(name: string, value: string) {
      response.setHeader(name, value);
      return res;
    },
    send(body: unknown) {
      if (typeof body === 'object' && body !== null && !Buffer.isBuffer(body)) {
        response.setHeader('Content-Type', 'application/json; charset=utf-8');
        response.end(JSON.stringify(body));
      } else {
        response.end(body as string | Buffer | undefined);
      }
      return res;
    },
  });
  return res;
}

export async function hostCallables(
  callables: Record<string, unknown>,
  where: { projectId: string; region: string },
): Promise<CallableHost> {
  const server: Server = createServer((request, response) => {
    const match = /^\/([^/?]+)\/([^/?]+)\/([^/?]+)/.exec(request.url ?? '');
    const callable = match?.[3] === undefined ? undefined : callables[match[3]];
    if (
      !match ||
      match[1] !== where.projectId ||
      match[2] !== where.region ||
      typeof callable !== 'function' ||
      !Object.hasOwn(callables, match[3] ?? '')
    ) {
      response.statusCode = 404;
      response.end('Not Found');
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const handle = callable as RequestHandler;
      Promise.resolve(
        handle(expressRequest(request, Buffer.concat(chunks)), expressResponse(response)),
      ).catch((error: unknown) => {
        // firebase-functions answers every failure itself; this is the runtime's last resort.
        console.error('A callable crashed', error);
        if (!response.headersSent) response.statusCode = 500;
        response.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
