// The consulting practice's booking loop on the Firebase build (e2e/booking.e2e.test.ts is the embedded server's):
// the app built with QUPM_BACKEND=firebase, served by the Hosting emulator, against the Auth, Firestore (with
// firestore.rules and firestore.indexes.json) and Functions emulators running functions/'s real code. The people,
// the consultant's service and weekly hours and the client's credits are seeded through the callables as the app
// would make them; the rest is the app's: the client opens /services, books a free time, the consultant confirms
// in a second window, the client sees it upcoming without a reload and the ledger shows the hold, then its capture.
import type { Page } from 'playwright-core';
import { newDocumentId } from '../../core/ids';
import { formatSession } from '../../core/times';
import { expectAccessible } from '../support/accessibility';
import { openChannelMenu } from '../support/mutes';
import { submitSignIn } from '../support/session';
import { confirmAddress, listDocuments, makeAdmin, result, signUp } from './support/emulators';
import type { Account } from './support/emulators';
import { firebaseWindows, LAPTOP, PHONE, shot as shotOf, STEP_TIMEOUT_MS, url } from './support/windows';

jest.setTimeout(4 * STEP_TIMEOUT_MS);
const DAY_MS = 24 * 60 * 60 * 1000;
const SERVICE = 'Pricing deep dive';
const FOLLOW_UP = 'Follow-up call';
// The client's zone is not the consultant's: times are shown in the client's own.
const CLIENT_ZONE = 'Europe/Berlin';
const CONSULTANT_ZONE = 'America/New_York';

const { open, errors } = firebaseWindows();

/** The card of the client's offer for the follow-up, in their private consultation with the consultant. */
const offerCard = (page: Page) => page.getByRole('group', { name: 'Offer' }).filter({ hasText: FOLLOW_UP });

/** A look at the whole page (see ./support/windows.ts shot). */
const shot = (page: Page, name: string) => shotOf(page, name, { fullPage: true });

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

  it('the consultant offers a second service in the app and sends the client 50 % off it; the client sees the card and uses it', async () => {
    await consultantPage.getByRole('button', { name: 'New service' }).click();
    const form = consultantPage.getByRole('form', { name: 'New service' });
    await form.getByLabel('Title', { exact: true }).fill(FOLLOW_UP);
    await form.getByLabel('Description', { exact: true }).fill('An hour on what changed since.');
    await form.getByLabel('Minutes', { exact: true }).fill('60');
    await form.getByLabel('Price in credits').fill('2');
    await form.getByRole('button', { name: 'Offer this service' }).click();
    await consultantPage.getByText(`“${FOLLOW_UP}” is offered now.`).waitFor();

    // The offer, from the channel's Manage panel, as a consultant sends it.
    await consultantPage.goto(url('/'));
    await consultantPage.locator('.channel-link', { hasText: 'Strategy Studio' }).click();
    await openChannelMenu(consultantPage);
    await consultantPage.getByRole('button', { name: 'Manage' }).click();
    await consultantPage.getByRole('tab', { name: 'Members' }).click();
    const row = consultantPage.locator('.members__item', { hasText: 'Morgan Client' });
    await row.getByRole('button', { name: 'Send offer' }).click();
    await row.getByLabel('Service').selectOption({ label: `${FOLLOW_UP} · 2 credits` });
    await row.getByLabel('Discount (%)').fill('50');
    await row.getByRole('button', { name: 'Send offer' }).click();
    await row.getByText(/^Sent Morgan Client 50 % off/).waitFor();

    // The client's window has stayed open on /services: the private consultation and its card come live.
    await clientPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Home/ }).click();
    await clientPage.locator('.channel-link', { hasText: `50 % off ${FOLLOW_UP}` }).click();
    await offerCard(clientPage).getByRole('link', { name: 'Use this offer' }).click();
    const panel = clientPage.getByRole('form', { name: `Book “${FOLLOW_UP}”` });
    // 2 credits less 50 %: 1 credit, what the client has left.
    await panel.getByText(/Credits: 1 credit \(was 2, 50 % off\)/).waitFor();
    await shot(clientPage, 'phone-booking-offer');
  });

  it('the client books with it and the consultant confirms: 1 credit paid, the offer used, the ledger at 0', async () => {
    const panel = clientPage.getByRole('form', { name: `Book “${FOLLOW_UP}”` });
    await panel.locator('.slot').first().click();
    await panel.getByRole('button', { name: 'Request this time' }).click();
    await clientPage.getByText(`Requested a session: “${FOLLOW_UP}”`, { exact: false }).waitFor();
    const mine = clientPage.getByRole('listitem', {
      name: `${FOLLOW_UP} with Dana Consultant, Waiting for the consultant`,
    });
    expect(await mine.textContent()).toMatch(/1 credit \(50 % off\), held/);

    await consultantPage.goto(url('/services'));
    await consultantPage
      .getByRole('listitem', { name: `${FOLLOW_UP} with Morgan Client, Waiting for you to confirm` })
      .getByRole('button', { name: 'Confirm' })
      .click();
    await consultantPage.getByText(`Confirmed the session “${FOLLOW_UP}”.`).waitFor();
    // What the consultant's services earned names the offer used.
    await consultantPage.getByText(/2 sessions paid: 4 credits/).waitFor();
    await consultantPage.getByText(`50 % off ${FOLLOW_UP}`).waitFor();

    const confirmed = clientPage.getByRole('listitem', {
      name: `${FOLLOW_UP} with Dana Consultant, Confirmed`,
    });
    expect(await confirmed.textContent()).toMatch(/1 credit \(50 % off\), paid/);
    await clientPage.getByText(/Now: nothing/).waitFor();
    await clientPage.goBack();
    await offerCard(clientPage).getByText('This offer was used.').waitFor();

    const entries = (await listDocuments(`users/${client.uid}/ledger`)).map((entry) => entry.data);
    expect(entries.map((entry) => entry.kind).sort()).toEqual([
      'capture',
      'capture',
      'hold',
      'hold',
      'invitation',
    ]);
    expect(
      entries.reduce((total, entry) => total + Number((entry.delta as { credits: number }).credits), 0),
    ).toBe(0);
  });

  it('saw no page error on the way', () => {
    expect(errors.filter((error) => !/status of 4\d\d/.test(error))).toEqual([]);
  });
});
