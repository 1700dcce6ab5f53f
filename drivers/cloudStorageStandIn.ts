// A stand-in for Cloud Storage where its emulator cannot run: firebase-tools' Storage emulator downloads a jar at
// its first start, and these machines reach no download (ARCHITECTURE.md "What these machines allow"). It serves,
// from memory and in this process, the part of the Cloud Storage JSON API that functions/ reaches through the
// Admin SDK (functions/src/storageFiles.ts) — a bucket's objects listed by prefix a page at a time, an object's
// metadata and bytes, an object deleted (404 when there is none, as Cloud Storage answers) — and the simple media
// upload a test uses to put an object in. The Functions emulator is pointed at it with
// FIREBASE_STORAGE_EMULATOR_HOST (drivers/firebaseEmulators.ts): firebase-admin then sets STORAGE_EMULATOR_HOST
// to http://{host}, and @google-cloud/storage sends its requests there without the /storage/v1 part.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';

const LOOPBACK = '127.0.0.1';
/** Cloud Storage's own default and cap for maxResults. */
const DEFAULT_PAGE = 1_000;

export interface StoredObject {
  bucket: string;
  name: string;
  contentType: string;
  data: Buffer;
  /** The custom metadata (attachments carry their uploaderId). */
  metadata: Record<string, string>;
  generation: string;
  timeCreated: string;
}

export interface CloudStorageStandIn {
  /** host:port, as FIREBASE_STORAGE_EMULATOR_HOST takes it (no scheme). */
  host: string;
  /** http://host:port */
  url: string;
  put(
    bucket: string,
    name: string,
    data: Buffer | string,
    options?: { contentType?: string; metadata?: Record<string, string> },
  ): StoredObject;
  /** The names in a bucket, in Cloud Storage's (lexicographic) order. */
  names(bucket: string): string[];
  close(): Promise<void>;
}

/** An object as the JSON API describes it (an "objects" resource). */
function resource(object: StoredObject): Record<string, unknown> {
  return {
    kind: 'storage#object',
    id: `${object.bucket}/${object.name}/${object.generation}`,
    name: object.name,
    bucket: object.bucket,
    generation: object.generation,
    metageneration: '1',
    contentType: object.contentType,
    size: String(object.data.length),
    md5Hash: createHash('md5').update(object.data).digest('base64'),
    timeCreated: object.timeCreated,
    updated: object.timeCreated,
    storageClass: 'STANDARD',
    ...(Object.keys(object.metadata).length > 0 ? { metadata: object.metadata } : {}),
  };
}

function send(response: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    response.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' }).end(text);
}

/** Cloud Storage's error shape, which @google-cloud/storage reads its code and message from. */
function fail(response: ServerResponse, code: number, reason: string, message: string): void {
  send(response, code, { error: { code, message, errors: [{ domain: 'global', reason, message }] } });
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export interface StandInOptions {
  /** 0 (the default): a free one. */
  port?: number;
  /**
   * The most objects one page holds, whatever maxResults asks (Cloud Storage may answer fewer too): 1,000, Cloud
   * Storage's own cap, unless a test makes it smaller to see a client follow nextPageToken.
   */
  pageSize?: number;
}

/** Starts the stand-in on a loopback port, empty. */
export async function startCloudStorageStandIn(options: StandInOptions = {}): Promise<CloudStorageStandIn> {
  const { port = 0, pageSize: cap = DEFAULT_PAGE } = options;
  const buckets = new Map<string, Map<string, StoredObject>>();
  let generation = Date.now() * 1000;
  const bucketOf = (name: string) => {
    let bucket = buckets.get(name);
    if (!bucket) buckets.set(name, (bucket = new Map()));
    return bucket;
  };
  const put: CloudStorageStandIn['put'] = (bucket, name, data, options = {}) => {
    generation += 1;
    const object: StoredObject = {
      bucket,
      name,
      contentType: options.contentType ?? 'application/octet-stream',
      data: typeof data === 'string' ? Buffer.from(data) : data,
      metadata: options.metadata ?? {},
      generation: String(generation),
      timeCreated: new Date().toISOString(),
    };
    bucketOf(bucket).set(name, object);
    return object;
  };
  const names = (bucket: string) => [...bucketOf(bucket).keys()].sort();

  function list(response: ServerResponse, bucket: string, query: URLSearchParams): void {
    const prefix = query.get('prefix') ?? '';
    const requested = Number(query.get('maxResults') ?? DEFAULT_PAGE);
    const pageSize = Number.isInteger(requested) && requested > 0 ? Math.min(requested, cap) : cap;
    // The page token is the last name of the page before (opaque to the client, as Cloud Storage's is).
    const after = query.has('pageToken')
      ? Buffer.from(query.get('pageToken') ?? '', 'base64url').toString()
      : null;
    const matching = names(bucket).filter(
      (name) => name.startsWith(prefix) && (after === null || name > after),
    );
    const page = matching.slice(0, pageSize);
    const last = page.at(-1);
    send(response, 200, {
      kind: 'storage#objects',
      // Cloud Storage leaves items out of a page with none.
      ...(page.length > 0
        ? { items: page.map((name) => resource(bucketOf(bucket).get(name) as StoredObject)) }
        : {}),
      ...(matching.length > page.length && last
        ? { nextPageToken: Buffer.from(last).toString('base64url') }
        : {}),
    });
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', `http://${LOOPBACK}`);
    // The client sends the JSON API's paths with /storage/v1 before them, or (given STORAGE_EMULATOR_HOST as its
    // base) without it.
    const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(url.pathname);
    const path = url.pathname.replace(/^\/storage\/v1(?=\/b\/)/, '');
    const objects = /^\/b\/([^/]+)\/o$/.exec(path);
    const one = /^\/b\/([^/]+)\/o\/(.+)$/.exec(path);
    if (upload && request.method === 'POST') {
      const bucket = decodeURIComponent(upload[1] ?? '');
      const name = url.searchParams.get('name');
      if (url.searchParams.get('uploadType') !== 'media' || !name) {
        fail(response, 400, 'invalid', 'Only uploadType=media with a name is served here');
        return;
      }
      const data = await readBody(request);
      const contentType = request.headers['content-type'] ?? 'application/octet-stream';
      send(response, 200, resource(put(bucket, name, data, { contentType })));
      return;
    }
    if (objects && request.method === 'GET') {
      list(response, decodeURIComponent(objects[1] ?? ''), url.searchParams);
      return;
    }
    if (one) {
      const bucket = decodeURIComponent(one[1] ?? '');
      const name = decodeURIComponent(one[2] ?? '');
      const object = bucketOf(bucket).get(name);
      if (!object) {
        fail(response, 404, 'notFound', `No such object: ${bucket}/${name}`);
        return;
      }
      if (request.method === 'GET' && url.searchParams.get('alt') === 'media') {
        response.writeHead(200, { 'Content-Type': object.contentType }).end(object.data);
        return;
      }
      if (request.method === 'GET') {
        send(response, 200, resource(object));
        return;
      }
      if (request.method === 'DELETE') {
        bucketOf(bucket).delete(name);
        send(response, 204);
        return;
      }
    }
    fail(response, 501, 'notImplemented', `${request.method} ${url.pathname} is not served by this stand-in`);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      fail(response, 500, 'backendError', error instanceof Error ? error.message : String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOOPBACK, () => resolve());
  });
  const address = server.address();
  const host = `${LOOPBACK}:${typeof address === 'object' && address ? address.port : port}`;
  return {
    host,
    url: `http://${host}`,
    put,
    names,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
