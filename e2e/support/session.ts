// A browser test file's world: the real server (the demo world on a fresh SQLite file in a temporary folder) and
// one Chromium, started before the file's tests and closed after them with every browser context opened through
// it. Two ways in: a session made through the API and stored where the app restores it on load (most tests: it
// skips the form, which only the tests of signing in need), and the app's own sign-in form, as a person does.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { sessionFromResponse } from '@/backend/local/session';
import { LOCAL_STORAGE_KEYS } from '@/platform/storageKeys';
import type { SessionResponse } from '@core/wire';
import { launchChromium, TRACK_EVENT_SOURCES } from '../../drivers/chromium';
import { startSmtpSink } from '../../drivers/smtpSink';
import type { SmtpSink } from '../../drivers/smtpSink';
import { verifyEmailPath } from '../../core/paths';
import { mailedToken } from '../../drivers/mailbox';
import { DEMO_PASSWORD } from '../../server/demo';
import { SIGN_UP_MAIL } from '../../server/services/signUp';
import { watchErrors } from './browser';
import { startServer } from './server';
import type { RunningServer } from './server';

export interface BrowserSession {
  server: RunningServer;
  browser: Browser;
}

/** A person's window in a browser test: its page, its context, and the page errors seen so far. */
export interface BrowserWindow {
  page: Page;
  context: BrowserContext;
  errors: string[];
}

export interface SessionWindows {
  /**
   * A browser context of its own, closed when the file's tests are done. Its pages register no service worker
   * unless `options` say `serviceWorkers: 'allow'`: the worker's install precaches the whole build (and Chromium
   * compiles its scripts for the code cache), about 1.2 CPU-s a window, as much again as drawing the signed-in
   * home. A file whose windows need it (offline reloads, push) allows it through withBrowserSession's last
   * argument, a window through its options; the files of the worker itself launch their own contexts
   * (docs/decisions/testing.md).
   */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** A page in a browser context of its own, closed when the file's tests are done. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /**
   * A page in a context of its own whose event streams the test can drop (drivers/chromium.ts
   * TRACK_EVENT_SOURCES) and whose errors are watched; nothing is opened in it yet.
   */
  openWindow(options?: BrowserContextOptions): Promise<BrowserWindow>;
}

/**
 * Registers the hooks that start the server and Chromium before the file's tests and close them (and the contexts
 * opened with `newContext`/`newPage`) after; `onStart` keeps them, usually in the file's `server` and `browser`.
 * `serverOptions` is read when the server starts, so it may use what an earlier hook started.
 */
export function withBrowserSession(
  onStart: (session: BrowserSession) => void,
  serverOptions: () => Parameters<typeof startServer>[0] = () => ({}),
  // 'allow' for a file whose every window needs the service worker (newContext above).
  { serviceWorkers = 'block' }: Pick<BrowserContextOptions, 'serviceWorkers'> = {},
): SessionWindows {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    server = await startServer(serverOptions());
    browser = await launchChromium();
    onStart({ server, browser });
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    await server?.close();
  });
  const newContext = async (options: BrowserContextOptions = {}): Promise<BrowserContext> => {
    if (!browser) throw new Error('The browser is not started yet: open windows inside a test');
    const context = await browser.newContext({ serviceWorkers, ...options });
    contexts.push(context);
    return context;
  };
  const openWindow = async (options?: BrowserContextOptions): Promise<BrowserWindow> => {
    const context = await newContext(options);
    const page = await context.newPage();
    await page.addInitScript(TRACK_EVENT_SOURCES);
    return { page, context, errors: watchErrors(page) };
  };
  return { newContext, newPage: async (options) => (await newContext(options)).newPage(), openWindow };
}

/**
 * Signs in through the API, as the page's browser (its user agent names the session in Settings), and stores the
 * session where the embedded backend's adapter restores it on load: local storage's `qupm_session`, in the shape
 * src/backend/local/session.ts writes. Storing it replaces what the context held, so the context must not have
 * opened anything yet.
 */
export async function storeSession(
  page: Page,
  origin: string,
  email: string,
  password = DEMO_PASSWORD,
): Promise<void> {
  if (
    page
      .context()
      .pages()
      .some((open) => open.url() !== 'about:blank')
  ) {
    throw new Error('storeSession needs a browser context that has opened nothing yet');
  }
  const userAgent = await page.evaluate(() => navigator.userAgent);
  const res = await fetch(`${origin}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`Signing ${email} in through the API: ${res.status} ${await res.text()}`);
  const session = sessionFromResponse((await res.json()) as SessionResponse, Date.now());
  await page.context().setStorageState({
    cookies: [],
    origins: [
      { origin, localStorage: [{ name: LOCAL_STORAGE_KEYS.localSession, value: JSON.stringify(session) }] },
    ],
  });
}

/**
 * Opens `url` signed in as `email`, with a session made through the API (storeSession): for every test that is
 * not about signing in. What comes next is the caller's to wait for.
 */
export async function signIn(page: Page, url: string, email: string): Promise<void> {
  await storeSession(page, new URL(url).origin, email);
  await page.goto(url);
}

/** Opens the home screen of the app at `origin` signed in as `email` (storeSession) and waits for its greeting. */
export async function signInHome(page: Page, origin: string, email: string): Promise<void> {
  await signIn(page, origin + '/', email);
  await page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
}

/** Fills in the sign-in form the page shows and submits it; what comes next is the caller's to wait for. */
export async function submitSignIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens `url` (a page that shows the sign-in form when signed out) and signs in there through the form. */
export async function signInWithForm(
  page: Page,
  url: string,
  email: string,
  password = DEMO_PASSWORD,
): Promise<void> {
  await page.goto(url);
  await submitSignIn(page, email, password);
}

/**
 * Signs up as a person does, in the form `page` shows with its "Create account" tab open: "Check your inbox", then
 * the link mailed to the address (read from the server's outbox) opened in `page`, which makes the account. Nobody
 * is signed in after it: the caller signs in where the person would.
 */
export async function signUpByMail(
  page: Page,
  server: RunningServer,
  input: { name?: string; email: string; password: string },
): Promise<void> {
  if (input.name !== undefined) await page.getByLabel('Your name').fill(input.name);
  await page.getByLabel('Email').fill(input.email);
  await page.getByLabel('Password').fill(input.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByText('Check your inbox').waitFor();
  const token = mailedToken(server.dataDir, input.email, SIGN_UP_MAIL.link);
  await page.goto(server.url + verifyEmailPath(token));
  await page.getByRole('heading', { name: 'Your email address is confirmed' }).waitFor();
}

/**
 * withBrowserSession with a real SMTP sink the server mails to: the sink starts before the server (hooks run in
 * the order they are registered) and closes after it. `onStart` also gets the sink.
 */
export function withMailedBrowserSession(
  onStart: (session: BrowserSession & { sink: SmtpSink }) => void,
): SessionWindows {
  let sink: SmtpSink | undefined;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  const windows = withBrowserSession(
    (started) => onStart({ ...started, sink: sink as SmtpSink }),
    () => ({ mail: { smtpUrl: (sink as SmtpSink).url } }),
  );
  afterAll(async () => {
    await sink?.close();
  });
  return windows;
}
