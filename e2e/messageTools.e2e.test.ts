// A message's tools on a phone, in the real build against the real server: under one's own message at 390×844,
// Reply, React, Edit and Delete are each a target of at least 44 px, none overlaps another, and each is what a tap
// at its centre reaches (nothing covers it), with a mouse (a phone-wide window) and with touch (a phone).
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { expectAccessible } from './support/accessibility';
import type { RunningServer } from './support/server';
import { signIn, withBrowserSession } from './support/session';

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));

const PHONE = { width: 390, height: 844 };
const TOOLS = [/^Reply to /, /^React to /, /^Edit /, /^Delete /];

interface Target {
  name: string;
  box: { x: number; y: number; width: number; height: number };
  reached: boolean;
}

/** A tool's box, and whether a tap at its centre reaches it (nothing covers it). */
function measure(button: Locator): Promise<Target> {
  return button.evaluate((el) => {
    const rect = el.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
    return {
      name: el.textContent ?? '',
      box: { x: rect.x, y: rect.y, width: rect.width, height: rect.height },
      reached: hit !== null && el.contains(hit),
    };
  });
}

async function ownMessageTools(options: BrowserContextOptions, text: string): Promise<Target[]> {
  const page: Page = await windows.newPage({ viewport: PHONE, ...options });
  await signIn(page, server.url, 'member@qupm.demo');
  await page.getByRole('link', { name: /Strategy Studio/ }).click();
  const box = page.getByLabel('Message', { exact: true });
  await box.fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  const own = page.locator('.message--own', { hasText: text });
  await own.locator('.message__meta time').waitFor();
  // Until a bubble is tapped, no bubble shows tools: the list reads as a conversation.
  const openTools = () =>
    page
      .locator('.message__tools')
      .evaluateAll((tools) => tools.filter((el) => el.getBoundingClientRect().height > 0).length);
  expect(await openTools()).toBe(0);
  // A tap on the bubble (its words) opens its tools, and only its own.
  const words = own.locator('.message__text');
  if (options.hasTouch) await words.tap();
  else await words.click();
  await page.waitForFunction((sent) => {
    const bubble = [...document.querySelectorAll('.message--own')].find((el) =>
      el.textContent?.includes(sent),
    );
    const height = bubble?.querySelector('.message__tools')?.getBoundingClientRect().height ?? 0;
    return height > 0;
  }, text);
  expect(await openTools()).toBeLessThanOrEqual(2);
  await expectAccessible(page, 'conversation at a phone, with a message’s tools');
  const targets: Target[] = [];
  for (const name of TOOLS) {
    const button = own.getByRole('button', { name });
    await button.scrollIntoViewIfNeeded();
    const found = await measure(button);
    targets.push(found);
  }
  return targets;
}

function overlaps(a: Target['box'], b: Target['box']): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The pairs of tools whose boxes overlap, by name. */
function overlapping(targets: Target[]): string[] {
  return targets.flatMap((a, i) =>
    targets
      .slice(i + 1)
      .filter((b) => overlaps(a.box, b.box))
      .map((b) => `${a.name} and ${b.name}`),
  );
}

describe.each([
  ['with a mouse, in a phone-wide window', {}],
  ['with touch, on a phone', { isMobile: true, hasTouch: true }],
])('one’s own message’s tools at 390×844 %s', (_how, options) => {
  let targets: Target[];
  beforeAll(async () => {
    targets = await ownMessageTools(options, `Tools check ${Date.now()}`);
  });

  it('are each at least 44 px wide and high, and reached by a tap at their centre', () => {
    for (const target of targets) {
      expect({ name: target.name, width: target.box.width >= 44, height: target.box.height >= 44 }).toEqual({
        name: target.name,
        width: true,
        height: true,
      });
      expect({ name: target.name, reached: target.reached }).toEqual({ name: target.name, reached: true });
    }
    expect(targets.map((t) => t.name)).toEqual(['Reply', 'React', 'Edit', 'Delete']);
  });

  it('do not overlap one another', () => {
    expect(overlapping(targets)).toEqual([]);
  });
});

describe('a short own message’s tools on a laptop, with a mouse', () => {
  it('float as two bars that do not overlap, each tool reached where it shows', async () => {
    const page: Page = await windows.newPage({ viewport: { width: 1366, height: 768 } });
    await signIn(page, server.url, 'member@qupm.demo');
    await page.locator('.channel-link', { hasText: 'Strategy Studio' }).click();
    await page.getByRole('heading', { level: 1, name: 'Strategy Studio' }).waitFor();
    const text = `ok ${Date.now() % 100}`;
    await page.getByLabel('Message', { exact: true }).fill(text);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const own = page.locator('.message--own', { hasText: text });
    await own.locator('.message__meta time').waitFor();
    await own.hover();
    const targets: Target[] = [];
    for (const name of TOOLS) {
      const button = own.getByRole('button', { name });
      await button.waitFor();
      targets.push(await measure(button));
    }
    expect(targets.filter((t) => !t.reached).map((t) => t.name)).toEqual([]);
    expect(overlapping(targets)).toEqual([]);
  });
});
