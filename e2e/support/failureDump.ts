// After a browser test fails, what each of its open windows showed: the address, the visible words and a screenshot
// (in QUPM_E2E_DUMP_DIR, or the system's temporary folder), its last console warnings and errors and the requests
// it still waited for, printed with the failure. A flake seen once under CI's load is then diagnosed from its log
// instead of guessed at ("Loading…" forever: a request unanswered, or none made). Every Chromium the test file
// launches is followed.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { FAILED_FLAG } from './environment';

const browsers = new Set<Browser>();
const contexts = new Set<BrowserContext>();

/** What a page said and asked for lately: its console's warnings and errors, and its requests not yet answered. */
interface PageLog {
  said: string[];
  waiting: Map<object, { url: string; since: number }>;
}
const logs = new WeakMap<Page, PageLog>();
const SAID_KEPT = 20;

function follow(page: Page): void {
  if (logs.has(page)) return;
  const log: PageLog = { said: [], waiting: new Map() };
  logs.set(page, log);
  const say = (line: string) => {
    log.said.push(`${new Date().toISOString().slice(11, 23)} ${line.slice(0, 300)}`);
    if (log.said.length > SAID_KEPT) log.said.shift();
  };
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      say(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => say(`pageerror: ${error.message}`));
  page.on('request', (request) => log.waiting.set(request, { url: request.url(), since: Date.now() }));
  const answered = (request: object) => log.waiting.delete(request);
  page.on('requestfinished', answered);
  page.on('requestfailed', (request) => {
    answered(request);
    say(`request failed: ${request.url()} (${request.failure()?.errorText ?? 'no reason'})`);
  });
}

function followContext(context: BrowserContext): void {
  context.pages().forEach(follow);
  context.on('page', follow);
}

const launch = chromium.launch.bind(chromium);
chromium.launch = async (...args: Parameters<typeof launch>) => {
  const browser = await launch(...args);
  browsers.add(browser);
  browser.once('disconnected', () => browsers.delete(browser));
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...options: Parameters<typeof newContext>) => {
    const context = await newContext(...options);
    followContext(context);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (...options: Parameters<typeof newPage>) => {
    const page = await newPage(...options);
    follow(page);
    return page;
  };
  return browser;
};
const launchPersistent = chromium.launchPersistentContext.bind(chromium);
chromium.launchPersistentContext = async (...args: Parameters<typeof launchPersistent>) => {
  const context = await launchPersistent(...args);
  contexts.add(context);
  context.once('close', () => contexts.delete(context));
  followContext(context);
  return context;
};

/** The page's recent warnings and errors, and what it still waits for (an event stream waits by design). */
function pageLog(page: Page): string {
  const log = logs.get(page);
  if (!log) return '(its console and requests were not followed)';
  const now = Date.now();
  const waiting = [...log.waiting.values()].map(
    ({ url, since }) => `waiting ${((now - since) / 1000).toFixed(1)} s: ${url.slice(0, 200)}`,
  );
  const lines = [...log.said, ...waiting];
  return lines.length === 0 ? '(no warnings, errors or requests waiting)' : lines.join('\n');
}

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
  const where = `${page.url()} (${size ? `${size.width}x${size.height}` : 'no viewport'}), screenshot ${shot}`;
  return `${where}\n${words}\n--- its console and requests:\n${pageLog(page)}`;
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
