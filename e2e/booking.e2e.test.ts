// The consulting practice's whole loop in two windows against the real server (issue 25): the consultant creates a
// service and sends an offer for it; the client sees the offer's card live in their conversation, uses it, books a
// free time with the discount; the consultant confirms; both see the session upcoming, the client's ledger shows
// the hold and its capture, the consultant's earnings the offer used. Screenshots of /services are saved at a
// phone, an iPhone and a laptop size (QUPM_SHOTS names the folder).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/accessibility';
import { mainNav, watchErrors } from './support/browser';
import type { RunningServer } from './support/server';
import { signIn, withBrowserSession } from './support/session';

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const SHOTS = process.env.QUPM_SHOTS;

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** Screenshots at the phone size and a laptop's, the page put back to its own size after. */
async function shootSizes(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  const own = page.viewportSize();
  await shoot(page, `phone-${name}`);
  await page.setViewportSize({ width: 1366, height: 768 });
  await shoot(page, `laptop-${name}`);
  if (own) await page.setViewportSize(own);
}

/** The consultant sends Morgan an offer on Pricing deep dive from the channel's members. */
async function sendOffer(consultant: Page, url: string, percent: number): Promise<void> {
  await consultant.goto(url + '/');
  await consultant.locator('.channel-link', { hasText: 'Strategy Studio' }).click();
  await consultant.getByRole('button', { name: 'Channel menu' }).click();
  await consultant.getByRole('button', { name: 'Manage' }).click();
  await consultant.getByRole('tab', { name: 'Members' }).click();
  const row = consultant.locator('.members__item', { hasText: 'Morgan' });
  await row.getByRole('button', { name: 'Send offer' }).click();
  await row.getByLabel('Service').selectOption({ label: 'Pricing deep dive · 3 credits' });
  await row.getByLabel('Discount (%)').fill(String(percent));
  await row.getByRole('button', { name: 'Send offer' }).click();
  await row.getByText(new RegExp(`^Sent Morgan ${percent} % off`)).waitFor();
}

/** 4xx answers the test provokes on purpose are the page's to show, not errors of the page. */
const realErrors = (errors: string[]) => errors.filter((e) => !/status of 4\d\d/.test(e));

describe('booking a session with an offer, in two windows', () => {
  let consultant: Page;
  let client: Page;
  const consultantErrors: string[] = [];
  const clientErrors: string[] = [];

  beforeAll(async () => {
    consultant = (await windows.openWindow({ viewport: { width: 1366, height: 768 } })).page;
    consultantErrors.push(...watchErrors(consultant));
    client = (await windows.openWindow({ viewport: { width: 390, height: 844 } })).page;
    clientErrors.push(...watchErrors(client));
    await signIn(consultant, server.url + '/services', 'consultant@qupm.demo');
    await signIn(client, server.url + '/', 'member@qupm.demo');
  });

  it('the consultant offers a new service, and a duplicate title is refused with words', async () => {
    await consultant.getByRole('heading', { name: 'Your services' }).waitFor();
    await consultant.getByRole('button', { name: 'New service' }).click();
    const form = consultant.getByRole('form', { name: 'New service' });
    await form.getByLabel('Title', { exact: true }).fill('Strategy session');
    await form.getByRole('button', { name: 'Offer this service' }).click();
    await form
      .getByRole('alert')
      .filter({ hasText: 'You already offer an active service with this title.' })
      .waitFor();
    await form.getByLabel('Title', { exact: true }).fill('Pricing deep dive');
    await form
      .getByLabel('Description', { exact: true })
      .fill('Ninety minutes on your prices, with numbers.');
    await form.getByLabel('Minutes', { exact: true }).fill('90');
    await form.getByLabel('Price in credits').fill('3');
    await form.getByRole('button', { name: 'Offer this service' }).click();
    await consultant.getByText('“Pricing deep dive” is offered now.').waitFor();
    await consultant.getByRole('heading', { name: 'Pricing deep dive' }).waitFor();
    await expectAccessible(consultant, 'consultant /services');
  });

  it('the consultant sends Morgan 34 % off it; Morgan sees the card live and uses it', async () => {
    await sendOffer(consultant, server.url, 34);

    // Morgan is on Home and has not opened /services in this session: the dot on Services comes live all the same.
    await client.locator('.nav__link--news', { hasText: 'Services' }).waitFor();
    await shootSizes(client, 'services-dot');

    // The card reaches the client's private consultation with Dana, live: no reload.
    await client.locator('.channel-link', { hasText: '34 % off Pricing deep dive' }).click();
    const card = client.getByRole('group', { name: 'Offer' }).filter({ hasText: 'Pricing deep dive' });
    await card.waitFor();
    expect(await card.textContent()).toMatch(/34 % off.*Pricing deep dive/);
    await card.getByRole('link', { name: 'Use this offer' }).click();
    const panel = client.getByRole('form', { name: 'Book “Pricing deep dive”' });
    await panel.waitFor();
    // 3 credits less 34 %, rounded down: 1 credit.
    await panel.getByText(/Credits: 1 credit \(was 3, 34 % off\)/).waitFor();
  });

  it('Morgan books a free time with the discount; Dana confirms; both see it upcoming', async () => {
    const panel = client.getByRole('form', { name: 'Book “Pricing deep dive”' });
    await panel.locator('.slot').first().click();
    await shoot(client, 'phone-booking');
    await expectAccessible(client, 'client booking panel');
    await panel.getByRole('button', { name: 'Request this time' }).click();
    await client.getByText('Requested a session: “Pricing deep dive”', { exact: false }).waitFor();
    const mine = client.getByRole('listitem', {
      name: 'Pricing deep dive with Dana, Waiting for the consultant',
    });
    await mine.waitFor();
    expect(await mine.textContent()).toMatch(/1 credit \(34 % off\), held/);

    await consultant.goto(server.url + '/services');
    // The consultant's card names the client who asked (two requests at once read apart by it).
    const request = consultant.getByRole('listitem', {
      name: 'Pricing deep dive with Morgan, Waiting for you to confirm',
    });
    expect(await request.getByRole('heading').textContent()).toBe('Pricing deep dive with Morgan');
    await request.getByRole('button', { name: 'Confirm' }).click();
    await consultant.getByText('Confirmed the session “Pricing deep dive”.').waitFor();
    await consultant.getByRole('listitem', { name: 'Pricing deep dive with Morgan, Confirmed' }).waitFor();

    // Live on the client's screen: confirmed, paid; the ledger has the hold, then its capture.
    const confirmed = client.getByRole('listitem', { name: 'Pricing deep dive with Dana, Confirmed' });
    await confirmed.waitFor();
    expect(await confirmed.textContent()).toMatch(/1 credit \(34 % off\), paid/);
    const rows = client.getByRole('table').getByRole('row');
    await rows.filter({ hasText: 'Paid (the held price taken)' }).waitFor();
    const lines = (await rows.allTextContents()).slice(1, 3);
    expect(lines).toEqual([
      expect.stringMatching(/Paid \(the held price taken\)1 credit, already held2 cr · 1 p/),
      expect.stringMatching(/Held for a booking−1 credit2 cr · 1 p/),
    ]);
    await client.getByText(/Now: 2 credits and 1 pass/).waitFor();

    // The consultant's earnings name the offer used.
    await consultant.getByText(/1 session paid: 1 credit/).waitFor();
    await consultant.getByText(/34 % off Pricing deep dive/).waitFor();
    await shoot(consultant, 'laptop-consultant');
    await shoot(client, 'phone-client');
    expect(realErrors(consultantErrors)).toEqual([]);
    expect(realErrors(clientErrors)).toEqual([]);
  });

  it('the offer card now says the offer was used, and /services fits an iPhone', async () => {
    await client.goBack();
    const card = client.getByRole('group', { name: 'Offer' }).filter({ hasText: 'Pricing deep dive' });
    await card.getByText('This offer was used.').waitFor();
    expect(await card.getByRole('link', { name: 'Use this offer' }).count()).toBe(0);

    const iphone = (
      await windows.openWindow({
        viewport: { width: 390, height: 664 },
        userAgent: IPHONE_UA,
        isMobile: true,
      })
    ).page;
    await signIn(iphone, server.url + '/services', 'member@qupm.demo');
    await iphone.getByRole('listitem', { name: 'Pricing deep dive with Dana, Confirmed' }).waitFor();
    const overflow = await iphone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shoot(iphone, 'iphone-client');
  });
  it('with /services open, a new offer arrives live and its "Use this offer" opens the booking with its discount', async () => {
    await (await mainNav(client)).getByRole('link', { name: /^Services/ }).click();
    await client.getByRole('heading', { name: 'Book a session' }).waitFor();
    // The practice is read (its offers with it) before the new offer exists.
    expect(await client.getByRole('list', { name: 'Active offers' }).getByText('40 %').count()).toBe(0);

    await sendOffer(consultant, server.url, 40);
    const offer = client.getByRole('list', { name: 'Active offers' }).getByRole('listitem');
    await offer
      .filter({ hasText: '40 %' })
      .getByRole('link', { name: /^Use this offer/ })
      .click();
    const panel = client.getByRole('form', { name: 'Book “Pricing deep dive”' });
    // 3 credits less 40 %, rounded down: 1 credit.
    await panel.getByText(/Credits: 1 credit \(was 3, 40 % off\)/).waitFor();
  });

  it('the consultant withdraws it; the card in Morgan’s open consultation says so, live', async () => {
    await (await mainNav(client)).getByRole('link', { name: /^Home/ }).click();
    await client.locator('.channel-link', { hasText: '40 % off Pricing deep dive' }).click();
    const card = client.getByRole('group', { name: 'Offer' }).filter({ hasText: '40 % off' });
    await card.getByRole('link', { name: 'Use this offer' }).waitFor();

    await consultant.goto(server.url + '/services');
    await consultant.getByRole('button', { name: 'Withdraw the offer of 40 % for Morgan' }).click();
    await consultant
      .getByRole('group', { name: 'Withdraw the offer of 40 % for Morgan' })
      .getByRole('button', { name: 'Withdraw offer' })
      .click();

    await card.getByText('This offer was withdrawn.').waitFor();
    expect(await card.getByRole('link', { name: 'Use this offer' }).count()).toBe(0);
    await shootSizes(client, 'card-withdrawn');
    expect(realErrors(consultantErrors)).toEqual([]);
    expect(realErrors(clientErrors)).toEqual([]);
  });
});
