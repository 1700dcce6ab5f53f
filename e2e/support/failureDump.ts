// After a browser test fails, what each of its open windows showed: the address, the visible words and a screenshot
// (in QUPM_E2E_DUMP_DIR, or the system's temporary folder), printed with the failure. A flake seen once under CI's
// load is then diagnosed from its log instead of guessed at. Every Chromium the test file launches is followed.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { FAILED_FLAG } from './environment';

const browsers = new Set<Browser>();
const contexts = new Set<BrowserContext>();

const launch = chromium.launch.bind(chromium);
chromium.launch = async (...args: Parameters<typeof launch>) => {
  const browser = await launch(...args);
  browsers.add(browser);
  browser.once('disconnected', () => browsers.delete(browser));
  return browser;
};
const launchPersistent = chromium.launchPersistentContext.bind(chromium);
chromium.launchPersistentContext = async (...args: Parameters<typeof launchPersistent>) => {
  const context = await launchPersistent(...args);
  contexts.add(context);
  context.once('close', () => contexts.delete(context));
  return context;
};

const WORDS = 1_500;
const PAGE_BOUND_MS = 5_000;

async function describePage(page: Page, file: string): Promise<string> {
  const words = await page
    .evaluate((max) => (document.body?.innerText ?? '').replace(/\n{2,}/g, '\n').slice(0, max), WORDS)
    .catch((error: unknown) => `(words not read: ${String(error)})`);
  const shot = await page
    .screenshot({ path: file, timeout: PAGE_BOUND_MS })
    .then(() => file)
    .catch(() => 'none');
  const size = page.viewportSize();
  return `${page.url()} (${size ? `${size.width}x${size.height}` : 'no viewport'}), screenshot ${shot}\n${words}`;
}

afterEach(async () => {
  if ((globalThis as Record<string, unknown>)[FAILED_FLAG] !== true) return;
  const pages = [
    ...[...browsers].flatMap((browser) => browser.contexts().flatMap((context) => context.pages())),
    ...[...contexts].flatMap((context) => context.pages()),
  ].filter((page) => !page.isClosed());
  if (pages.length === 0) return;
  const dir = path.join(process.env.QUPM_E2E_DUMP_DIR ?? tmpdir(), 'qupm-e2e-failures');
  mkdirSync(dir, { recursive: true });
  const test = expect.getState().currentTestName ?? 'a hook';
  const stamp = `${Date.now()}`;
  const described = await Promise.all(
    pages.map((page, i) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve('(not described in time)'), 2 * PAGE_BOUND_MS);
      });
      return Promise.race([describePage(page, path.join(dir, `${stamp}-${i + 1}.png`)), late]).finally(() =>
        clearTimeout(timer),
      );
    }),
  );
  console.error(
    `What the ${pages.length} open window(s) showed when "${test}" failed:\n` +
      described.map((text, i) => `--- window ${i + 1}: ${text}`).join('\n'),
  );
});
