// The app heals itself: legacy messaging workers are removed at start, a route chunk that fails to
// load reloads once and then shows an error screen, a new deploy shows the update banner only with the setting
// 'true', and on an iPhone a signed-in person gets the debug button — in Chromium, on the real build and server.
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../drivers/chromium';
import { waitForServiceWorkerControl } from './support/browser';
import { submitSignIn } from './support/session';
import { copyOfBuild, startServer } from './support/server';
import type { RunningServer } from './support/server';

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1';

let browser: Browser;
let context: BrowserContext | undefined;
let server: RunningServer | undefined;
let build: ReturnType<typeof copyOfBuild> | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  await context?.close();
  await server?.close();
  build?.remove();
  context = undefined;
  server = undefined;
  build = undefined;
});

async function registrations(page: Page): Promise<Array<{ scope: string; script: string }>> {
  return page.evaluate(async () =>
    (await navigator.serviceWorker.getRegistrations()).map((r) => ({
      scope: r.scope,
      script: (r.active ?? r.waiting ?? r.installing)?.scriptURL ?? '',
    })),
  );
}

describe('legacy messaging workers (spec §4)', () => {
  it('unregisters a /firebase-messaging-sw.js registered before the app started', async () => {
    build = copyOfBuild();
    writeFileSync(
      path.join(build.dir, 'firebase-messaging-sw.js'),
      "self.addEventListener('push', () => {});\n",
    );
    server = await startServer({ staticDir: build.dir });
    context = await browser.newContext();
    const page = await context.newPage();
    // A page of the origin that does not run the app, as an older build's visit would have left it.
    await page.goto(server.url + '/robots.txt');
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.register('/firebase-messaging-sw.js', {
        scope: '/firebase-cloud-messaging-push-scope',
      });
      const worker = registration.installing ?? registration.waiting ?? registration.active;
      if (worker && worker.state !== 'activated') {
        await new Promise<void>((resolve) =>
          worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()),
        );
      }
    });
    expect((await registrations(page)).map((r) => r.script)).toEqual([
      `${server.url}/firebase-messaging-sw.js`,
    ]);

    await page.goto(server.url + '/');
    await waitForServiceWorkerControl(page);
    await page.waitForFunction(async () => (await navigator.serviceWorker.getRegistrations()).length === 1);
    expect(await registrations(page)).toEqual([{ scope: `${server.url}/`, script: `${server.url}/sw.js` }]);
  });
});

describe('a route chunk that fails to load (spec §4)', () => {
  it('reloads once, then shows the error screen with a retry, and never loops', async () => {
    server = await startServer();
    // No worker: the chunk must come from the network, where it is answered with a 404.
    context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.route('**/static/js/route-services.*.chunk.js', (route) =>
      route.fulfill({ status: 404, body: 'Not found' }),
    );
    let documentLoads = 0;
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documentLoads += 1;
    });
    await page.goto(server.url + '/services');
    await page.getByRole('heading', { level: 1, name: 'This screen could not be loaded' }).waitFor();
    expect(documentLoads).toBe(2);
    expect(await page.evaluate(() => sessionStorage.getItem('chunk_error_reloaded'))).toBeNull();
    expect(await page.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);

    // Once the chunk is there again, Try again loads the screen.
    await page.unroute('**/static/js/route-services.*.chunk.js');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: /^services$/i }).waitFor();
    expect(documentLoads).toBe(3);
  });
});

describe("an on-demand saga's chunk that fails to load (spec §4)", () => {
  /**
   * Opens `path` signed in as a member with `chunk` answered 404 from the network (no worker to serve it), and
   * counts the page's loads and the chunk's requests.
   */
  async function openWithMissingChunk(chunk: string, path: string) {
    server = await startServer();
    context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const pattern = `**/static/js/${chunk}.*.chunk.js`;
    const counts = { documentLoads: 0, chunkRequests: 0 };
    await page.route(pattern, (route) => {
      counts.chunkRequests += 1;
      return route.fulfill({ status: 404, body: 'Not found' });
    });
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) counts.documentLoads += 1;
    });
    await page.goto(server.url + path);
    await submitSignIn(page, 'member@qupm.demo');
    return { page, counts, pattern };
  }

  /** The error screen once recovery is exhausted; after the supervisor's first restarts, still no third load. */
  async function expectReloadedOnceThenError(
    page: Page,
    counts: { documentLoads: number; chunkRequests: number },
  ) {
    const error = page.getByRole('heading', { level: 1, name: 'This screen could not be loaded' });
    await error.waitFor();
    expect(counts.documentLoads).toBe(2);
    expect(counts.chunkRequests).toBe(2);
    // A saga that failed for its supervisor would be started again after 1 s, 2 s, … and ask for the chunk again.
    await page.waitForTimeout(4_000);
    expect(counts.documentLoads).toBe(2);
    expect(counts.chunkRequests).toBe(2);
    expect(await error.isVisible()).toBe(true);
  }

  it('the leaving chunk (loaded once a session starts) reloads once, then shows the error screen, never a loop', async () => {
    const { page, counts, pattern } = await openWithMissingChunk('leaving', '/');
    await expectReloadedOnceThenError(page, counts);

    // Once the chunk is there again, Try again loads the app, signed in.
    await page.unroute(pattern);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
    expect(counts.documentLoads).toBe(3);
  });

  it("the mailed links' chunk (loaded at Settings → Profile's first request) reloads once, then shows the error screen", async () => {
    // Signed in on the section's own address: its address check is the slice's first request.
    const { page, counts } = await openWithMissingChunk('route-links', '/settings/profile');
    await expectReloadedOnceThenError(page, counts);
  });
});

describe("the Workbox chunk that fails to load (the worker's registration, loaded after the page)", () => {
  it('reloads once, then registers the worker that takes control of the page', async () => {
    server = await startServer();
    context = await browser.newContext();
    const page = await context.newPage();
    let workboxRequests = 0;
    await page.route('**/static/js/workbox.*.chunk.js', (route) => {
      workboxRequests += 1;
      // The chunk of a build that was replaced: gone on the first page, there again after the reload.
      return workboxRequests === 1 ? route.fulfill({ status: 404, body: 'Not found' }) : route.continue();
    });
    let documentLoads = 0;
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documentLoads += 1;
    });
    await page.goto(server.url + '/settings/about');
    // The first page reloads on its own at a moment the test does not know: asking it about its worker may meet the
    // reload, and is asked again of the new page. Only the new page can be controlled (the first never registered).
    for (let attempt = 1; ; attempt += 1) {
      try {
        await waitForServiceWorkerControl(page);
        break;
      } catch (error) {
        if (attempt === 3 || !/Execution context was destroyed/.test(String(error))) throw error;
      }
    }
    expect(workboxRequests).toBe(2);
    expect(documentLoads).toBe(2);
    await page.getByRole('heading', { level: 1, name: 'About' }).waitFor();
  });
});

describe('a new build deployed while a tab is open (spec §2)', () => {
  async function openAbout(setting: string | null): Promise<Page> {
    build = copyOfBuild();
    server = await startServer({ staticDir: build.dir });
    context = await browser.newContext();
    if (setting !== null) {
      await context.addInitScript(
        (value) => localStorage.setItem('enable_update_notifications', value),
        setting,
      );
    }
    const page = await context.newPage();
    await page.goto(server.url + '/settings/about');
    await waitForServiceWorkerControl(page);
    await page.getByText('Up to date').waitFor();
    return page;
  }

  async function deploy(page: Page): Promise<void> {
    const sw = path.join(build!.dir, 'sw.js');
    appendFileSync(sw, '\n// a new deploy\n');
    // A deploy replaces the precompressed copies too (the server prefers them).
    rmSync(`${sw}.br`, { force: true });
    rmSync(`${sw}.gz`, { force: true });
    // What the browser does by itself on navigations and every hour while the app is open.
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    await page.getByText('A new version is ready').waitFor();
  }

  it("shows 'App update available - restart app to apply' top right, and Restart applies it", async () => {
    const page = await openAbout('true');
    await deploy(page);
    const banner = page
      .getByRole('status')
      .filter({ hasText: 'App update available - restart app to apply' });
    await banner.waitFor();
    const box = (await banner.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.y).toBeLessThan(40);
    expect(box.x + box.width).toBeGreaterThan(viewport.width - 40);

    // Waiting starts before the click: a fast reload can end before a wait begun after it would see it.
    const reloaded = page.waitForEvent('load');
    await banner.getByRole('button', { name: 'Restart' }).click();
    await reloaded;
    await page.getByText('Up to date').waitFor();
    expect(
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.waiting),
    ).toBeNull();
  });

  it('goes away after its 5 s', async () => {
    const page = await openAbout('true');
    await deploy(page);
    const banner = page.getByText('App update available - restart app to apply');
    await banner.waitFor();
    await banner.waitFor({ state: 'detached' });
    expect(await page.getByText('A new version is ready').isVisible()).toBe(true);
  });

  it('is remembered after a reload while the new version still waits (issue #13 part 9)', async () => {
    const page = await openAbout(null);
    await deploy(page);
    await page.reload();
    await page.getByText('A new version is ready').waitFor();
    await page.getByRole('button', { name: 'Restart to update' }).waitFor();
    expect(
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.waiting !== null),
    ).toBe(true);
  });

  it.each([
    ['not set', null],
    ["'false'", 'false'],
  ])('does not show when the setting is %s', async (_label, setting) => {
    const page = await openAbout(setting);
    await deploy(page);
    expect(await page.getByText('App update available - restart app to apply').count()).toBe(0);
  });
});

describe('the iOS debug menu (spec §2)', () => {
  it('shows a button at the bottom right to a signed-in iPhone user, which dims and opens the menu', async () => {
    server = await startServer();
    context = await browser.newContext({
      userAgent: IPHONE_UA,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    // The page's clock runs as time does, and skips the 10 s before the button dims instead of waiting for them.
    await page.clock.install();
    await page.goto(server.url + '/');
    await page.getByLabel('Email').fill('member@qupm.demo');
    await page.getByLabel('Password').fill('qupm-demo');
    expect(await page.getByRole('button', { name: 'Open the debug menu' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Sign in' }).click();

    const button = page.getByRole('button', { name: 'Open the debug menu' });
    await button.waitFor();
    const box = (await button.boundingBox())!;
    expect(box.x + box.width).toBeGreaterThan(390 - 40);
    expect(box.y + box.height).toBeGreaterThan(844 - 40);
    // spec §2: "a fixed-position button at the bottom right": it stays there however the page scrolls.
    expect(await button.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    expect(await button.getAttribute('data-dimmed')).not.toBe('true');
    await page.clock.fastForward(11_000);
    await page.locator('.debug-button[data-dimmed="true"]').waitFor();
    expect(Number(await button.evaluate((el) => getComputedStyle(el).opacity))).toBeLessThan(1);

    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void (dialog.type() === 'prompt' ? dialog.accept('2') : dialog.accept());
    });
    const alerted = new Promise<void>((resolve) =>
      page.on('dialog', (dialog) => dialog.type() === 'alert' && resolve()),
    );
    await button.click();
    await alerted;
    expect(dialogs[0]).toMatch(/^prompt: QuPM debug menu/);
    expect(dialogs[0]).toContain('8. Cancel');
    expect(dialogs[1]).toMatch(/^alert: Service-worker health\n/);
  });

  it('shows no button on other platforms', async () => {
    server = await startServer();
    context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url + '/');
    await page.getByLabel('Email').fill('member@qupm.demo');
    await page.getByLabel('Password').fill('qupm-demo');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
    expect(await page.getByRole('button', { name: 'Open the debug menu' }).count()).toBe(0);
  });
});
