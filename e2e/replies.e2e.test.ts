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

const bubble = (page: Page, text: string) => page.locator('.message', { hasText: text });

/** Posts `texts` as `email` to Strategy Studio through the API, in order; answers the first message's id. */
async function post(email: string, texts: string[]): Promise<string> {
  const signIn = await fetch(`${server.url}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'qupm-demo' }),
  });
  const { accessToken } = (await signIn.json()) as { accessToken: string };
  const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
  const mine = await fetch(`${server.url}/api/channels?mine`, { headers });
  const { channels } = (await mine.json()) as { channels: Array<{ id: string; title: string }> };
  const studio = channels.find((channel) => channel.title === 'Strategy Studio');
  if (!studio) throw new Error('no Strategy Studio');
  const ids: string[] = [];
  for (const text of texts) {
    const sent = await fetch(`${server.url}/api/channels/${studio.id}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text }),
    });
    if (!sent.ok) throw new Error(`posting: ${sent.status} ${await sent.text()}`);
    ids.push(((await sent.json()) as { id: string }).id);
  }
  return ids[0] ?? '';
}

describe('replies and reactions, live in two windows', () => {
  let dana: BrowserWindow;
  let morgan: BrowserWindow;
  const stamp = Date.now();
  const original = `The plan for Q3 is ready ${stamp}`;
  const answer = `Looks great, thanks ${stamp}`;

  it('shows a reply’s quote in both windows, and the quote jumps to an original beyond the first page', async () => {
    await post('consultant@qupm.demo', [
      original,
      ...Array.from({ length: 40 }, (_, i) => `Filler ${i + 1} ${stamp}`),
    ]);
    dana = await openWindow('consultant@qupm.demo');
    morgan = await openWindow('member@qupm.demo');
    const newest = `Filler 40 ${stamp}`;
    await bubble(morgan.page, newest).waitFor();
    // The original is beyond the first page (30 messages): not loaded in either window yet.
    expect(await bubble(dana.page, original).count()).toBe(0);

    // Morgan replies to the newest, then (through the API's reply route the screen uses) the far one is quoted in
    // a reply Morgan writes to it from the screen after paging to it.
    const newestBubble = bubble(morgan.page, newest);
    await newestBubble.hover();
    await newestBubble.getByRole('button', { name: 'Reply' }).click();
    await morgan.page.getByText('Replying to').waitFor();
    await expectAccessible(morgan.page, 'conversation, replying');
    await morgan.page.getByLabel('Message', { exact: true }).fill(answer);
    await morgan.page.getByLabel('Message', { exact: true }).press('Enter');
    const reply = bubble(morgan.page, answer);
    await reply.locator('.reply-quote', { hasText: newest }).waitFor();
    expect(await morgan.page.getByText('Replying to').count()).toBe(0);
    await bubble(dana.page, answer).locator('.reply-quote', { hasText: newest }).waitFor();
  });

  it('jumps from a quote to an original beyond the first page, loading older pages, and highlights it', async () => {
    const far = `Far back question ${stamp}`;
    // A reply to the far original, made by the member's window: the original is paged to through its quote in
    // the consultant's window, which has never loaded it.
    await morgan.page.evaluate(() => undefined);
    const farId = await post('consultant@qupm.demo', [far]);
    await post(
      'consultant@qupm.demo',
      Array.from({ length: 35 }, (_, i) => `More filler ${i + 1} ${stamp}`),
    );
    await bubble(morgan.page, `More filler 35 ${stamp}`).waitFor();
    const session = await fetch(`${server.url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'member@qupm.demo', password: 'qupm-demo' }),
    });
    const { accessToken } = (await session.json()) as { accessToken: string };
    const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
    const mine = (await (await fetch(`${server.url}/api/channels?mine`, { headers })).json()) as {
      channels: Array<{ id: string; title: string }>;
    };
    const studio = mine.channels.find((channel) => channel.title === 'Strategy Studio')?.id ?? '';
    const replyText = `About that question ${stamp}`;
    const sent = await fetch(`${server.url}/api/channels/${studio}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text: replyText, replyTo: farId }),
    });
    expect(sent.status).toBe(200);

    const reply = bubble(dana.page, replyText);
    await reply.locator('.reply-quote', { hasText: far }).waitFor();
    expect(await bubble(dana.page, far).count()).toBe(0);
    await reply.locator('.reply-quote').click();
    const target = dana.page.locator('.message.message--highlight', { hasText: far });
    await target.waitFor();
    await expect(target.isVisible()).resolves.toBe(true);
  });

  it('shows a reaction in the other window live, with who reacted, and takes it back there too', async () => {
    const message = bubble(dana.page, answer);
    await dana.page
      .locator('.messages [data-virtuoso-scroller]')
      .evaluate((scroller) => scroller.scrollTo({ top: scroller.scrollHeight }));
    await message.waitFor();
    await message.hover();
    await message.getByRole('button', { name: 'React' }).click();
    await message.getByRole('button', { name: 'Heart' }).click();
    const own = message.getByRole('button', { name: /^Heart, 1: You\. Take yours back\.$/ });
    await own.waitFor();

    const seen = bubble(morgan.page, answer);
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
