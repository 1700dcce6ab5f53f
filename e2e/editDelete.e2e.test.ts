// In two browser windows of different people against the real server: the member edits their
// message and the consultant's window shows it "edited" in place, live; the consultant's window is offline while
// the member edits again, and shows that edit once when it is back; the member deletes their message and the other
// window shows the "Message deleted" tombstone (also as the channel list's last message); the consultant deletes
// the member's message from their side. Offered controls follow the rules: nobody is offered Edit on someone
// else's message, and a member is offered no Delete on the consultant's. Checked with axe-core on the way.
import type { Page } from 'playwright-core';
import { dropStreams } from '../drivers/chromium';
import { expectAccessible } from './support/accessibility';
import type { RunningServer } from './support/server';
import { signIn, withBrowserSession } from './support/session';
import type { BrowserWindow } from './support/session';

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));

async function openWindow(email: string): Promise<BrowserWindow> {
  const opened = await windows.openWindow({ viewport: { width: 1200, height: 860 } });
  const { page } = opened;
  await signIn(page, server.url, email);
  await page.getByRole('link', { name: /Strategy Studio/ }).click();
  await page.locator('.messages__list').waitFor();
  return opened;
}

const bubble = (page: Page, text: string) => page.locator('.message', { hasText: text });

/** The list is virtualized: a bubble exists only while it is near the view, so go back to the newest first. */
async function toLatest(page: Page): Promise<void> {
  await page
    .locator('.messages [data-virtuoso-scroller]')
    .evaluate((scroller) => scroller.scrollTo({ top: scroller.scrollHeight }));
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  // The bubble's own time (its "Seen by" disclosure lists each reader's time too, once the other window reads it).
  await bubble(page, text).locator('.message__meta time').waitFor();
}

async function editOwn(page: Page, from: string, to: string): Promise<void> {
  await toLatest(page);
  const own = bubble(page, from);
  await own.hover();
  await own.getByRole('button', { name: /^Edit your message from / }).click();
  const field = page.getByLabel('Edit your message (Enter saves, Escape cancels)');
  await field.fill(to);
  await field.press('Enter');
  await bubble(page, to).getByText('(edited)').waitFor();
}

describe('edit and delete, live in two windows', () => {
  let dana: BrowserWindow;
  let morgan: BrowserWindow;
  const stamp = Date.now();
  const typo = `See you on Tusday ${stamp}`;
  const fixed = `See you on Tuesday ${stamp}`;
  const offline = `See you on Wednesday instead ${stamp}`;

  it('shows an edit "edited" in the other window, in place, live', async () => {
    dana = await openWindow('consultant@qupm.demo');
    morgan = await openWindow('member@qupm.demo');
    await send(morgan.page, typo);
    await bubble(dana.page, typo).waitFor();

    // Escape leaves the editor without a change.
    const own = bubble(morgan.page, typo);
    await own.hover();
    await own.getByRole('button', { name: /^Edit your message from / }).click();
    await expectAccessible(morgan.page, 'conversation, editing a message');
    await morgan.page.getByLabel('Edit your message (Enter saves, Escape cancels)').press('Escape');
    await expect(own.getByText('(edited)').count()).resolves.toBe(0);

    await editOwn(morgan.page, typo, fixed);
    await bubble(dana.page, fixed).getByText('(edited)').waitFor();
    expect(await bubble(dana.page, typo).count()).toBe(0);
    expect(await bubble(dana.page, fixed).count()).toBe(1);
  });

  it('offers Edit only on one’s own messages, and the consultant Delete on the member’s', async () => {
    const theirs = bubble(dana.page, fixed);
    await theirs.hover();
    expect(await theirs.getByRole('button', { name: /^Edit / }).count()).toBe(0);
    expect(await theirs.getByRole('button', { name: /^Delete Morgan’s message from / }).count()).toBe(1);
    await morgan.page.locator('.message:not(.message--own)').first().hover();
    // Reply and React are there on every message; Edit and Delete not on someone else's.
    const others = morgan.page.locator('.message:not(.message--own)');
    expect(await others.getByRole('button', { name: /^(Edit|Delete)\b/ }).count()).toBe(0);
    expect(
      await others
        .first()
        .getByRole('button', { name: /^Reply to / })
        .count(),
    ).toBe(1);
  });

  it('a window offline during an edit shows it once when it is back', async () => {
    await dana.context.setOffline(true);
    await dropStreams(dana.page);
    await editOwn(morgan.page, fixed, offline);
    expect(await bubble(dana.page, offline).count()).toBe(0);

    await dana.context.setOffline(false);
    await bubble(dana.page, offline).getByText('(edited)').waitFor({ timeout: 30_000 });
    expect(await bubble(dana.page, offline).count()).toBe(1);
    expect(await bubble(dana.page, fixed).count()).toBe(0);
  });

  it('shows the tombstone in the other window when the sender deletes, and in the channel list', async () => {
    await toLatest(morgan.page);
    const own = bubble(morgan.page, offline);
    await own.hover();
    await own.getByRole('button', { name: /^Delete your message from / }).click();
    await morgan.page.getByRole('group', { name: /^Delete your message from / }).waitFor();
    await expectAccessible(morgan.page, 'conversation, confirming a deletion');
    await morgan.page.getByRole('button', { name: 'Delete', exact: true }).click();
    await morgan.page.getByText('Message deleted', { exact: true }).waitFor();

    await dana.page.locator('.message__text--deleted').waitFor();
    expect(await bubble(dana.page, offline).count()).toBe(0);
    await dana.page.locator('.channel-link__preview', { hasText: 'Morgan: Message deleted' }).waitFor();
  });

  it('lets the consultant delete the member’s message, and the member sees it go', async () => {
    const text = `Please remove this ${stamp}`;
    await send(morgan.page, text);
    await toLatest(dana.page);
    const theirs = bubble(dana.page, text);
    await theirs.hover();
    await theirs.getByRole('button', { name: /^Delete Morgan’s message from / }).click();
    await dana.page.getByRole('button', { name: 'Delete', exact: true }).click();
    await bubble(dana.page, text).waitFor({ state: 'detached' });
    await bubble(morgan.page, text).waitFor({ state: 'detached' });
    expect(await morgan.page.locator('.message__text--deleted').count()).toBe(2);
    // The offline spell logs failed requests; what must never happen is a crash of the page or a saga.
    for (const window of [dana, morgan]) {
      expect(window.errors.filter((e) => /pageerror|saga failed|Minified React error/.test(e))).toEqual([]);
    }
  });
});
