// The consulting practice's booking loop on the Firebase build (e2e/booking.e2e.test.ts is the embedded server's):
// the app built with QUPM_BACKEND=firebase, served by the Hosting emulator, against the Auth, Firestore (with
// firestore.rules and firestore.indexes.json) and Functions emulators running functions/'s real code. The people,
// the consultant's service and weekly hours and the client's credits are seeded through the callables as the app
// would make them; the rest is the app's: the client opens /services, books a free time, the consultant confirms
// in a second window, the client sees it upcoming without a reload and the ledger shows the hold, then its capture.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { newDocumentId } from '../../core/ids';
import { formatSession } from '../../core/times';
import { launchChromium } from '../../drivers/chromium';
import { expectAccessible } from '../support/accessibility';
import { watchErrors } from '../support/browser';
import { submitSignIn } from '../support/session';
import { confirmAddress, emulators, listDocuments, makeAdmin, result, signUp } from './support/emulators';
import type { Account } from './support/emulators';

const SHOTS = process.env.QUPM_SHOTS_DIR;
// The Functions emulator starts a worker for each function the first time it is called (seconds each, many more
// on a loaded machine), and a step of the loop may be the first to call several.
const STEP_TIMEOUT_MS = 60_000;
jest.setTimeout(4 * STEP_TIMEOUT_MS);
const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const DAY_MS = 24 * 60 * 60 * 1000;
const SERVICE = 'Pricing deep dive';
// The client's zone is not the consultant's: times are shown in the client's own.
const CLIENT_ZONE = 'Europe/Berlin';
const CONSULTANT_ZONE = 'America/New_York';

let browser: Browser;
const errors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function open(viewport: { width: number; height: number }, timezoneId: string): Promise<Page> {
  const context = await browser.newContext({ viewport, timezoneId });
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  const page = await context.newPage();
  errors.push(...watchErrors(page));
  return page;
}

const url = (path: string) => emulators().hostingUrl + path;

/** A look at the screen, kept when QUPM_SHOTS_DIR names a folder (a person reviews them; nothing compares). */
async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function signInAt(page: Page, path: string, account: Account): Promise<void> {
  await page.goto(url(path));
  await submitSignIn(page, account.email, account.password);
}

describe('booking a session on Firebase, in two windows', () => {
  let consultant: Account;
  let client: Account;
  let rival: Account;
  let serviceId: string;
  let consultantPage: Page;
  let clientPage: Page;
  let startsAt: number;

  beforeAll(async () => {
    const admin = await makeAdmin(await signUp('admin', 'Ada Admin'));
    consultant = await confirmAddress(await signUp('consultant', 'Dana Consultant'));
    client = await confirmAddress(await signUp('client', 'Morgan Client'));
    rival = await confirmAddress(await signUp('rival', 'Riley Rival'));
    await result('admin_set_consultant', { uid: consultant.uid, isOwner: true }, admin.idToken);
    consultant = await confirmAddress(consultant);
    // The clients are the consultant's: members of their channel, with 4 credits each from its invitations.
    const channel = await result<{ id: string }>(
      'create_channel',
      { channelId: `studio-${Date.now()}`, title: 'Strategy Studio' },
      consultant.idToken,
    );
    for (const someone of [client, rival]) {
      const invitation = await result<{ id: string }>(
        'create_invitation',
        { channelId: channel.id, passes: 0, credits: 4, expiresAt: Date.now() + DAY_MS },
        consultant.idToken,
      );
      await result('accept_invitation', { invitationId: invitation.id }, someone.idToken);
      await result('activate_invitation', { invitationId: invitation.id }, someone.idToken);
    }
    ({ id: serviceId } = await result<{ id: string }>(
      'create_service',
      {
        title: SERVICE,
        description: 'Ninety minutes on your prices, with numbers.',
        durationMinutes: 90,
        priceCredits: 3,
        operationId: newDocumentId(),
      },
      consultant.idToken,
    ));
    // Every day, the whole day, in the consultant's zone: a free time always exists an hour from now.
    await result(
      'set_availability',
      {
        timeZone: CONSULTANT_ZONE,
        hours: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, start: '00:00', end: '24:00' })),
      },
      consultant.idToken,
    );
  });

  it('the client picks a free time another client then takes: refused with words, nothing held', async () => {
    clientPage = await open(PHONE, CLIENT_ZONE);
    await signInAt(clientPage, '/services', client);
    await clientPage.getByRole('heading', { name: 'Book a session' }).waitFor();
    await clientPage.getByRole('heading', { name: SERVICE }).waitFor();
    await shot(clientPage, 'phone-services-client');
    await clientPage.getByRole('button', { name: `Book ${SERVICE}` }).click();
    const panel = clientPage.getByRole('form', { name: `Book “${SERVICE}”` });
    const slot = panel.locator('.slot').first();
    const taken = Number(await slot.locator('input').getAttribute('value'));
    await slot.click();
    await result(
      'request_booking',
      {
        serviceId,
        startsAt: taken,
        paymentMethod: 'credits',
        clientTimeZone: 'UTC',
        operationId: newDocumentId(),
      },
      rival.idToken,
    );
    await panel.getByRole('button', { name: 'Request this time' }).click();
    await panel.getByRole('alert').filter({ hasText: 'That time is no longer free.' }).waitFor();
    await clientPage.getByText(/Now: 4 credits/).waitFor();
    expect(await clientPage.getByText('No upcoming sessions.').count()).toBe(1);
    await shot(clientPage, 'phone-services-client-refused');
  });

  it('the client books a free time after it, and sees the price held', async () => {
    const panel = clientPage.getByRole('form', { name: `Book “${SERVICE}”` });
    const rivals = await listDocuments('bookings').then((all) =>
      all.filter((booking) => booking.data.clientId === rival.uid),
    );
    const taken = (rivals[0]?.data.startsAt as Date).getTime();
    // The first free start after the rival's session, on whichever day the panel lists it.
    const days = panel.getByLabel('Day');
    for (const option of await days.locator('option').all()) {
      await days.selectOption((await option.getAttribute('value')) ?? '');
      const values = await panel
        .locator('.slot input')
        .evaluateAll((inputs) => inputs.map((input) => Number((input as HTMLInputElement).value)));
      const later = values.find((value) => value >= taken + 90 * 60_000);
      if (later !== undefined) {
        startsAt = later;
        break;
      }
    }
    await panel.locator(`.slot:has(input[value="${startsAt}"])`).click();
    await expectAccessible(clientPage, 'client booking panel (Firebase)');
    await panel.getByRole('button', { name: 'Request this time' }).click();
    await clientPage.getByText(`Requested a session: “${SERVICE}”`, { exact: false }).waitFor();
    const mine = clientPage.getByRole('listitem', {
      name: `${SERVICE} with Dana Consultant, Waiting for the consultant`,
    });
    await mine.waitFor();
    expect(await mine.textContent()).toMatch(/3 credits, held/);
    const span = { startsAt, endsAt: startsAt + 90 * 60_000 };
    expect(await mine.textContent()).toContain(formatSession(span, CLIENT_ZONE));
    const [stored] = await listDocuments('bookings').then((all) =>
      all.filter((booking) => booking.data.clientId === client.uid),
    );
    expect((stored?.data.startsAt as Date).getTime()).toBe(startsAt);
    await clientPage.getByText(/Now: 1 credit/).waitFor();
  });

  it('the consultant confirms in a second window; the client sees it upcoming and paid, live', async () => {
    consultantPage = await open(LAPTOP, CONSULTANT_ZONE);
    await signInAt(consultantPage, '/services', consultant);
    await consultantPage.getByRole('heading', { name: 'Your services' }).waitFor();
    // Two requests wait (the rival's too): the client's names them (the callable keeps the name on the booking),
    // at their time in the consultant's zone.
    const span = { startsAt, endsAt: startsAt + 90 * 60_000 };
    const request = consultantPage
      .getByRole('listitem', { name: `${SERVICE} with Morgan Client, Waiting for you to confirm` })
      .filter({ hasText: formatSession(span, CONSULTANT_ZONE) });
    await request.getByRole('button', { name: 'Confirm' }).click();
    await consultantPage.getByText(`Confirmed the session “${SERVICE}”.`).waitFor();
    await consultantPage
      .getByRole('listitem', { name: `${SERVICE} with Morgan Client, Confirmed` })
      .waitFor();
    await consultantPage.getByText(/1 session paid: 3 credits/).waitFor();
    await shot(consultantPage, 'laptop-services-consultant');

    const confirmed = clientPage.getByRole('listitem', {
      name: `${SERVICE} with Dana Consultant, Confirmed`,
    });
    await confirmed.waitFor();
    expect(await confirmed.textContent()).toMatch(/3 credits, paid/);
    const rows = clientPage.getByRole('table').getByRole('row');
    await rows.filter({ hasText: 'Paid (the held price taken)' }).waitFor();
    expect((await rows.allTextContents()).slice(1, 3)).toEqual([
      expect.stringMatching(/Paid \(the held price taken\)3 credits, already held1 cr · 0 p/),
      expect.stringMatching(/Held for a booking−3 credits1 cr · 0 p/),
    ]);
    await shot(clientPage, 'phone-services-client-confirmed');
    await expectAccessible(consultantPage, 'consultant /services (Firebase)');
  });

  it('the ledger as stored: the invitation’s credits, the hold and its capture, summing to the balance', async () => {
    const entries = (await listDocuments(`users/${client.uid}/ledger`)).map((entry) => entry.data);
    expect(entries.map((entry) => entry.kind).sort()).toEqual(['capture', 'hold', 'invitation']);
    const sum = entries.reduce(
      (total, entry) => total + Number((entry.delta as { credits: number }).credits),
      0,
    );
    expect(sum).toBe(1);
  });

  it('saw no page error on the way', () => {
    expect(errors.filter((error) => !/status of 4\d\d/.test(error))).toEqual([]);
  });
});
