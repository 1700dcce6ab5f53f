// The app shell in a real browser: first paint, every route, and the service worker.
import type { Browser, Page } from 'playwright-core';
import { layoutShiftTotal, waitForServiceWorkerControl, watchErrors } from './support/browser';
import type { RunningServer } from './support/server';
import { withBrowserSession } from './support/session';

let server: RunningServer;
let browser: Browser;
withBrowserSession((started) => ({ server, browser } = started));

describe('the app shell', () => {
  /** Opens `path` with the scripts held back; `release` lets them load. */
  async function withScriptsHeld(path: string) {
    const context = await browser.newContext();
    const page = await context.newPage();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/static/js/**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(server.url + path, { waitUntil: 'commit' });
    return { context, page, release };
  }

  /** The page is parsed (its script tags are there: a loaded machine may paint before the parser reaches them). */
  const noApp = async (page: Page) => {
    await page.waitForFunction(() => document.readyState !== 'loading');
    return page.evaluate(() => document.querySelectorAll('script[src]').length > 0 && !('React' in window));
  };

  /**
   * What a person can see or a screen reader can read of `selector`, once the page is parsed: the pre-rendered
   * welcome is in every page of the local build, and shown only where the head's script picks it.
   */
  const shown = async (page: Page, selector: string) => {
    await page.waitForFunction(() => document.readyState !== 'loading');
    return page.locator(selector).filter({ visible: true }).count();
  };

  it('paints the signed-out welcome at / before any script runs, then the app takes it over in place', async () => {
    const { context, page, release } = await withScriptsHeld('/');
    const heading = page.getByRole('heading', { level: 1, name: /advice, in one place/i });
    await heading.waitFor();
    expect(await noApp(page)).toBe(true);
    // Before React: the card is drawn but inert (nothing typed can be lost, the form cannot be sent).
    const button = page.locator('.auth__submit');
    expect(await page.locator('.auth[inert]').count()).toBe(1);
    const before = { heading: await heading.boundingBox(), button: await button.boundingBox() };
    expect(before.button).not.toBeNull();
    // Marks the pre-rendered node: React's own replaces it.
    await page.evaluate(() => document.querySelector('.auth')?.setAttribute('data-prerendered', ''));
    release();
    await page.locator('.auth:not([data-prerendered])').waitFor();
    expect(await page.locator('.auth[inert]').count()).toBe(0);
    expect({ heading: await heading.boundingBox(), button: await button.boundingBox() }).toEqual(before);
    await page.getByLabel('Email').fill('someone@example.com');
    expect(await page.getByLabel('Email').inputValue()).toBe('someone@example.com');
    expect(await layoutShiftTotal(page)).toBeLessThanOrEqual(0.01);
    await context.close();
  });

  it("paints 'Loading QuPM...' before any script at another address, then the app, without a layout shift", async () => {
    const { context, page, release } = await withScriptsHeld('/services');
    await page.getByText('Loading QuPM...').waitFor({ state: 'visible' });
    expect(await noApp(page)).toBe(true);
    // Only the loading screen: no page around it, no heading or field a screen reader would read.
    expect(await shown(page, '.layout')).toBe(0);
    expect(await page.getByRole('heading').count()).toBe(0);
    expect(await page.getByRole('textbox').count()).toBe(0);
    release();
    await page.getByRole('heading', { level: 1, name: /^services$/i }).waitFor();
    expect(await layoutShiftTotal(page)).toBeLessThanOrEqual(0.01);
    await context.close();
  });

  it("keeps 'Loading QuPM...' at / for a browser with a stored session, not the sign-in form", async () => {
    const context = await browser.newContext();
    await context.addInitScript(() => {
      localStorage.setItem('qupm_session', '{}');
    });
    const page = await context.newPage();
    await page.route('**/static/js/**', () => undefined);
    await page.goto(server.url + '/', { waitUntil: 'commit' });
    await page.getByText('Loading QuPM...').waitFor({ state: 'visible' });
    expect(await shown(page, '.auth')).toBe(0);
    expect(await page.getByRole('textbox', { name: 'Email' }).count()).toBe(0);
    await context.close();
  });

  it.each([
    ['/', /advice, in one place/i],
    ['/services', /^services$/i],
    // Signed out, an invitation's public preview is asked for: this id names none.
    ['/invite/AbCdEfGhIj0123456789', /we couldn.t find this invitation/i],
    ['/activate/AbCdEfGhIj0123456789', /activate your invitation/i],
    ['/invite/not-valid', /this invitation link is not valid/i],
    ['/settings', /^settings$/i],
    ['/settings/about', /^about$/i],
    ['/settings/nope', /there is no such settings section/i],
    ['/no/such/page', /this page does not exist/i],
  ])('renders %s without a page error', async (path, heading) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(server.url + path);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    // The browser logs the preview's answer for an id that names no invitation (404); nothing else.
    expect(errors.filter((e) => !(path.startsWith('/invite/') && /status of 404/.test(e)))).toEqual([]);
    await context.close();
  });

  it('signs out at /logout and lands on the home screen', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url + '/logout');
    await page.getByRole('heading', { level: 1, name: /advice, in one place/i }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await context.close();
  });

  it('loads each route lazily, in its own chunk', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const chunks: string[] = [];
    page.on('request', (request) => {
      const match = /\/static\/js\/(route-[a-z]+)\./.exec(request.url());
      if (match?.[1]) chunks.push(match[1]);
    });
    await page.goto(server.url + '/');
    await page.getByRole('heading', { level: 1, name: /advice, in one place/i }).waitFor();
    // The welcome is drawn from index.html before any script: its links are plain links until the app has taken
    // over (its sign-in card is inert until then). A click before that loads /services as a new page.
    await page.locator('.auth.card:not([inert])').waitFor();
    expect(chunks).toEqual(['route-main']);
    await page.getByRole('link', { name: 'Services' }).click();
    await page.getByRole('heading', { level: 1, name: /^services$/i }).waitFor();
    expect(chunks).toEqual(['route-main', 'route-services']);
    await context.close();
  });

  it('registers the service worker at scope / and lets it control the page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url + '/');
    await waitForServiceWorkerControl(page);
    const registration = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      return { scope: reg?.scope, script: reg?.active?.scriptURL };
    });
    expect(registration).toEqual({ scope: server.url + '/', script: server.url + '/sw.js' });
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('link', { name: /^About\b/ }).click();
    await page.getByText('Works offline').waitFor();
    expect(await page.locator('.facts__row', { hasText: 'Works offline' }).locator('dd').textContent()).toBe(
      'Yes',
    );
    await context.close();
  });
});
