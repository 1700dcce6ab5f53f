// The app itself on Firebase: the production build made with QUPM_BACKEND=firebase (its SDK pointed at the
// emulators), served by the Hosting emulator with firebase.json's headers, driven in Chromium against the Auth
// emulator, the Firestore emulator with firestore.rules and the Functions emulator with functions/'s real code.
// The embedded server's journey (e2e/product.e2e.test.ts, e2e/editDelete.e2e.test.ts), with its words: a person
// signs up and confirms their address with the link the Auth emulator "mailed", an admin makes them a
// consultant, they create a channel and invite someone by email; that person signs up on the link, confirms,
// accepts; they write to each other live, and the message is edited and deleted before the other's eyes.
import type { Page } from 'playwright-core';
import { expectAccessible } from '../support/accessibility';
import { submitSignIn } from '../support/session';
import { makeAdmin, outOfBandCodes, signUp } from './support/emulators';
import type { Account } from './support/emulators';
import { firebaseWindows, LAPTOP, PHONE, shot, STEP_TIMEOUT_MS, url } from './support/windows';
import { openChannelMenu } from '../support/mutes';

jest.setTimeout(4 * STEP_TIMEOUT_MS);

const { open, errors } = firebaseWindows();
const composer = (page: Page) => page.getByLabel('Message', { exact: true });
const bubble = (page: Page, text: string) => page.locator('.message', { hasText: text });

/** Signs up on the open sign-up form (the home screen's, or an invitation's). */
async function createAccount(page: Page, name: string, email: string): Promise<void> {
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a-long-password');
  await page.getByRole('button', { name: 'Create account' }).click();
}

/** Opens the confirmation link the Auth emulator holds for `email`, as the app's action handler (/verify-email). */
async function confirmEmail(page: Page, email: string): Promise<void> {
  let code: string | undefined;
  for (let tries = 0; tries < 50 && !code; tries += 1) {
    code = (await outOfBandCodes()).find(
      (candidate) => candidate.email === email && candidate.requestType === 'VERIFY_EMAIL',
    )?.oobCode;
    if (!code) await page.waitForTimeout(200);
  }
  if (!code) throw new Error(`The Auth emulator holds no confirmation link for ${email}`);
  await page.goto(url(`/verify-email?mode=verifyEmail&oobCode=${code}`));
  await page.getByRole('heading', { name: 'Your email address is confirmed' }).waitFor();
}

describe('QuPM on Firebase, in two browsers', () => {
  const stamp = Date.now();
  const danaEmail = `dana-${stamp}@example.com`;
  const caseyEmail = `casey-${stamp}@example.com`;
  const channelTitle = `Launch plan ${stamp}`;
  let admin: Account;
  let dana: Page;
  let casey: Page;
  let invitationLink: string;
  let channelUrl: string;

  it('a person signs up, confirms their address with the mailed link, and an admin makes them a consultant', async () => {
    dana = await open(LAPTOP);
    await dana.goto(url('/'));
    await dana.getByRole('heading', { name: /advice, in one place/i }).waitFor();
    await shot(dana, 'laptop-01-signed-out');
    await dana.getByRole('tab', { name: 'Create account' }).click();
    await createAccount(dana, 'Dana Consultant', danaEmail);
    // As on the embedded server: no session from the form, whether or not the address has an account.
    await dana.getByText('Check your inbox').waitFor();
    await shot(dana, 'laptop-02-signed-up');
    await confirmEmail(dana, danaEmail);
    await shot(dana, 'laptop-03-email-confirmed');
    await dana.goto(url('/'));
    await submitSignIn(dana, danaEmail, 'a-long-password');
    await dana.getByRole('heading', { name: 'Channels' }).waitFor();
    await dana.getByRole('heading', { level: 1, name: 'Hello, Dana Consultant' }).waitFor();

    // The admin claim is given outside the app (npm --prefix functions run set-admin); the rest is the app's.
    admin = await makeAdmin(await signUp('admin', 'Ada Admin'));
    const adminPage = await open(LAPTOP);
    await adminPage.goto(url('/'));
    await submitSignIn(adminPage, admin.email, admin.password);
    await adminPage.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
    await adminPage.goto(url('/settings/admin'));
    const row = adminPage.locator('tr', { hasText: danaEmail });
    await row.getByRole('button', { name: /^Make consultant: / }).click();
    await row.getByRole('button', { name: /^Unmake consultant: / }).waitFor();
    await shot(adminPage, 'laptop-04-admin');
    await adminPage.context().close();
  });

  it('the consultant creates a channel and an invitation for someone’s address, and gets its link', async () => {
    // The new role reaches the open window by itself.
    await dana.goto(url('/'));
    await dana.getByRole('button', { name: 'New channel' }).click();
    await dana.getByLabel('Title').fill(channelTitle);
    await dana.getByLabel('Handle').fill(`launch-${stamp}`);
    await dana.getByLabel('Description').fill('Everything for the spring launch, step by step.');
    await dana.getByRole('button', { name: 'Create channel' }).click();
    await dana.locator('.channel-link', { hasText: channelTitle }).click();
    await composer(dana).waitFor();
    await openChannelMenu(dana);
    await dana.getByRole('button', { name: 'Manage' }).click();
    channelUrl = dana.url();
    await dana.getByRole('tab', { name: 'Invite' }).click();
    await dana.getByLabel('Their email (optional)').fill(caseyEmail);
    await dana.getByLabel('Passes').fill('2');
    await dana.getByLabel('Credits').fill('3');
    await dana.getByLabel('Valid for (days)').fill('7');
    await dana.getByRole('button', { name: 'Create invitation' }).click();
    const link = dana.locator('.manage__created input');
    await link.waitFor();
    invitationLink = await link.inputValue();
    expect(invitationLink).toMatch(new RegExp(`^${url('/invite/')}[A-Za-z0-9]{20}$`));
    await shot(dana, 'laptop-05-invitation');
    await expectAccessible(dana, 'manage → invite (Firebase)');
  });

  it('the invitee signs up on the link, confirms their address, accepts and activates', async () => {
    casey = await open(PHONE);
    await casey.goto(invitationLink);
    await casey.getByRole('heading', { level: 1, name: /invites you to/ }).waitFor();
    await shot(casey, 'phone-01-invitation-signed-out');
    expect(await casey.getByRole('tab', { name: 'Create account' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await createAccount(casey, 'Casey Client', caseyEmail);
    await casey.getByText('Check your inbox').waitFor();
    await shot(casey, 'phone-02-invitation-check-inbox');

    await confirmEmail(casey, caseyEmail);
    // Back on the invitation, signing in keeps the person there.
    await casey.goto(invitationLink);
    await casey.getByRole('tab', { name: 'Sign in' }).click();
    await submitSignIn(casey, caseyEmail, 'a-long-password');
    await casey.getByRole('heading', { name: /invites you to/ }).waitFor();
    expect(new URL(casey.url()).pathname).toMatch(/^\/invite\//);
    await casey.getByRole('button', { name: 'Accept invitation' }).waitFor();
    expect(await casey.locator('.invitation-facts').textContent()).toContain(
      '2 channel passes and 3 credits',
    );
    await casey.getByRole('button', { name: 'Accept invitation' }).click();
    await casey.getByRole('heading', { name: `You joined ${channelTitle}` }).waitFor();
    await shot(casey, 'phone-03-joined');
    await casey.getByRole('link', { name: 'Activation details' }).click();
    await casey.getByRole('button', { name: 'Activate' }).click();
    await casey.getByRole('heading', { name: 'You received 2 channel passes and 3 credits' }).waitFor();
    expect(
      await casey.locator('.home__balances div', { hasText: 'Credits' }).locator('dd').textContent(),
    ).toBe('3');
  });

  it('they write to each other live, without a reload', async () => {
    await casey.goto(channelUrl);
    await composer(casey).waitFor();
    await dana.goto(channelUrl);
    await composer(dana).waitFor();

    await composer(casey).fill('Hello <b>Dana</b>, see https://example.com/plan.');
    await composer(casey).press('Enter');
    const arrived = bubble(dana, 'Hello <b>Dana</b>');
    await arrived.waitFor();
    expect(await arrived.locator('.message__sender').textContent()).toBe('Casey Client');
    expect(await arrived.locator('b').count()).toBe(0);
    expect(await arrived.locator('a').getAttribute('href')).toBe('https://example.com/plan');

    await composer(dana).fill('Welcome, Casey!');
    await composer(dana).press('Enter');
    await bubble(casey, 'Welcome, Casey!').waitFor();
    await shot(casey, 'phone-04-conversation');
    await shot(dana, 'laptop-06-conversation');
    await expectAccessible(casey, 'conversation (phone, Firebase)');
  });

  it('an edit shows "edited" in the other window, and a deletion the tombstone', async () => {
    const own = bubble(casey, 'Hello <b>Dana</b>');
    // On a phone a message's tools open under the bubble a person taps.
    await own.locator('.message__text').click();
    await own.getByRole('button', { name: /^Edit your message from / }).click();
    const field = casey.getByLabel('Edit your message (Enter saves, Escape cancels)');
    await field.fill('Hello Dana, the plan is at https://example.com/plan.');
    await field.press('Enter');
    await bubble(casey, 'the plan is at').getByText('(edited)').waitFor();
    await bubble(dana, 'the plan is at').getByText('(edited)').waitFor();
    expect(await bubble(dana, 'Hello <b>Dana</b>').count()).toBe(0);

    const edited = bubble(casey, 'the plan is at');
    await edited.locator('.message__text').click();
    await edited.getByRole('button', { name: /^Delete your message from / }).click();
    await casey.getByRole('button', { name: 'Delete', exact: true }).click();
    await casey.getByText('Message deleted', { exact: true }).waitFor();
    await dana.locator('.message__text--deleted').waitFor();
    expect(await bubble(dana, 'the plan is at').count()).toBe(0);
    await shot(dana, 'laptop-07-deleted');
    await shot(casey, 'phone-05-deleted');
  });

  it('saw no page error on the way', () => {
    expect(errors.filter((error) => !/status of 4\d\d/.test(error))).toEqual([]);
  });
});
