// Read receipts and typing in two windows, in the real build against the real server: the consultant and the
// member each have Strategy Studio open. The consultant's newest message says "Seen by 1" once the member has read
// it, with who and when behind it; "Morgan is typing…" shows in the consultant's window while the member types and
// goes with their message, or a few seconds after the last keystroke; a burst of keystrokes is a few requests; and
// once the member turns read receipts off, neither side sees the other's. Who read it stays fully in view when
// opened at the foot of the conversation, at a phone, an iPhone's Safari viewport and a laptop.
import type { Page } from 'playwright-core';
import { TYPING_SIGNAL_EVERY_MS } from '../src/timings';
import { expectAccessible } from './support/accessibility';
import type { RunningServer } from './support/server';
import { signInHome, withBrowserSession } from './support/session';
import type { BrowserWindow } from './support/session';

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));

async function openStudio(email: string): Promise<BrowserWindow> {
  const opened = await windows.openWindow({ viewport: { width: 1366, height: 768 } });
  await signInHome(opened.page, server.url, email);
  await opened.page.getByRole('link', { name: /Strategy Studio/ }).click();
  await opened.page.getByRole('textbox', { name: 'Message' }).waitFor();
  return opened;
}

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  // The bubble's own time (once the other window reads it, the "Seen by" list holds the reader's time too).
  await page.locator('.message--own', { hasText: text }).locator('.message__meta time').waitFor();
}

/** A message's bubble text in the conversation (not its preview in the list, nor the live region). */
const bubble = (page: Page, text: string) => page.locator('.message__text', { hasText: text });
/** The receipt under the window's newest own message. */
const receipt = (page: Page) => page.locator('.message--own .receipt');
const typing = (page: Page) => page.locator('.typing');

describe('read receipts and typing in two windows', () => {
  let consultant: BrowserWindow;
  let member: BrowserWindow;
  beforeAll(async () => {
    consultant = await openStudio('consultant@qupm.demo');
    member = await openStudio('member@qupm.demo');
  });

  it("shows Seen by 1 in the sender's window once the other has read it, with who and when", async () => {
    await consultant.page.bringToFront();
    await send(consultant.page, 'Did you see the plan?');
    await member.page.bringToFront();
    await bubble(member.page, 'Did you see the plan?').waitFor();
    await receipt(consultant.page).getByText('Seen by 1').waitFor({ timeout: 15_000 });
    await receipt(consultant.page).getByText('Seen by 1').click();
    const reader = receipt(consultant.page).getByRole('listitem');
    await reader.waitFor();
    expect(await reader.textContent()).toMatch(/^Morgan\s*\d{1,2}:\d{2}/);
  });

  it('keeps the list of who read it fully in view at the foot of the conversation, on phones and a laptop', async () => {
    const page = consultant.page;
    const details = receipt(page);
    for (const size of [
      { width: 390, height: 844 },
      { width: 390, height: 664 },
      { width: 1366, height: 768 },
    ]) {
      await page.setViewportSize(size);
      // The list is virtualized: the newest bubble (and its receipt) is drawn once the list is at its foot.
      await page
        .locator('.messages [data-virtuoso-scroller]')
        .evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await details.waitFor();
      if (await details.evaluate((el) => (el as HTMLDetailsElement).open)) {
        await details.locator('summary').click();
      }
      await details.locator('summary').click();
      // Inside the conversation's scroller and the window: not under its edge, the composer or the screen's foot.
      const inView = await page
        .waitForFunction(
          () => {
            const list = document.querySelector('.message--own .receipt__readers');
            const scroller = document.querySelector('.messages [data-virtuoso-scroller]');
            if (!list || !scroller) return false;
            const shown = list.getBoundingClientRect();
            const frame = scroller.getBoundingClientRect();
            return (
              shown.height > 0 &&
              shown.top >= frame.top - 0.5 &&
              shown.bottom <= frame.bottom + 0.5 &&
              shown.bottom <= window.innerHeight
            );
          },
          undefined,
          { timeout: 5_000 },
        )
        .then(
          () => true,
          () => false,
        );
      expect({ ...size, inView }).toEqual({ ...size, inView: true });
    }
    await expectAccessible(page, 'conversation, who read it');
  });

  it("shows who is typing in the other's window, gone with their message", async () => {
    const box = member.page.getByRole('textbox', { name: 'Message' });
    await box.pressSequentially('On it, I am', { delay: 30 });
    await typing(consultant.page).getByText('Morgan is typing…').waitFor();
    // Never in the typer's own window.
    expect(await typing(member.page).textContent()).toBe('');
    await box.press('Enter');
    await bubble(consultant.page, 'On it, I am').waitFor();
    expect(await typing(consultant.page).textContent()).toBe('');
  });

  it('sends a burst of keystrokes as a few typing requests, and the line goes a few seconds after the last', async () => {
    const sent: string[] = [];
    member.page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/typing')) sent.push(request.url());
    });
    const box = member.page.getByRole('textbox', { name: 'Message' });
    const began = Date.now();
    await box.pressSequentially('a quick burst of forty keystrokes, typed', { delay: 50 });
    const typedFor = Date.now() - began;
    await typing(consultant.page).getByText('Morgan is typing…').waitFor();
    // The first signal, then at most one each TYPING_SIGNAL_EVERY_MS (the saga's throttle, trailing one included):
    // two for the burst's 2 s, more only if a loaded machine typed its forty keys slower. Unthrottled, forty.
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent.length).toBeLessThanOrEqual(1 + Math.ceil(typedFor / TYPING_SIGNAL_EVERY_MS));
    await typing(consultant.page)
      .getByText('Morgan is typing…')
      .waitFor({ state: 'detached', timeout: 12_000 });
    await box.fill('');
  });

  it('hides receipts both ways once the member turns them off', async () => {
    await member.page.goto(`${server.url}/settings/profile`);
    const toggle = member.page.getByRole('switch', { name: /Send read receipts/ });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(true);
    await Promise.all([
      member.page.waitForResponse(
        (r) => r.url().endsWith('/api/receipts/settings') && r.request().method() === 'PUT' && r.ok(),
      ),
      toggle.uncheck(),
    ]);
    await member.page.goto(`${server.url}/`);
    await member.page.getByRole('link', { name: /Strategy Studio/ }).click();

    await consultant.page.bringToFront();
    await send(consultant.page, 'Another question');
    await member.page.bringToFront();
    await bubble(member.page, 'Another question').waitFor();
    // The member's read is never disclosed: the consultant's newest stays short of "Seen".
    await member.page.waitForTimeout(2_000);
    expect(await receipt(consultant.page).textContent()).not.toMatch(/Seen/);

    // Nor does the member see the consultant's reads of theirs.
    await send(member.page, 'Answer from me');
    await consultant.page.bringToFront();
    await bubble(consultant.page, 'Answer from me').waitFor();
    await consultant.page.waitForTimeout(2_000);
    expect(await receipt(member.page).count()).toBe(0);
    expect([...consultant.errors, ...member.errors]).toEqual([]);
  });
});
