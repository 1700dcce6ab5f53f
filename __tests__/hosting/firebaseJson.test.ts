// firebase.json's Hosting answers, held to what the embedded server really sends for the same paths: the same
// cache policy (server/static.ts cacheControlFor), the same security headers (helmet's set, read off a running
// server), the same CSP but for the Firebase endpoints the client calls, plus HSTS, which only Hosting's TLS
// front can promise. Hosting applies every header rule that matches a path; the rules here must never set one
// header twice for a path, so that no undocumented precedence decides.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../server/app';
import { cacheControlFor } from '../../server/static';
import {
  APP_ROUTES,
  FIREBASE_CONNECT_SOURCES,
  REQUIRED_HEADERS,
  SAMPLE_PATHS,
  expectSafeCsp,
  parseCsp,
} from '../support/securityHeaders';

interface HeaderRule {
  source?: string;
  regex?: string;
  headers: Array<{ key: string; value: string }>;
}
interface FirebaseJson {
  hosting: {
    public: string;
    rewrites: Array<{ source?: string; regex?: string; destination: string }>;
    headers: HeaderRule[];
  };
  firestore: { rules: string; indexes: string };
  functions: Array<{ source: string; runtime: string }>;
  emulators: Record<string, { port?: number }>;
}

const root = path.resolve(__dirname, '../..');
const config = JSON.parse(readFileSync(path.join(root, 'firebase.json'), 'utf8')) as FirebaseJson;

/** Hosting's glob: `**` any path, `*` within one segment. */
function globToRegExp(glob: string): RegExp {
  const body = glob
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${body}$`);
}

const matches = (rule: { source?: string; regex?: string }, urlPath: string): boolean =>
  rule.regex !== undefined
    ? new RegExp(rule.regex).test(urlPath)
    : globToRegExp(rule.source ?? '').test(urlPath);

/** The headers Hosting adds to `urlPath`, by lower-case name; throws if two rules set the same one. */
function hostingHeaders(urlPath: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const rule of config.hosting.headers.filter((r) => matches(r, urlPath))) {
    for (const { key, value } of rule.headers) {
      const name = key.toLowerCase();
      if (name in headers) throw new Error(`${urlPath}: two header rules set ${key}`);
      headers[name] = value;
    }
  }
  return headers;
}

function rewriteOf(urlPath: string): string | undefined {
  return config.hosting.rewrites.find((rule) => matches(rule, urlPath))?.destination;
}

const SHELL =
  '<!doctype html><html><head><style>.boot{color:red}</style></head><body><div id="root">Loading QuPM...</div></body></html>';
let dir: string;
let app: FastifyInstance;
let server: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'qupm-hosting-'));
  mkdirSync(path.join(dir, 'static/js'), { recursive: true });
  writeFileSync(path.join(dir, 'index.html'), SHELL);
  writeFileSync(path.join(dir, 'manifest.webmanifest'), '{"name":"QuPM"}');
  app = await buildServer({ staticDir: dir, db: ':memory:', demo: false });
  server = Object.fromEntries(
    Object.entries((await app.inject('/')).headers).map(([name, value]) => [name, String(value)]),
  );
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('firebase.json hosting', () => {
  it('serves the production build', () => {
    expect(config.hosting.public).toBe('dist');
  });

  it.each([...Object.values(SAMPLE_PATHS), ...APP_ROUTES])(
    'caches %s as the embedded server does',
    (urlPath) => {
      expect(hostingHeaders(urlPath)['cache-control']).toBe(cacheControlFor(urlPath));
    },
  );

  it('keeps hashed assets a year and never caches the worker or the shell', () => {
    expect(hostingHeaders(SAMPLE_PATHS.hashedScript)['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    expect(hostingHeaders(SAMPLE_PATHS.worker)['cache-control']).toBe('no-cache');
    expect(hostingHeaders(SAMPLE_PATHS.shell)['cache-control']).toBe('no-cache');
  });

  it.each(APP_ROUTES)('answers the route %s with the shell', (route) => {
    expect(rewriteOf(route)).toBe('/index.html');
  });

  it.each(['/static/js/gone.0123abcd.js', '/icons/missing.png', '/sw.js'])(
    'never answers a missing file such as %s with the shell (a year-cached chunk URL must not hold HTML)',
    (urlPath) => {
      expect(rewriteOf(urlPath)).toBeUndefined();
    },
  );

  it('serves the manifest with the media type the embedded server gives it', async () => {
    const res = await app.inject(SAMPLE_PATHS.manifest);
    expect(hostingHeaders(SAMPLE_PATHS.manifest)['content-type']).toBe(
      String(res.headers['content-type']).split(';')[0],
    );
  });

  it('sends every security header the embedded server sends, with the same value', () => {
    const firebase = hostingHeaders('/');
    const security = Object.keys(server).filter(
      (name) =>
        ![
          'content-security-policy',
          'cache-control',
          'content-type',
          'content-length',
          'date',
          'connection',
        ].includes(name),
    );
    expect(security.length).toBeGreaterThanOrEqual(Object.keys(REQUIRED_HEADERS).length);
    for (const name of security)
      expect({ name, value: firebase[name] }).toEqual({ name, value: server[name] });
    for (const [name, value] of Object.entries(REQUIRED_HEADERS)) expect(firebase[name]).toBe(value);
  });

  it.each([...Object.values(SAMPLE_PATHS), ...APP_ROUTES])('sends the security headers on %s', (urlPath) => {
    const headers = hostingHeaders(urlPath);
    expect(headers['content-security-policy']).toBeDefined();
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  it("has the embedded server's CSP, connecting also to exactly the Firebase endpoints the client uses, and showing Storage's pictures", () => {
    const firebase = parseCsp(hostingHeaders('/')['content-security-policy'] ?? '');
    const embedded = parseCsp(server['content-security-policy'] ?? '');
    expectSafeCsp(firebase);
    expect(firebase['connect-src']).toEqual([
      ...(embedded['connect-src'] ?? []),
      ...FIREBASE_CONNECT_SOURCES,
    ]);
    // Faces are Storage download URLs on Firebase (core/photos.ts); the embedded server serves them itself.
    expect(firebase['img-src']).toEqual([
      ...(embedded['img-src'] ?? []),
      'https://firebasestorage.googleapis.com',
    ]);
    // style-src holds the hash of each host's own shell (the built one's is checked in build/bundle.test.ts).
    const rest = (csp: Record<string, string[]>) =>
      Object.fromEntries(
        Object.entries(csp).filter(
          ([name]) => name !== 'connect-src' && name !== 'style-src' && name !== 'img-src',
        ),
      );
    expect(rest(firebase)).toEqual(rest(embedded));
  });

  it('promises HTTPS for a year with HSTS (the embedded server leaves that to its TLS front)', () => {
    const hsts = hostingHeaders('/')['strict-transport-security'] ?? '';
    expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(31_536_000);
    expect(server['strict-transport-security']).toBeUndefined();
  });
});

describe('firebase.json firestore, functions and emulators', () => {
  it('deploys the rules and indexes of this repository', () => {
    expect(config.firestore).toMatchObject({ rules: 'firestore.rules', indexes: 'firestore.indexes.json' });
  });

  it('deploys functions/ on Node 20', () => {
    expect(config.functions).toEqual([expect.objectContaining({ source: 'functions', runtime: 'nodejs20' })]);
  });

  it("keeps the Firestore emulator off the embedded server's port 8080", () => {
    const ports = Object.values(config.emulators)
      .map((emulator) => emulator.port)
      .filter((port) => port !== undefined);
    expect(ports).not.toContain(8080);
    expect(new Set(ports).size).toBe(ports.length);
  });
});
