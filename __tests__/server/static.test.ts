import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../server/app';
import { cacheControlFor } from '../../server/static';
import {
  APP_ROUTES,
  REQUIRED_HEADERS,
  SAMPLE_PATHS,
  expectSafeCsp,
  parseCsp,
} from '../support/securityHeaders';

const BOOT_SCRIPT = "document.body.dataset.boot='1'";
const SHELL = `<!doctype html><html><head><style>.boot{color:red}</style></head><body><div id="root">Loading QuPM...</div><script>${BOOT_SCRIPT}</script><script defer src="/static/js/main.0123abcd.js"></script></body></html>`;

let dir: string;
let app: FastifyInstance;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'qupm-static-'));
  mkdirSync(path.join(dir, 'static/js'), { recursive: true });
  mkdirSync(path.join(dir, 'icons'));
  writeFileSync(path.join(dir, 'index.html'), SHELL);
  writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(path.join(dir, 'manifest.webmanifest'), '{"name":"QuPM"}');
  mkdirSync(path.join(dir, 'static/css'));
  writeFileSync(path.join(dir, 'static/js/main.0123abcd.js'), 'console.log(1)');
  writeFileSync(path.join(dir, 'static/css/main.0123abcd.css'), 'p{}');
  writeFileSync(path.join(dir, 'icons/icon-192.png'), 'png');
  writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *');
  app = await buildServer({ staticDir: dir, db: ':memory:', demo: false });
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the embedded server serving the build', () => {
  it('caches hashed assets for a year', async () => {
    const res = await app.inject('/static/js/main.0123abcd.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('never lets HTTP caches keep the worker or the shell', async () => {
    const sw = await app.inject('/sw.js');
    const shell = await app.inject('/index.html');
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(shell.headers['cache-control']).toBe('no-cache');
  });

  it.each(Object.entries(SAMPLE_PATHS))('caches the %s (%s) as server/static.ts says', async (_kind, url) => {
    const res = await app.inject(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(cacheControlFor(url));
  });

  it('serves the manifest with its media type', async () => {
    const res = await app.inject('/manifest.webmanifest');
    expect(res.headers['content-type']).toContain('application/manifest+json');
  });

  it.each(APP_ROUTES)('answers the route %s with the shell, uncached', async (url) => {
    const res = await app.inject(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('Loading QuPM...');
  });

  it('answers a missing file or API path with a JSON 404, not the shell', async () => {
    for (const url of ['/static/js/gone.js', '/api/nothing', '/api']) {
      const res = await app.inject(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { status: 'NOT_FOUND', message: expect.any(String) } });
    }
  });

  it('reports its health', async () => {
    const res = await app.inject('/api/health');
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('sends security headers with a CSP that allows no inline script but the shell’s own, by its hash', async () => {
    const res = await app.inject('/');
    const csp = parseCsp(String(res.headers['content-security-policy']));
    expectSafeCsp(csp);
    expect(csp['script-src']).toEqual([
      "'self'",
      `'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`,
    ]);
    for (const [name, value] of Object.entries(REQUIRED_HEADERS)) expect(res.headers[name]).toBe(value);
  });
});
