// Layout on every screen, in the real build against the real server: at each size of the issue,
// portrait and landscape, an open channel's Send button is inside the window and is what a tap at its centre
// reaches, with the "Get notified" card showing; on an iPhone (iOS user agent) the debug button covers neither Send
// nor the home screen's Settings, before and after it dims; at 320 px no screen scrolls sideways; and the
// invitation screens carry their own styles on a direct visit. One browser, one page per kind of visitor, resized.
import type { Page } from 'playwright-core';
import { apiOf } from '../drivers/burstClients';
import { layoutShiftTotal, watchErrors } from './support/browser';
import type { RunningServer } from './support/server';
import { signInHome, storeSession, withBrowserSession } from './support/session';
import { openChannelMenu } from './support/mutes';

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

interface Size {
  name: string;
  width: number;
  height: number;
}

/** The sizes of the issue, each in portrait and landscape. Safari's iPhone viewport is tested with its user agent. */
const SIZES: Size[] = [
  { name: 'small phone', width: 320, height: 568 },
  { name: 'phone', width: 390, height: 844 },
  { name: 'laptop', width: 1366, height: 768 },
  { name: 'desktop', width: 1920, height: 1080 },
].flatMap((size) => [size, { name: `${size.name}, turned`, width: size.height, height: size.width }]);
const IPHONE_SIZES: Size[] = [
  { name: 'iPhone Safari', width: 390, height: 664 },
  { name: 'iPhone Safari, turned', width: 664, height: 390 },
];

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));

const newPage = (size: Size, userAgent?: string): Promise<Page> =>
  windows.newPage({
    viewport: { width: size.width, height: size.height },
    ...(userAgent ? { userAgent } : {}),
  });

const signIn = (page: Page, email: string) => signInHome(page, server.url, email);

/**
 * Where a control is and what a tap at its centre reaches: its box must lie inside the window, and the element
 * at the centre must be the control or inside it (nothing drawn over it).
 */
async function reachable(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const target = document.querySelector(sel);
    if (!target) return [`${sel} is not on the page`];
    const box = target.getBoundingClientRect();
    const problems: string[] = [];
    const round = (n: number): number => Math.round(n);
    if (box.width === 0 || box.height === 0) problems.push(`${sel} has no size`);
    if (box.left < 0 || box.top < 0 || box.right > innerWidth || box.bottom > innerHeight) {
      problems.push(
        `${sel} at (${round(box.left)}, ${round(box.top)})–(${round(box.right)}, ${round(box.bottom)}) is outside the ${innerWidth}×${innerHeight} window`,
      );
    }
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!hit || !(hit === target || target.contains(hit))) {
      const what = hit
        ? `${hit.tagName.toLowerCase()}.${[...hit.classList].join('.')} "${hit.textContent?.trim().slice(0, 20)}"`
        : 'nothing';
      problems.push(`a tap at the centre of ${sel} reaches ${what}`);
    }
    return problems;
  }, selector);
}

const SEND = '.composer button[type="submit"]';

/** Checks Send at every size, with the "Get notified" card showing unless told otherwise. */
async function checkSendAtSizes(page: Page, sizes: Size[], card = true): Promise<string[]> {
  const problems: string[] = [];
  for (const size of sizes) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    // The card is there, beside the conversation where the window is wide enough for both.
    if (card) expect(await page.locator('.push-prompt').count()).toBe(1);
    if (card && size.width >= 760)
      await page.getByRole('heading', { name: 'Get notified on this device' }).waitFor();
    problems.push(
      ...(await reachable(page, SEND)).map((p) => `${size.name} (${size.width}×${size.height}): ${p}`),
    );
  }
  return problems;
}

async function openChannel(page: Page): Promise<void> {
  await page.locator('.channel-link').first().click();
  await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
}

describe('the conversation fills the window', () => {
  it('keeps Send inside the window and uncovered at every size, with the "Get notified" card showing', async () => {
    const page = await newPage(SIZES[0]!);
    const errors = watchErrors(page);
    await signIn(page, 'member@qupm.demo');
    await page.getByRole('heading', { name: 'Get notified on this device' }).waitFor();
    await openChannel(page);
    expect(await checkSendAtSizes(page, SIZES)).toEqual([]);
    // The list is what scrolls (its virtualized scroller inside .messages), not the page.
    const scrolls = await page.evaluate(() => ({
      page: document.documentElement.scrollHeight > document.documentElement.clientHeight,
      list: getComputedStyle(document.querySelector('.messages [data-virtuoso-scroller]')!).overflowY,
    }));
    expect(scrolls).toEqual({ page: false, list: 'auto' });
    expect(errors).toEqual([]);
  });

  it('gives an open conversation the whole phone, and the list and the top bar come back with the back arrow', async () => {
    const page = await newPage(SIZES[4]!);
    await signIn(page, 'member@qupm.demo');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await openChannel(page);
    // A laptop: the list, the conversation and the app's top bar side by side.
    await nav.waitFor();
    await page.setViewportSize({ width: SIZES[2]!.width, height: SIZES[2]!.height });
    await nav.waitFor({ state: 'hidden' });
    // The conversation's header is at the top edge, where the top bar was.
    const top = await page
      .locator('.conversation__head')
      .evaluate((head) => head.getBoundingClientRect().top);
    expect(top).toBeLessThan(16);
    expect(await reachable(page, SEND)).toEqual([]);
    await page.getByRole('link', { name: 'Back to channels' }).click();
    await nav.waitFor();
    await page.locator('.channel-link').first().waitFor();
  });

  it('keeps Send on screen under the invitations card and the service banner too', async () => {
    const member = await newPage(SIZES[0]!);
    await signIn(member, 'member@qupm.demo');
    const channel = (await member.locator('.channel-link').first().getAttribute('href'))!;
    // The visitor has invitations waiting and belongs to no channel: the member's channel shows the banner.
    const visitor = await newPage(SIZES[0]!);
    await signIn(visitor, 'visitor@qupm.demo');
    await visitor.locator('.invitations-for-you__card').waitFor();
    await visitor.goto(server.url + channel);
    await visitor.locator('.service-banner').waitFor();
    // (The visitor has notifications off, so no "Get notified" card here.)
    expect(await checkSendAtSizes(visitor, SIZES, false)).toEqual([]);
  });

  it('on an iPhone the debug button covers neither Send nor Settings, before and after it dims', async () => {
    const page = await newPage(IPHONE_SIZES[0]!, IPHONE_UA);
    await page.clock.install();
    await signIn(page, 'member@qupm.demo');
    const debug = page.getByRole('button', { name: 'Open the debug menu' });
    await debug.waitFor();
    expect(await reachable(page, '.debug-button')).toEqual([]);
    expect(await reachable(page, '.nav a[href="/settings"]')).toEqual([]);
    await page.locator('.home__actions a[href="/settings"]').scrollIntoViewIfNeeded();
    expect(await reachable(page, '.home__actions a[href="/settings"]')).toEqual([]);
    await openChannel(page);
    expect(await checkSendAtSizes(page, IPHONE_SIZES)).toEqual([]);
    // spec §2: it dims after 10 s; Send stays uncovered after that too.
    await page.clock.fastForward(11_000);
    await page.locator('.debug-button[data-dimmed="true"]').waitFor();
    expect(await checkSendAtSizes(page, [...IPHONE_SIZES].reverse())).toEqual([]);
    expect(await reachable(page, '.debug-button')).toEqual([]);
    await page.goto(server.url + '/');
    await page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
    await page.locator('.home__actions a[href="/settings"]').scrollIntoViewIfNeeded();
    expect(await reachable(page, '.home__actions a[href="/settings"]')).toEqual([]);
  });
});

describe('no screen scrolls sideways at 320 px', () => {
  const narrow: Size = { name: '320', width: 320, height: 568 };

  async function overflowAt(page: Page, path: string, ready: string): Promise<string | null> {
    if (page.url() !== server.url + path) await page.goto(server.url + path);
    await page.locator(ready).first().waitFor();
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    return scrollWidth > clientWidth
      ? `${path} is ${scrollWidth} px wide in a ${clientWidth} px window`
      : null;
  }

  it('signed out, and for a member, a consultant and an admin', async () => {
    const problems: Array<string | null> = [];
    const visitor = await newPage(narrow);
    await visitor.goto(server.url + '/');
    problems.push(await overflowAt(visitor, '/', '.auth'));
    const member = await newPage(narrow);
    await signIn(member, 'member@qupm.demo');
    problems.push(await overflowAt(member, '/', '.channel-link'));
    await openChannel(member);
    problems.push(
      await overflowAt(member, new URL(member.url()).pathname + new URL(member.url()).search, '.composer'),
    );
    for (const path of [
      '/services',
      '/settings',
      ...['notifications', 'profile', 'devices', 'about'].map((s) => `/settings/${s}`),
    ]) {
      problems.push(await overflowAt(member, path, 'h1'));
    }

    const consultant = await newPage(narrow);
    await signIn(consultant, 'consultant@qupm.demo');
    problems.push(await overflowAt(consultant, '/', '.channel-link'));
    problems.push(await overflowAt(consultant, '/services', 'h1'));
    // A new channel (no messages, so its description is its preview) keeps its title whole beside it.
    await consultant.goto(server.url + '/');
    await consultant.getByRole('button', { name: 'New channel' }).click();
    await consultant.getByLabel('Title').fill('Brand refresh');
    await consultant.getByLabel('Handle').fill('brand-refresh');
    await consultant
      .getByLabel('Description')
      .fill('Naming, logo and the website copy for the spring relaunch, step by step.');
    await consultant.getByRole('button', { name: 'Create channel' }).click();
    await consultant.goto(server.url + '/');
    const title = consultant.locator('.channel-link__title', { hasText: 'Brand refresh' });
    await title.waitFor();
    expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    const admin = await newPage(narrow);
    await signIn(admin, 'admin@qupm.demo');
    problems.push(await overflowAt(admin, '/settings/admin', '.admin-table'));

    expect(problems.filter(Boolean)).toEqual([]);
  });
});

describe('the channel list, once drawn', () => {
  it('stays where it is while the search field’s chunk arrives after it', async () => {
    const page = await newPage(SIZES[2]!);
    // The chunk (its script and its styles) is held until the list is on screen, as a slow network may.
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/static\/(js|css)\/conversation-view\./, async (route) => {
      await held;
      await route.continue();
    });
    await storeSession(page, server.url, 'consultant@qupm.demo');
    // Not waiting for the load event: the held chunk is one of the page's first requests.
    await page.goto(server.url + '/', { waitUntil: 'commit' });
    const channel = page.locator('.channel-link', { hasText: 'Growth Clinic' });
    await channel.waitFor();
    const before = await channel.boundingBox();
    release();
    await page.getByRole('search', { name: /Search/ }).waitFor();
    expect(await channel.boundingBox()).toEqual(before);
  });
});

describe('a signed-in start', () => {
  it.each([SIZES[1]!, SIZES[2]!, SIZES[4]!, SIZES[6]!])(
    'draws the home where "Loading QuPM..." was, without moving the page ($name)',
    async (size) => {
      const page = await newPage(size);
      await storeSession(page, server.url, 'member@qupm.demo');
      await page.goto(server.url + '/');
      await page.locator('.channel-link').first().waitFor();
      await page.getByRole('search', { name: /Search/ }).waitFor();
      // Lighthouse calls a cumulative shift under 0.1 good; the page's own parts moving at all is what this catches.
      expect(await layoutShiftTotal(page)).toBeLessThanOrEqual(0.01);
    },
  );
});

describe('a consultant’s Manage panel', () => {
  it('keeps its four tabs in one row with the panel right under them, on a phone and a laptop', async () => {
    const page = await newPage(SIZES[2]!);
    await signIn(page, 'consultant@qupm.demo');
    await page.locator('.channel-link', { hasText: 'Strategy Studio' }).click();
    await openChannelMenu(page);
    await page.getByRole('button', { name: 'Manage' }).click();
    const problems: string[] = [];
    for (const size of [SIZES[2]!, SIZES[4]!]) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.getByLabel('Title').waitFor();
      const { tabs, list, field } = await page.evaluate(() => {
        const box = (el: Element | null) => el!.getBoundingClientRect();
        return {
          tabs: [...document.querySelectorAll('.manage [role="tab"]')].map((tab) => {
            const b = box(tab);
            return { top: Math.round(b.top), height: Math.round(b.height) };
          }),
          list: Math.round(box(document.querySelector('.manage [role="tablist"]')).bottom),
          field: Math.round(box(document.querySelector('.manage__panel label')).top),
        };
      });
      if (tabs.length !== 4 || new Set(tabs.map((tab) => tab.top)).size !== 1)
        problems.push(`${size.name}: the tabs are not one row (${JSON.stringify(tabs)})`);
      if (tabs.some((tab) => tab.height > 60))
        problems.push(`${size.name}: a tab is ${JSON.stringify(tabs)} tall`);
      if (field - list > 40)
        problems.push(`${size.name}: ${field - list} px between the tabs and the first field`);
    }
    expect(problems).toEqual([]);
  });
});

describe('the invitation screens: their own styles on a direct visit, and no sideways scroll at 320 px', () => {
  let visitor: Page;
  let invite: string;

  /** The computed look of the invitation's facts: a framed list whose rows are grids when its CSS is there. */
  async function factsStyle(page: Page): Promise<{ border: string; row: string }> {
    await page.locator('.facts').waitFor();
    return page.evaluate(() => ({
      border: getComputedStyle(document.querySelector('.facts')!).borderTopStyle,
      row: getComputedStyle(document.querySelector('.facts__row')!).display,
    }));
  }

  async function noOverflow(page: Page): Promise<boolean> {
    return page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  }

  it('/invite/… loaded on its own is styled and fits', async () => {
    visitor = await newPage({ name: '320', width: 320, height: 568 });
    await signIn(visitor, 'visitor@qupm.demo');
    invite = (await visitor.locator('a[href^="/invite/"]').first().getAttribute('href'))!;
    expect(invite).toMatch(/^\/invite\/\w+$/);
    // A fresh load of the screen's own URL: no other screen's chunk (Settings) has been loaded before it.
    await visitor.goto(server.url + invite);
    expect(await factsStyle(visitor)).toEqual({ border: 'solid', row: 'grid' });
    expect(await noOverflow(visitor)).toBe(true);
  });

  it('/activate/… loaded on its own is styled and fits', async () => {
    await visitor.getByRole('button', { name: 'Accept invitation' }).click();
    await visitor.getByRole('button', { name: /^Accept/ }).waitFor({ state: 'detached' });
    await visitor.goto(server.url + invite.replace('/invite/', '/activate/'));
    await visitor.getByRole('button', { name: 'Activate' }).waitFor();
    expect(await factsStyle(visitor)).toEqual({ border: 'solid', row: 'grid' });
    expect(await noOverflow(visitor)).toBe(true);
  });
});

describe("a channel's description of the longest kind (500 characters)", () => {
  it('shows two lines and "Show all" in the channel menu, keeps Send on screen at every size, and opened still leaves Send there', async () => {
    const member = await newPage(SIZES[0]!);
    await signIn(member, 'member@qupm.demo');
    const href = (await member.locator('.channel-link').first().getAttribute('href'))!;
    const channelId = new URL(href, server.url).searchParams.get('channel')!;
    const api = apiOf(() => server.url);
    const { accessToken } = await api<{ accessToken: string }>('POST', '/api/auth/signin', undefined, {
      email: 'consultant@qupm.demo',
      password: 'qupm-demo',
    });
    const description = 'Pricing, positioning and planning decisions, worked through together. '
      .repeat(8)
      .slice(0, 500);
    // (apiOf throws on any answer but a 2xx: the description is saved.)
    await api('PATCH', `/api/channels/${channelId}`, accessToken, { description: description.trim() });

    await member.setViewportSize({ width: SIZES[2]!.width, height: SIZES[2]!.height });
    await member.goto(server.url + href);
    await member.getByRole('button', { name: 'Send', exact: true }).waitFor();
    // The description is in the channel's menu, which stays open while the window changes size.
    await openChannelMenu(member);
    const shown = member.locator('.conversation__description');
    // Two lines of it at most, the whole text in the page.
    const lines = await shown.evaluate(
      (p) => p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight),
    );
    expect(Math.round(lines)).toBe(2);
    expect(await shown.textContent()).toBe(description.trim());
    expect(await checkSendAtSizes(member, SIZES, false)).toEqual([]);

    for (const size of [SIZES[2]!, SIZES[4]!]) {
      await member.setViewportSize({ width: size.width, height: size.height });
      await member.getByRole('button', { name: 'Show all' }).click();
      expect(await member.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe(
        'true',
      );
      expect((await reachable(member, SEND)).map((p) => `${size.name} opened: ${p}`)).toEqual([]);
      await member.getByRole('button', { name: 'Show less' }).click();
    }
  });
});
