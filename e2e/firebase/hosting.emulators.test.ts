// Hosting as deployed: the Hosting emulator serving the app's Firebase build with firebase.json's headers and
// rewrites. Each file is cached as the embedded server caches it (server/static.ts cacheControlFor), every header
// firebase.json sets is sent as written (the Content-Security-Policy also names the emulators, which the emulator
// build talks to instead of Google's hosts), routes fall back to the shell, a missing asset is a 404 (never the
// shell: a stale chunk must fail as a chunk), and /api/mail/unsubscribe reaches its function.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { emulatorOrigins, readFirebaseJson, withEmulatorOrigins } from '../../drivers/firebaseEmulators';
import { cacheControlFor } from '../../server/static';
import { emulators } from './support/emulators';

interface HeaderRule {
  source?: string;
  regex?: string;
  headers: { key: string; value: string }[];
}

/** firebase.json's headers for every path (the `**` rule), as the emulator run serves them. */
function everywhereHeaders(): Record<string, string> {
  const { hosting } = readFirebaseJson();
  const rule = (hosting.headers as HeaderRule[]).find((candidate) => candidate.source === '**');
  if (!rule) throw new Error('firebase.json has no "**" header rule');
  const origins = emulatorOrigins(emulators().ports);
  return Object.fromEntries(
    rule.headers.map(({ key, value }) => [
      key.toLowerCase(),
      key === 'Content-Security-Policy' ? withEmulatorOrigins(value, origins) : value,
    ]),
  );
}

async function get(urlPath: string): Promise<Response> {
  return fetch(emulators().hostingUrl + urlPath, { redirect: 'manual' });
}

function expectHeaders(answer: Response, expected: Record<string, string>): void {
  for (const [key, value] of Object.entries(expected))
    expect([key, answer.headers.get(key)]).toEqual([key, value]);
}

describe('Hosting, with firebase.json', () => {
  it('serves the shell at / with every security header and no caching', async () => {
    const answer = await get('/');
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('Loading QuPM...');
    expectHeaders(answer, { ...everywhereHeaders(), 'cache-control': cacheControlFor('/') });
  });

  it('rewrites an app route to the shell', async () => {
    for (const route of ['/invite/AbCdEfGhIjKlMnOpQrSt', '/settings/devices', '/verify-email']) {
      const answer = await get(route);
      expect([route, answer.status]).toEqual([route, 200]);
      expect(await answer.text()).toContain('Loading QuPM...');
      expectHeaders(answer, { ...everywhereHeaders(), 'cache-control': cacheControlFor(route) });
    }
  });

  it('caches hashed assets for a year and icons for a day', async () => {
    const scripts = readdirSync(path.join(emulators().hostingDir, 'static', 'js')).filter((file) =>
      /\.[0-9a-f]{8}\.js$/.test(file),
    );
    const scriptPath = `/static/js/${scripts[0]}`;
    const script = await get(scriptPath);
    expect(script.status).toBe(200);
    expectHeaders(script, { ...everywhereHeaders(), 'cache-control': cacheControlFor(scriptPath) });
    const icons = readdirSync(path.join(emulators().hostingDir, 'icons'));
    const iconPath = `/icons/${icons[0]}`;
    const icon = await get(iconPath);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('cache-control')).toBe(cacheControlFor(iconPath));
  });

  it('never caches the service worker, and types the manifest', async () => {
    const worker = await get('/sw.js');
    expect(worker.status).toBe(200);
    expect(worker.headers.get('cache-control')).toBe(cacheControlFor('/sw.js'));
    const manifest = await get('/manifest.webmanifest');
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
  });

  it('answers 404, not the shell, for an asset that is not there', async () => {
    const answer = await get('/static/js/main.00000000.js');
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toContain('Loading QuPM...');
  });

  it('rewrites /api/mail/unsubscribe to its function, with the security headers', async () => {
    const answer = await get('/api/mail/unsubscribe?token=not-a-token');
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await answer.text();
    expect(page).not.toContain('Loading QuPM...');
    expect(page).toMatch(/<html/i);
    expectHeaders(answer, everywhereHeaders());
  });
});
