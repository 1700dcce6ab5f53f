// The product in two browsers at once, against the real server: a consultant invites, a new person
// signs up on the invitation link, accepts and activates it; they exchange messages live; a non-member sees the
// service banner; an offer appears on the person's services screen and drops out when it expires. Every screen
// is checked with axe-core for serious or critical violations.
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/accessibility';
import { watchErrors } from './support/browser';
import type { RunningServer } from './support/server';
import { signIn as signInAt, signUpByMail, submitSignIn, withMailedBrowserSession } from './support/session';
import type { SmtpSink } from '../drivers/smtpSink';
import { openChannelMenu } from './support/mutes';

let server: RunningServer;
let sink: SmtpSink;
const windows = withMailedBrowserSession((started) => ({ server, sink } = started));

const newPage = (viewport = { width: 1200, height: 860 }) => windows.newPage({ viewport });

const signIn = (page: Page, email: string, path = '/') => signInAt(page, server.url + path, email);

const composer = (page: Page) => page.getByLabel('Message', { exact: true });

describe('consultant and client in two browsers', () => {
  let consultant: Page;
  let client: Page;
  let channelUrl: string;
  let invitationLink: string;
  const clientEmail = `client-${Date.now()}@example.com`;
  const consultantErrors: string[] = [];

  it('the consultant creates an invitation with passes and credits and gets its link', async () => {
    consultant = await newPage();
    consultantErrors.push(...watchErrors(consultant));
    await signIn(consultant, 'consultant@qupm.demo');
    await consultant.getByRole('heading', { name: 'Channels' }).waitFor();
    await expectAccessible(consultant, 'home (consultant)');
    await consultant.locator('.channel-link').first().click();
    await openChannelMenu(consultant);
    await consultant.getByRole('button', { name: 'Manage' }).click();
    channelUrl = consultant.url();
    await consultant.getByRole('tab', { name: 'Invite' }).click();
    await consultant.getByLabel('Passes').fill('2');
    await consultant.getByLabel('Credits').fill('3');
    await consultant.getByLabel('Valid for (days)').fill('7');
    await consultant.getByRole('button', { name: 'Create invitation' }).click();
    const link = consultant.locator('.manage__created input');
    await link.waitFor();
    invitationLink = await link.inputValue();
    expect(invitationLink).toMatch(new RegExp(`^${server.url}/invite/[A-Za-z0-9]{20}$`));
    await expectAccessible(consultant, 'manage → invite');
  });

  it('a new person signs up on the link, stays on the invitation, accepts and activates it', async () => {
    client = await newPage({ width: 390, height: 844 });
    const errors = watchErrors(client);
    await client.goto(invitationLink);
    await client.getByRole('heading', { level: 1, name: /invites you to/ }).waitFor();
    await expectAccessible(client, 'invite (signed out)');
    // The preview opens on Create account.
    expect(await client.getByRole('tab', { name: 'Create account' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await signUpByMail(client, server, {
      name: 'Casey Client',
      email: clientEmail,
      password: 'a-long-password',
    });
    // Back on the invitation, signing in keeps the person there.
    await client.goto(invitationLink);
    await client.getByRole('tab', { name: 'Sign in' }).click();
    await submitSignIn(client, clientEmail, 'a-long-password');
    await client.getByRole('heading', { name: /invites you to/ }).waitFor();
    await client.getByRole('button', { name: 'Accept invitation' }).waitFor();
    expect(new URL(client.url()).pathname).toMatch(/^\/invite\//);
    expect(await client.locator('.invitation-facts').textContent()).toContain(
      '2 channel passes and 3 credits',
    );
    await expectAccessible(client, 'invite (signed in)');
    await client.getByRole('button', { name: 'Accept invitation' }).click();
    await client.getByRole('heading', { name: /^You joined / }).waitFor();
    await client.getByRole('link', { name: 'Activation details' }).click();
    await client.getByRole('heading', { name: /^Activate your invitation/ }).waitFor();
    await expectAccessible(client, 'activate');
    await client.getByRole('button', { name: 'Activate' }).click();
    await client.getByRole('heading', { name: 'You received 2 channel passes and 3 credits' }).waitFor();
    expect(
      await client.locator('.home__balances div', { hasText: 'Credits' }).locator('dd').textContent(),
    ).toBe('3');
    // Single use: a second activation is refused with a clear screen.
    await client.goto(invitationLink.replace('/invite/', '/activate/'));
    await client.getByRole('heading', { name: 'This invitation is already activated' }).waitFor();
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });

  it('they exchange messages live, without a reload, on a phone and a desktop', async () => {
    await client.goto(channelUrl);
    await composer(client).waitFor();
    await consultant.goto(channelUrl);
    await composer(consultant).waitFor();
    await expectAccessible(client, 'conversation (phone)');

    await composer(client).fill('Hello <b>Dana</b>, see https://example.com/plan.');
    await composer(client).press('Enter');
    const arrived = consultant.locator('.message', { hasText: 'Hello <b>Dana</b>' });
    await arrived.waitFor();
    expect(await arrived.locator('.message__sender').textContent()).toBe('Casey Client');
    expect(await arrived.locator('b').count()).toBe(0);
    expect(await arrived.locator('a').getAttribute('href')).toBe('https://example.com/plan');

    await composer(consultant).fill('Welcome, Casey!');
    await composer(consultant).press('Enter');
    await client.locator('.message', { hasText: 'Welcome, Casey!' }).waitFor();
    // The stream can reach the other window before the sender's own answer: the composer empties on that answer.
    await consultant.waitForFunction(
      () => (document.querySelector('.composer textarea') as HTMLTextAreaElement | null)?.value === '',
    );
  });

  it('refuses an over-long message with a clear message and keeps the text', async () => {
    const long = 'x'.repeat(4_001);
    await composer(client).fill(long);
    await client.getByRole('button', { name: 'Send', exact: true }).click();
    expect(await client.getByRole('alert').textContent()).toBe(
      'A message can be at most 4,000 characters; this one has 4,001.',
    );
    expect((await composer(client).inputValue()).length).toBe(4_001);
    await composer(client).fill('');
  });

  it('a non-member who opens the channel sees the service banner and cannot write', async () => {
    const outsider = await newPage();
    await signIn(outsider, 'visitor@qupm.demo');
    await outsider.getByRole('heading', { name: 'Channels' }).waitFor();
    await outsider.goto(channelUrl);
    await outsider.getByText('You are not a member of this channel.').waitFor();
    expect(await outsider.getByText(/not a member of this channel/).count()).toBe(1);
    expect(await composer(outsider).isDisabled()).toBe(true);
    await expectAccessible(outsider, 'conversation (non-member)');
  });

  it('an offer sent to the client appears on their services screen, counts down, and drops out when it expires', async () => {
    await consultant.goto(channelUrl);
    await openChannelMenu(consultant);
    await consultant.getByRole('button', { name: 'Manage' }).click();
    await consultant.getByRole('tab', { name: 'Members' }).click();
    const row = consultant.locator('.members__item', { hasText: 'Casey Client' });
    await row.getByRole('button', { name: 'Send offer' }).click();
    await row.getByLabel('Discount (%)').fill('150');
    await row.getByRole('button', { name: 'Send offer' }).click();
    expect(await row.getByRole('alert').textContent()).toBe('A discount is a whole percent from 1 to 100.');
    await row.getByLabel('Discount (%)').fill('25');
    await row.getByLabel('Valid for (days)').fill('1');
    await row.getByRole('button', { name: 'Send offer' }).click();
    await row.getByText(/^Sent Casey Client 25 % off/).waitFor();
    await expectAccessible(consultant, 'manage → members');

    await client.clock.install();
    await client.goto(server.url + '/services');
    const offer = client.locator('.offer', { hasText: '25 %' });
    await offer.waitFor();
    expect(await offer.locator('.offer__countdown').textContent()).toMatch(/^23 h 5\d min$|^1 d 0 h$|^24 h/);
    await expectAccessible(client, 'services');
    await client.clock.fastForward('24:00:05');
    await offer.waitFor({ state: 'detached' });
    await client.getByRole('heading', { name: 'No offers right now' }).waitFor();
    expect(consultantErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });
});

describe('an invitation addressed to someone, live (issue #12)', () => {
  it('appears on their home screen in every window without a reload, and leaves the other one when accepted', async () => {
    const email = `invitee-${Date.now()}@example.com`;
    // A new account in two windows of one browser, which share its session.
    const context = await windows.newContext({ viewport: { width: 1200, height: 860 } });
    const first = await context.newPage();
    const errors = watchErrors(first);
    await first.goto(server.url + '/');
    await first.getByRole('tab', { name: 'Create account' }).click();
    await first.getByLabel('Your name').fill('Ines Invitee');
    await first.getByLabel('Email').fill(email);
    await first.getByLabel('Password').fill('a-long-password');
    await first.getByRole('button', { name: 'Create account' }).click();
    await first.getByText('Check your inbox').waitFor();
    // The link mailed to the address makes the account, its address confirmed: invitations bound to it are hers.
    const mail = await sink.next((m) => m.envelopeTo.includes(email));
    expect(mail.subject).toBe('Finish creating your QuPM account');
    // Opened at this server's own origin, whose storage the second window shares.
    const created = sink.link(mail, '/verify-email');
    await first.goto(server.url + created.pathname + created.search);
    await first.getByRole('heading', { name: 'Your email address is confirmed' }).waitFor();
    await first.getByRole('link', { name: 'Sign in to QuPM' }).click();
    await submitSignIn(first, email, 'a-long-password');
    await first.getByRole('heading', { name: 'Channels' }).waitFor();
    const second = await context.newPage();
    errors.push(...watchErrors(second));
    await second.goto(server.url + '/');
    await second.getByRole('heading', { name: 'Channels' }).waitFor();
    expect(await first.locator('.invitations-for-you__card').count()).toBe(0);

    const consultant = await newPage();
    await signIn(consultant, 'consultant@qupm.demo');
    await consultant.locator('.channel-link', { hasText: 'Growth Clinic' }).click();
    await openChannelMenu(consultant);
    await consultant.getByRole('button', { name: 'Manage' }).click();
    await consultant.getByRole('tab', { name: 'Invite' }).click();
    await consultant.getByLabel('Their email (optional)').fill(email);
    await consultant.getByLabel('Passes').fill('1');
    await consultant.getByLabel('Credits').fill('2');
    await consultant.getByLabel('Valid for (days)').fill('7');
    await consultant.getByRole('button', { name: 'Create invitation' }).click();
    await consultant.locator('.manage__created input').waitFor();

    for (const page of [first, second]) {
      const card = page.getByRole('region', { name: 'An invitation for you' });
      await card.waitFor();
      expect(await card.textContent()).toContain('Dana invites you to Growth Clinic');
    }
    await expectAccessible(first, 'home with an invitation');

    await first.getByRole('link', { name: /^View invitation/ }).click();
    await first.getByRole('button', { name: 'Accept invitation' }).click();
    await first.getByRole('heading', { name: /^You joined Growth Clinic/ }).waitFor();
    await second.locator('.invitations-for-you__card').waitFor({ state: 'detached' });
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });
});

describe('every other screen is accessible', () => {
  it.each([
    ['consultant@qupm.demo', '/services'],
    ['member@qupm.demo', '/settings'],
    ['member@qupm.demo', '/settings/notifications'],
    ['member@qupm.demo', '/settings/devices'],
    ['admin@qupm.demo', '/settings/admin'],
    ['admin@qupm.demo', '/settings/about'],
  ])('%s on %s', async (email, path) => {
    const page = await newPage();
    await signIn(page, email, path);
    await page.locator('main h1').first().waitFor();
    await page.waitForLoadState('networkidle');
    await expectAccessible(page, path);
  });

  it('the signed-out home and an invalid invitation link', async () => {
    const page = await newPage({ width: 320, height: 640 });
    await page.goto(server.url + '/');
    await page.getByRole('heading', { name: /advice, in one place/i }).waitFor();
    await expectAccessible(page, '/ (signed out, 320 px)');
    await page.goto(server.url + '/invite/not-an-id');
    await page.getByRole('heading', { name: 'This invitation link is not valid' }).waitFor();
    await expectAccessible(page, '/invite (invalid)');
  });
});

describe('admin', () => {
  it('an admin makes a member a consultant; a member cannot reach the admin section', async () => {
    const admin = await newPage();
    await signIn(admin, 'admin@qupm.demo');
    await admin.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
    await admin.goto(server.url + '/settings/admin');
    const row = admin.locator('tr', { hasText: 'visitor@qupm.demo' });
    await row.getByRole('button', { name: /^Make consultant: / }).click();
    await row.getByRole('button', { name: /^Unmake consultant: / }).waitFor();
    await row.getByRole('button', { name: /^Unmake consultant: / }).click();
    await row.getByRole('button', { name: /^Make consultant: / }).waitFor();

    const member = await newPage();
    await signIn(member, 'member@qupm.demo');
    await member.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
    await member.goto(server.url + '/settings');
    expect(await member.getByRole('link', { name: /^Admin/ }).count()).toBe(0);
    await member.goto(server.url + '/settings/admin');
    await member.getByRole('heading', { name: 'This section is for admins' }).waitFor();
  });
});
