// The production build's budget and shape: a small shell with no eager Firebase service code, one lazy chunk per
// route, hashed files under static/js and static/css, and a worker that precaches all of it.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SHELL_BUDGET_BYTES, buildProduction, reportBundle } from '../../bench/bundle';
import type { StatsCompilation } from 'webpack';
import type { BundleReport } from '../../bench/bundle';
import { INLINE_SCRIPT, inlineScriptHashes, inlineStyleHashes } from '../../server/static';
import { SHELL_LOADER } from '../../webpack.config';
import { parseCsp } from '../support/securityHeaders';

/** The shell loader's file list (index.html's `qupm-shell-files` data block). */
function shellFileList(html: string): { scripts: string[]; preload: string[] } {
  const block = /<script type="?application\/json"? id="?qupm-shell-files"?>([\s\S]*?)<\/script>/.exec(
    html,
  )?.[1];
  if (block === undefined) throw new Error('index.html has no shell file list');
  return JSON.parse(block) as { scripts: string[]; preload: string[] };
}

let outDir: string;
let report: BundleReport;
/** Whether this test made the build it measures (and so removes it). */
let own = false;

beforeAll(async () => {
  // CI builds once (scripts/build.ts --stats) and names the stats here: measure that build instead of another.
  const prebuilt = process.env.QUPM_BUILD_STATS;
  if (prebuilt) {
    const saved = JSON.parse(readFileSync(prebuilt, 'utf8')) as { outDir: string; stats: StatsCompilation };
    outDir = saved.outDir;
    report = reportBundle(saved.stats, outDir);
    return;
  }
  own = true;
  outDir = mkdtempSync(path.join(tmpdir(), 'qupm-build-'));
  report = reportBundle(await buildProduction(outDir), outDir);
}, 240_000);

afterAll(() => {
  if (own) rmSync(outDir, { recursive: true, force: true });
});

describe('the production build', () => {
  it('keeps the shell within 150 KB of gzipped JS and CSS', () => {
    expect(report.shell.files.length).toBeGreaterThan(0);
    expect(report.shell.gzipBytes).toBeLessThanOrEqual(SHELL_BUDGET_BYTES);
  });

  it('carries no Firestore, Messaging or Functions code in the shell', () => {
    expect(report.shell.lazyOnlyModules).toEqual([]);
  });

  it('has one lazy chunk per route', () => {
    expect(report.routes.map((r) => r.chunk)).toEqual([
      'route-activate',
      'route-invite',
      'route-links',
      'route-logout',
      'route-main',
      'route-not-found',
      'route-services',
      'route-settings',
    ]);
    for (const route of report.routes) expect(route.files.some((f) => f.file.endsWith('.js'))).toBe(true);
  });

  it('writes content-hashed chunks under static/js and extracted CSS under static/css', () => {
    const js = readdirSync(path.join(outDir, 'static/js')).filter((f) => f.endsWith('.js'));
    const css = readdirSync(path.join(outDir, 'static/css')).filter((f) => f.endsWith('.css'));
    expect(js.length).toBeGreaterThan(3);
    expect(css.length).toBeGreaterThan(0);
    for (const file of [...js, ...css]) expect(file).toMatch(/\.[0-9a-f]{8}(\.chunk)?\.(js|css)$/);
    const maps = readdirSync(path.join(outDir, 'static/js')).filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBe(js.length);
  });

  it("asks for the shell and preloads the first screen's lazy chunks (home route, backend adapter) after its first paint", () => {
    const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
    // No script and no script preload in the markup: the shell loader asks for them once the first frame is painted.
    expect(html).not.toMatch(/<script[^>]*\bsrc=/);
    expect(html).not.toMatch(/<link[^>]*\bas="?script/);
    const shellFiles = shellFileList(html);
    expect(shellFiles.scripts.map((src) => path.basename(src).replace(/\.[0-9a-f]{8}\.js$/, ''))).toEqual([
      'runtime',
      'framework',
      'main',
    ]);
    const preloaded = shellFiles.preload;
    // Every script of the first screen's budget is asked for, as a script or a preload.
    for (const file of report.shell.files.map((f) => `/${f.file}`).filter((file) => file.endsWith('.js')))
      expect([...shellFiles.scripts, ...preloaded]).toContain(file);
    expect(preloaded.some((href) => /^\/static\/js\/route-main\.[0-9a-f]{8}\.chunk\.js$/.test(href))).toBe(
      true,
    );
    expect(preloaded.some((href) => /^\/static\/js\/backend-local\.[0-9a-f]{8}\.chunk\.js$/.test(href))).toBe(
      true,
    );
    for (const href of [...preloaded, ...shellFiles.scripts])
      expect(readdirSync(path.join(outDir, path.dirname(href)))).toContain(path.basename(href));
  });

  it('sets the chunk load timeout to 120 s', () => {
    const runtime = report.shell.files.find((f) => f.file.includes('runtime'));
    expect(runtime).toBeDefined();
    expect(readFileSync(path.join(outDir, runtime!.file), 'utf8')).toMatch(/12e4|120000/);
  });

  it("contains none of Redux Toolkit's development checks", () => {
    // The checks' messages are in Redux Toolkit's source, so their absence from the shell means they were dropped.
    const toolkit = readFileSync(
      path.join(path.dirname(require.resolve('@reduxjs/toolkit')), 'redux-toolkit.development.cjs'),
      'utf8',
    );
    expect(toolkit).toMatch(/non-serializable value was detected/i);
    const shellCode = report.shell.files
      .map((f) => readFileSync(path.join(outDir, f.file), 'utf8'))
      .join('\n');
    expect(shellCode).not.toMatch(/non-serializable value was detected/i);
    expect(shellCode).not.toMatch(/state mutation was detected/i);
    expect(shellCode).not.toMatch(/immutableStateInvariant|serializableStateInvariant/);
  });

  it("carries React Router's production build, without its development warnings", () => {
    // What the package resolves to (its development build) has the warning.
    const development = path.dirname(require.resolve('react-router'));
    const developmentCode = readdirSync(development)
      .filter((f) => f.endsWith('.mjs'))
      .map((f) => readFileSync(path.join(development, f), 'utf8'))
      .join('\n');
    expect(developmentCode).toMatch(/No routes matched location/);
    const shellCode = report.shell.files
      .map((f) => readFileSync(path.join(outDir, f.file), 'utf8'))
      .join('\n');
    expect(shellCode).toMatch(/data-discover/);
    expect(shellCode).not.toMatch(/No routes matched location/);
  });

  it('precaches the shell and every route chunk in the service worker', () => {
    const sw = readFileSync(path.join(outDir, 'sw.js'), 'utf8');
    const precached = new Set([...sw.matchAll(/'url':'([^']+)'/g)].map((m) => m[1]));
    expect(precached).toContain('/index.html');
    expect(precached).toContain('/manifest.webmanifest');
    for (const route of report.routes)
      for (const file of route.files) expect(precached).toContain(`/${file.file}`);
    for (const file of report.shell.files) expect(precached).toContain(`/${file.file}`);
    expect([...precached].filter((url) => url?.endsWith('.map'))).toEqual([]);
  });

  it('writes the shell page with the loading text and the web app manifest', () => {
    const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
    expect(html).toContain('Loading QuPM...');
    // Two inline scripts: the one that picks the pre-rendered welcome and the shell loader (the server's CSP allows
    // each by its hash); the loader's file list is a data block, never run.
    const inline = [...html.matchAll(INLINE_SCRIPT)].map((m) => m[1]);
    expect(inline).toHaveLength(2);
    expect(inline[0]).toContain('data-welcome');
    expect(inline[1]).toBe(SHELL_LOADER);
    expect(inlineScriptHashes(html)).toHaveLength(2);
    const manifest = JSON.parse(readFileSync(path.join(outDir, 'manifest.webmanifest'), 'utf8')) as {
      icons: Array<{ sizes: string; purpose: string }>;
      short_name: string;
      display: string;
    };
    expect(manifest.short_name).toBe('QuPM');
    expect(manifest.display).toBe('standalone');
    expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(
      expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
    );
  });

  it("is the shell firebase.json's CSP allows, by the exact hash of its inline style", () => {
    // The embedded server hashes the shell it serves at start; Hosting's header is fixed in firebase.json, so a
    // change to the shell's critical CSS must update it (this test names the hash to put there).
    const firebase = JSON.parse(readFileSync(path.join(__dirname, '../../firebase.json'), 'utf8')) as {
      hosting: { headers: Array<{ source?: string; headers: Array<{ key: string; value: string }> }> };
    };
    const csp = firebase.hosting.headers
      .flatMap((rule) => rule.headers)
      .find((header) => header.key === 'Content-Security-Policy')?.value;
    const shell = readFileSync(path.join(outDir, 'index.html'), 'utf8');
    expect(parseCsp(csp ?? '')['style-src']).toEqual(["'self'", ...inlineStyleHashes(shell)]);
  });
});
