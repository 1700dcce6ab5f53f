// Invitations, finished, in Chromium against the real server: a signed-out visitor of the link
// sees who invites to which channel and what it grants, creates an account right there (the default; signing in
// is one click away), finds the invitation on the home screen, accepts it, activates it in one click and lands in
// the channel. A used invitation says it was used, to anyone else and signed out; an expired one says so.
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/accessibility';
import { watchErrors } from './support/browser';
import { legacyAccount, readDatabase } from './support/server';
import type { RunningServer } from './support/server';
import { signIn as openSignedIn, submitSignIn, withMailedBrowserSession } from './support/session';
import type { SmtpSink } from '../drivers/smtpSink';
import { openChannelMenu } from './support/mutes';

let server: RunningServer;
let sink: SmtpSink;
const windows = withMailedBrowserSession((started) => ({ server, sink } = started));

const newPage = (viewport = { width: 390, height: 844 }) => windows.newPage({ viewport });

/** Opens `at` signed in as `email` (a session made through the API: signing in is not what these test). */
const signIn = (page: Page, email: string, at = '/'): Promise<void> =>
  openSignedIn(page, server.url + at, email);

function expiredInvitationId(): string {
  return readDatabase(
    server,
    (db) =>
      (
        db
          .prepare("SELECT id FROM invitations WHERE status = 'pending' AND expires_at <= ?")
          .get(Date.now()) as { id: string }
      ).id,
  );
}

describe('an invitation from the link to the channel', () => {
  const newcomer = `newcomer-${Date.now()}@example.com`;
  let link: string;

  it('the consultant invites a new person by email', async () => {
    const consultant = await newPage({ width: 1280, height: 860 });
    await signIn(consultant, 'consultant@qupm.demo');
    await consultant.locator('.channel-link', { hasText: 'Growth Clinic' }).click();
    await openChannelMenu(consultant);
    await consultant.getByRole('button', { name: 'Manage' }).click();
    await consultant.getByRole('tab', { name: 'Invite' }).click();
    await consultant.getByLabel('Their email (optional)').fill(newcomer);
    await consultant.getByLabel('Passes').fill('2');
    await consultant.getByLabel('Credits').fill('3');
    await consultant.getByLabel('Valid for (days)').fill('7');
    await consultant.getByRole('button', { name: 'Create invitation' }).click();
    link = await consultant.locator('.manage__created input').inputValue();
    expect(link).toMatch(/\/invite\/[A-Za-z0-9]{20}$/);
  });

  it('signed out, the link says who invites to what and opens on Create account', async () => {
    const page = await newPage();
    const errors = watchErrors(page);
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Dana invites you to Growth Clinic' }).waitFor();
    expect(await page.locator('.invitation-facts').textContent()).toContain('2 channel passes and 3 credits');
    expect(await page.getByRole('tab', { name: 'Create account' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await expectAccessible(page, 'invite preview');

    // Creating the account keeps the person on the invitation: the link mailed to the address makes the
    // account, its address confirmed, and signing in back on the invitation leaves only accepting it.
    await page.getByLabel('Your name').fill('Nia Newcomer');
    await page.getByLabel('Email').fill(newcomer);
    await page.getByLabel('Password').fill('a-long-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Check your inbox').waitFor();
    expect(new URL(page.url()).pathname).toBe(new URL(link).pathname);
    await expectAccessible(page, 'invitation: check your inbox');
    const mail = await sink.next((m) => m.envelopeTo.includes(newcomer));
    const createLink = sink.link(mail, '/verify-email');
    await page.goto(server.url + createLink.pathname + createLink.search);
    await page.getByRole('heading', { name: 'Your email address is confirmed' }).waitFor();
    await page.goto(link);
    await page.getByRole('tab', { name: 'Sign in' }).click();
    await submitSignIn(page, newcomer, 'a-long-password');
    await page.getByRole('button', { name: 'Accept invitation' }).waitFor();

    // The home screen lists it too, and leads back to it.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await page.getByRole('link', { name: 'View invitation to Growth Clinic' }).click();

    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByRole('heading', { level: 1, name: 'You joined Growth Clinic' }).waitFor();
    await expectAccessible(page, 'invite accepted');
    // One click from activation, and the person lands in the channel.
    await page.getByRole('button', { name: 'Activate and open the channel' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.has('channel'));
    await page.getByRole('heading', { level: 1, name: 'Growth Clinic' }).waitFor();
    expect(
      await page.locator('.home__balances div', { hasText: 'Credits' }).locator('dd').textContent(),
    ).toBe('3');
    await page.getByLabel('Message', { exact: true }).waitFor();
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });

  it('once used, the link says it was used: to someone else signed in, and to anyone signed out', async () => {
    // Signing in on the invitation's own route, with the form's "Sign in" tab: the person stays on it.
    const other = await newPage();
    await other.goto(link);
    await other.getByRole('tab', { name: 'Sign in' }).click();
    await submitSignIn(other, 'visitor@qupm.demo');
    await other.getByRole('heading', { level: 1, name: 'This invitation has already been used' }).waitFor();
    expect(await other.locator('main').innerText()).not.toMatch(/another account/);

    const anyone = await newPage();
    await anyone.goto(link);
    await anyone.getByRole('heading', { level: 1, name: 'This invitation has already been used' }).waitFor();
    await expectAccessible(anyone, 'used invitation (signed out)');
  });

  it('asks an account whose address is not confirmed to confirm it first', async () => {
    // Only accounts from before sign-up confirmed addresses can be so now (migration 009's legacy ones).
    const legacy = `legacy-${Date.now()}@example.com`;
    await legacyAccount(server, { email: legacy, password: 'a-long-password' });
    const consultant = await newPage({ width: 1280, height: 860 });
    await signIn(consultant, 'consultant@qupm.demo');
    await consultant.locator('.channel-link', { hasText: 'Growth Clinic' }).click();
    await openChannelMenu(consultant);
    await consultant.getByRole('button', { name: 'Manage' }).click();
    await consultant.getByRole('tab', { name: 'Invite' }).click();
    await consultant.getByLabel('Their email (optional)').fill(legacy);
    await consultant.getByRole('button', { name: 'Create invitation' }).click();
    const invitation = await consultant.locator('.manage__created input').inputValue();

    const page = await newPage();
    await page.goto(invitation);
    await page.getByRole('tab', { name: 'Sign in' }).click();
    await submitSignIn(page, legacy, 'a-long-password');
    await page.getByRole('heading', { level: 1, name: 'Confirm your email address first' }).waitFor();
    await expectAccessible(page, 'invitation waiting for a confirmed address');
  });

  it('an expired invitation says it has expired, signed out', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/invite/${expiredInvitationId()}`);
    await page.getByRole('heading', { level: 1, name: 'This invitation has expired' }).waitFor();
  });
});
