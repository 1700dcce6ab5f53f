// Words for people in Chromium against the real server: focus lands on the screen's heading
// after signing in and after each navigation; on every screen of a client, a consultant and an admin no two
// buttons or links that do different things share an accessible name (axe has no such rule: names are read from
// Playwright's accessibility snapshot), and axe finds no serious or critical violation; spec §8's own strings stay
// in the state and never reach a page's text.
import type { Page } from 'playwright-core';
import { subscriptionToken } from '../drivers/webPushTokens';
import { VALIDATION_MESSAGES, PUSH_FAILURES } from '../src/store/pushSlice';
import { seriousViolations } from './support/accessibility';
import { watchErrors } from './support/browser';
import { blockNotifications, fakePushManager } from './support/push';
import { readDatabase } from './support/server';
import type { RunningServer } from './support/server';
import { signInHome, signInWithForm, withBrowserSession } from './support/session';
import { openChannelMenu } from './support/mutes';

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));

const newContext = (viewport = { width: 1280, height: 860 }) => windows.newContext({ viewport });

const signIn = (page: Page, email: string) => signInHome(page, server.url, email);

function pendingInvitationId(email: string): string {
  return readDatabase(server, (db) => {
    const row = db
      .prepare("SELECT id FROM invitations WHERE invitee_email = ? AND status = 'pending' AND expires_at > ?")
      .get(email, Date.now()) as { id: string };
    return row.id;
  });
}

/** What the focused element is, in words a failure message can show. */
const focusedElement = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el ? `${el.tagName.toLowerCase()}:${el.textContent?.trim().slice(0, 60) ?? ''}` : 'none';
  });

/**
 * The accessible names shared by buttons or links that do different things: a link's target is its href, and
 * every button is a target of its own. Names and hrefs come from Playwright's accessibility snapshot of the page,
 * read once: `- button "Name"`, and `- link "Name":` with its `- /url: …` one level deeper (YAML quotes a whole
 * line that holds a colon: `- 'button "Make: Sam"'`).
 */
async function sharedNames(page: Page): Promise<string[]> {
  const lines = (await page.locator('body').ariaSnapshot()).split('\n');
  const depth = (line: string) => line.search(/\S/);
  const targets = new Map<string, Set<string>>();
  let buttons = 0;
  lines.forEach((raw, index) => {
    const line = raw
      .trim()
      .replace(
        /^- '(.*)'(:?)$/,
        (_m, inner: string, colon: string) => `- ${inner.replace(/''/g, "'")}${colon}`,
      );
    const control = /^- (button|link)\b(?: "((?:[^"\\]|\\.)*)")?/.exec(line);
    if (!control) return;
    const [, role, name = `(unnamed) ${line}`] = control;
    let target = `button #${(buttons += 1)}`;
    if (role === 'link') {
      let href: string | null = null;
      for (let next = index + 1; next < lines.length && depth(lines[next]!) > depth(raw); next += 1) {
        const url = /^- \/url: (.*)$/.exec(lines[next]!.trim());
        if (url && depth(lines[next]!) === depth(raw) + 2) href = url[1] ?? null;
      }
      target = `link ${href}`;
    }
    const seen = targets.get(name) ?? new Set<string>();
    seen.add(target);
    targets.set(name, seen);
  });
  return [...targets].filter(([, seen]) => seen.size > 1).map(([name, seen]) => `"${name}" ×${seen.size}`);
}

/** spec §8's strings that are requirements of the state and the debug menu, not words for a screen. */
const RAW_STRINGS = [...Object.values(VALIDATION_MESSAGES), PUSH_FAILURES.noToken, PUSH_FAILURES.swTimeout];

async function rawStringsOnPage(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return RAW_STRINGS.filter((raw) => text.includes(raw));
}

/** Checks the screen as it is now; returns what is wrong with it. */
async function problemsOf(page: Page, screen: string): Promise<string[]> {
  await page.waitForLoadState('networkidle');
  const shared = (await sharedNames(page)).map((s) => `${screen}: shared name ${s}`);
  const raw = (await rawStringsOnPage(page)).map((s) => `${screen}: internal string "${s}"`);
  return [...shared, ...raw, ...(await seriousViolations(page, screen))];
}

describe('focus after a screen change', () => {
  it('lands on the home screen’s heading after signing in, then on each new screen’s heading', async () => {
    const page = await (await newContext()).newPage();
    const errors = watchErrors(page);
    // Through the form: focus moves after a sign-in, not when a stored session is restored on load.
    await signInWithForm(page, server.url + '/', 'member@qupm.demo');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    expect(await focusedElement(page)).toMatch(/^h1:Hello, /);

    for (const [link, heading] of [
      ['Services', 'Services'],
      ['Settings', 'Settings'],
      ['Home', /^Hello, /],
    ] as const) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.waitForFunction(
        (expected) => {
          const el = document.activeElement;
          return el?.tagName === 'H1' && (el.textContent ?? '').startsWith(expected);
        },
        typeof heading === 'string' ? heading : 'Hello, ',
      );
      expect(await page.getByTestId('route-announcer').textContent()).toMatch(heading);
    }

    // Opening a channel focuses the conversation's title.
    await page.locator('.channel-link').first().click();
    await page.waitForFunction(() => document.activeElement?.id === 'conversation-title');
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });
});

describe('every screen: unique names, no internal strings, no serious axe violation', () => {
  // Each case checks a few screens: axe takes a second or more a screen, many times that on CI's loaded machine,
  // and one case for every screen of a role outran the test's bound there.
  /** A client's phone with push allowed (push needs the service worker). */
  async function clientPage(): Promise<Page> {
    const { subscription } = subscriptionToken('words');
    const context = await windows.newContext({
      viewport: { width: 390, height: 844 },
      serviceWorkers: 'allow',
    });
    await context.grantPermissions(['notifications'], { origin: server.url });
    await context.addInitScript(fakePushManager(subscription));
    return context.newPage();
  }

  it('as a client, with push allowed: home, a conversation, services', async () => {
    const page = await clientPage();
    await signIn(page, 'member@qupm.demo');
    const problems = await problemsOf(page, 'client home');
    await page.locator('.channel-link').first().click();
    await page.locator('#conversation-title').waitFor();
    problems.push(...(await problemsOf(page, 'client conversation')));
    await page.goto(server.url + '/services');
    await page.locator('main h1').first().waitFor();
    problems.push(...(await problemsOf(page, '/services')));
    expect(problems).toEqual([]);
  });

  it('as a client in settings, with push allowed (spec §8 results in the state, words on the screen)', async () => {
    const page = await clientPage();
    await signIn(page, 'member@qupm.demo');
    const problems: string[] = [];
    for (const screen of ['/settings', '/settings/profile', '/settings/devices', '/settings/about']) {
      await page.goto(server.url + screen);
      await page.locator('main h1').first().waitFor();
      problems.push(...(await problemsOf(page, screen)));
    }
    await page.goto(server.url + '/settings/notifications');
    // A validation ran (spec §8: its result is one of the exact strings, kept in the state): the screen words it.
    await page
      .getByTestId('push-last-check')
      .getByText(/^All good/)
      .waitFor();
    problems.push(...(await problemsOf(page, '/settings/notifications')));
    expect(problems).toEqual([]);
  });

  it('as a consultant: home and a channel’s manage tabs', async () => {
    const page = await (await newContext()).newPage();
    await signIn(page, 'consultant@qupm.demo');
    const problems = await problemsOf(page, 'consultant home');
    await page.locator('.channel-link', { hasText: 'Growth Clinic' }).click();
    await openChannelMenu(page);
    await page.getByRole('button', { name: 'Manage' }).click();
    for (const tab of ['Details', 'Members', 'Invite']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.waitForLoadState('networkidle');
      problems.push(...(await problemsOf(page, `manage → ${tab}`)));
    }
    // Two members' "Send offer" buttons say whom they are for.
    await page.getByRole('tab', { name: 'Members' }).click();
    expect(await page.getByRole('button', { name: /^Send offer to / }).count()).toBeGreaterThan(1);
    expect(problems).toEqual([]);
  });

  it('as a consultant on services', async () => {
    const page = await (await newContext()).newPage();
    await signIn(page, 'consultant@qupm.demo');
    await page.goto(server.url + '/services');
    await page.getByRole('heading', { level: 2, name: 'Offers you issued' }).waitFor();
    const problems = await problemsOf(page, 'consultant /services');
    // What a consultant needs there, and not a client's view.
    expect(await page.getByLabel('Your balance').count()).toBe(0);
    expect(await page.getByText(/When your consultant sends you an offer/).count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('as an admin', async () => {
    const page = await (await newContext()).newPage();
    await signIn(page, 'admin@qupm.demo');
    await page.goto(server.url + '/settings/admin');
    await page.locator('main h1').first().waitFor();
    await page.locator('table, .admin').first().waitFor();
    expect(await problemsOf(page, '/settings/admin')).toEqual([]);
  });

  it('signed out on an invitation', async () => {
    const problems: string[] = [];
    const visitor = await (await newContext({ width: 390, height: 844 })).newPage();
    await visitor.goto(`${server.url}/invite/${pendingInvitationId('visitor@qupm.demo')}`);
    await visitor.getByRole('heading', { level: 1, name: /invites you to/ }).waitFor();
    problems.push(...(await problemsOf(visitor, 'invite (signed out)')));
    expect(problems).toEqual([]);
  });
});

describe('a blocked permission', () => {
  it('shows the app’s words and how to allow it, the provider’s message beside them, never the §8 strings', async () => {
    const context = await newContext();
    await context.addInitScript(fakePushManager(subscriptionToken('blocked-words').subscription));
    const page = await context.newPage();
    await blockNotifications(context, page, server.url);
    await signIn(page, 'admin@qupm.demo');
    await page.goto(server.url + '/settings/notifications');
    await page.getByText('Notifications are blocked for QuPM in this browser.').waitFor();
    // Chromium on a computer: its own steps.
    expect(await page.getByTestId('push-unblock-steps').textContent()).toMatch(/Set Notifications to Allow/);
    expect(await page.getByTestId('push-provider-message').textContent()).toBe(
      'Registration failed - permission denied',
    );
    expect(await problemsOf(page, 'notifications (blocked)')).toEqual([]);
  });
});
