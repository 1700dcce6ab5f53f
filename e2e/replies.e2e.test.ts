// Replies and reactions in two browser windows of different people against the real server: the member replies
// to a message of the consultant's from far back in the channel (beyond the first page), both windows show the
// quote, and pressing it in the consultant's window pages back and brings the original into view, highlighted;
// the consultant reacts, the member's window shows the count live with who reacted, and taking it back removes it
// there too. Checked with axe-core on the way.
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/accessibility';
import type { RunningServer } from './support/server';
import { signIn, withBrowserSession } from './support/session';
import type { BrowserWindow } from './support/session';

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));

async function openWindow(email: string): Promise<BrowserWindow> {
  const opened = await windows.openWindow({ viewport: { width: 1200, height: 860 } });
  await signIn(opened.page, server.url, email);
  await opened.page.getByRole('link', { name: /Strategy Studio/ }).click();
  await opened.page.locator('.messages__list').waitFor();
  return opened;
}

/** The bubble of the message that says `text` (not a reply quoting it). */
const bubble = (page: Page, text: string) =>
  page.locator('.message', { has: page.locator('.message__text', { hasText: text }) });

/**
 * Waits until the bubble that says `text` is whole inside the list's view, highlighted (its outline drawn, its
 * tools closed) or not. Polled: the list may draw the row anew under a jump, and a check at one instant could fall
 * between two of its renders.
 */
async function inView(page: Page, text: string, { highlighted }: { highlighted: boolean }): Promise<void> {
  await page.waitForFunction(
    ({ text, highlighted }) => {
      const view = document.querySelector('.messages__scroller')?.getBoundingClientRect();
      const row = [...document.querySelectorAll<HTMLElement>('.message')].find((element) =>
        element.querySelector('.message__text')?.textContent?.includes(text),
      );
      if (!view || !row || (row.dataset.highlight !== undefined) !== highlighted) return false;
      // Highlighted is drawn so (the jump's focus once hid the outline) and not covered by the bubble's tools.
      const tools = row.querySelector('.message__tools');
      const toolsShown =
        tools !== null && tools.getBoundingClientRect().height > 0 && getComputedStyle(tools).opacity !== '0';
      if (highlighted && (getComputedStyle(row).outlineStyle === 'none' || toolsShown)) return false;
      const box = row.getBoundingClientRect();
      return box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
    },
    { text, highlighted },
  );
}

/** Posts to Strategy Studio as `email` through the API (as another device of theirs would); answers each id. */
async function poster(email: string) {
  const session = await fetch(`${server.url}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'qupm-demo' }),
  });
  const { accessToken } = (await session.json()) as { accessToken: string };
  const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
  const mine = await fetch(`${server.url}/api/channels?mine=true`, { headers });
  const { channels } = (await mine.json()) as { channels: Array<{ id: string; title: string }> };
  const studio = channels.find((channel) => channel.title === 'Strategy Studio');
  if (!studio) throw new Error('no Strategy Studio');
  return async (texts: string[], replyTo?: string): Promise<string[]> => {
    const ids: string[] = [];
    for (const text of texts) {
      const sent = await fetch(`${server.url}/api/channels/${studio.id}/messages`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ text, ...(replyTo ? { replyTo } : {}) }),
      });
      if (!sent.ok) throw new Error(`posting: ${sent.status} ${await sent.text()}`);
      ids.push(((await sent.json()) as { id: string }).id);
    }
    return ids;
  };
}

/** The list is virtualized: a bubble exists only near the view. Scrolls to the newest until `text` shows. */
async function toLatest(page: Page, text: string): Promise<void> {
  for (let tries = 0; tries < 20 && !(await bubble(page, text).isVisible()); tries += 1) {
    await page
      .locator('.messages [data-virtuoso-scroller]')
      .evaluate((scroller) => scroller.scrollTo({ top: scroller.scrollHeight }));
    await page.waitForTimeout(250);
  }
  await bubble(page, text).waitFor();
}

const fillers = (label: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${label} ${i + 1} ${Date.now()}`);

describe('replies and reactions, live in two windows', () => {
  let dana: BrowserWindow;
  let morgan: BrowserWindow;
  const stamp = Date.now();
  const original = `The plan for Q3 is ready ${stamp}`;
  const answer = `Looks great, thanks ${stamp}`;
  const replyText = `About that question ${stamp}`;

  it('shows a reply’s quote in both windows, and clears the reply from the composer once sent', async () => {
    dana = await openWindow('consultant@qupm.demo');
    morgan = await openWindow('member@qupm.demo');
    await (
      await poster('consultant@qupm.demo')
    )([original]);
    const quoted = bubble(morgan.page, original);
    await quoted.waitFor();
    await quoted.hover();
    await quoted.getByRole('button', { name: 'Reply' }).click();
    await morgan.page.getByText('Replying to').waitFor();
    await expectAccessible(morgan.page, 'conversation, replying');
    await morgan.page.getByLabel('Message', { exact: true }).fill(answer);
    await morgan.page.getByLabel('Message', { exact: true }).press('Enter');
    await bubble(morgan.page, answer).locator('.reply-quote', { hasText: original }).waitFor();
    expect(await morgan.page.getByText('Replying to').count()).toBe(0);
    await bubble(dana.page, answer).locator('.reply-quote', { hasText: original }).waitFor();
  });

  it('jumps from a quote to an original beyond the first page, loading older pages, and highlights it', async () => {
    const far = `Far back question ${stamp}`;
    const [farId] = await (await poster('consultant@qupm.demo'))([far, ...fillers('Filler', 45)]);
    // The member (from another device of theirs) replies to it once it is far back: more than a page (30) newer.
    await (
      await poster('member@qupm.demo')
    )([replyText], farId);

    // Opened afresh, the consultant's window loads the newest page only: the original is not among it.
    await dana.page.reload();
    await dana.page.locator('.messages__list').waitFor();
    const reply = bubble(dana.page, replyText);
    await toLatest(dana.page, replyText);
    await reply.locator('.reply-quote', { hasText: far }).waitFor();
    expect(await bubble(dana.page, far).count()).toBe(0);
    await reply.locator('.reply-quote').click();
    await dana.page.mouse.move(0, 0); // the pointer away from the list, where hovering a bubble shows its tools
    await inView(dana.page, far, { highlighted: true });
    // The highlight is for a moment; the original stays in view after it (nothing takes the list back down).
    await inView(dana.page, far, { highlighted: false });
  });

  it('shows a reaction in the other window live, with who reacted, and takes it back there too', async () => {
    const message = bubble(dana.page, replyText);
    // Back to the newest (the jump paged back), where the reply is.
    await toLatest(dana.page, replyText);
    await message.hover();
    await message.getByRole('button', { name: 'React' }).click();
    await message.getByRole('button', { name: 'Heart' }).click();
    const own = message.getByRole('button', { name: /^Heart, 1: You\. Take yours back\.$/ });
    await own.waitFor();

    const seen = bubble(morgan.page, replyText);
    await toLatest(morgan.page, replyText);
    const counted = seen.getByRole('button', { name: /^Heart, 1: Dana.*Add yours\.$/ });
    await counted.waitFor();
    await seen.getByRole('button', { name: 'Who reacted' }).click();
    await seen.locator('.reactions__names', { hasText: 'Dana' }).waitFor();
    await expectAccessible(morgan.page, 'conversation, who reacted');

    await own.click();
    await seen.locator('.reactions__count').waitFor({ state: 'detached' });
    expect(await message.locator('.reactions__count').count()).toBe(0);
  });
});
