// A consultant's housekeeping in the real build against the real server, in two windows: a new consultant (Nadia,
// made one by the admin) owns "Alpha" (with the demo member and a second consultant, Omar) and "Beta" (with the
// member and a waiting invitation). Archiving Alpha makes it read-only in the member's window, live, and restoring
// opens it again; removing the member takes Alpha out of their window, live, with a notice saying why; revoking
// Beta's invitation makes its link say it was withdrawn; handing Alpha to Omar makes it his; deleting Beta (its
// notice said first, its name typed) takes it out of both windows; then Nadia owns nothing and deletes her account.
// The new dialogs pass axe.
import type { Page } from 'playwright-core';
import type { SessionResponse } from '../core/answers';
import type { Channel, Invitation } from '../core/model';
import { apiOf, createAccount } from '../drivers/burstClients';
import { expectAccessible } from './support/accessibility';
import type { RunningServer } from './support/server';
import { openChannelMenu } from './support/mutes';
import { signInHome, withBrowserSession } from './support/session';
import type { BrowserWindow } from './support/session';

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));
const api = apiOf(() => server.url);
const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = 'housekeeping-password-1';
const NADIA = 'nadia.housekeeping@example.com';
const OMAR = 'omar.housekeeping@example.com';

const signInApi = (email: string, password = 'qupm-demo') =>
  api<SessionResponse>('POST', '/api/auth/signin', undefined, { email, password });

/** A new account made a consultant by the admin, signed in again so its session says so. */
async function newConsultant(email: string, displayName: string): Promise<SessionResponse> {
  const made = await createAccount(() => server.url, server.dataDir, {
    email,
    password: PASSWORD,
    displayName,
  });
  const admin = await signInApi('admin@qupm.demo');
  await api('POST', `/api/admin/users/${made.user.uid}/role`, admin.accessToken, { isOwner: true });
  return signInApi(email, PASSWORD);
}

async function invite(owner: string, channelId: string, guest?: string): Promise<Invitation> {
  const invitation = await api<Invitation>('POST', '/api/invitations', owner, {
    channelId,
    passes: 0,
    credits: 0,
    expiresAt: Date.now() + DAY,
  });
  if (guest) await api('POST', `/api/invitations/${invitation.id}/accept`, guest);
  return invitation;
}

async function openWindow(email: string, password?: string): Promise<BrowserWindow> {
  const opened = await windows.openWindow({ viewport: { width: 1366, height: 768 } });
  if (password) {
    // Accounts made by the test sign in with their own password, through the form.
    await opened.page.goto(server.url + '/');
    await opened.page.getByLabel('Email').fill(email);
    await opened.page.getByLabel('Password').fill(password);
    await opened.page.getByRole('button', { name: 'Sign in' }).click();
    await opened.page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
  } else {
    await signInHome(opened.page, server.url, email);
  }
  return opened;
}

const channelLink = (page: Page, title: string) =>
  page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: new RegExp(`^${title}`) });

async function openChannel(page: Page, title: string): Promise<void> {
  await channelLink(page, title).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

async function openManage(page: Page, tab: string): Promise<void> {
  await openChannelMenu(page);
  await page.getByRole('button', { name: 'Manage' }).click();
  await page.getByRole('tab', { name: tab }).click();
}

async function closeManage(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Close', exact: true }).click();
}

describe('a consultant’s housekeeping, in two windows', () => {
  let nadia: BrowserWindow;
  let member: BrowserWindow;
  let omar: BrowserWindow;
  let beta: Channel;
  let waiting: Invitation;

  beforeAll(async () => {
    const n = await newConsultant(NADIA, 'Nadia Keller');
    const o = await newConsultant(OMAR, 'Omar Haddad');
    const m = await signInApi('member@qupm.demo');
    const alpha = await api<Channel>('POST', '/api/channels', n.accessToken, {
      channelId: 'alpha-housekeeping',
      title: 'Alpha',
      description: '',
    });
    beta = await api<Channel>('POST', '/api/channels', n.accessToken, {
      channelId: 'beta-housekeeping',
      title: 'Beta',
      description: '',
    });
    await invite(n.accessToken, alpha.id, m.accessToken);
    await invite(n.accessToken, alpha.id, o.accessToken);
    await invite(n.accessToken, beta.id, m.accessToken);
    waiting = await invite(n.accessToken, beta.id);
    nadia = await openWindow(NADIA, PASSWORD);
    member = await openWindow('member@qupm.demo');
  });

  it('archives a channel: read-only in the member’s window at once, and open again once restored', async () => {
    await openChannel(member.page, 'Alpha');
    const box = member.page.getByRole('textbox', { name: 'Message' });
    expect(await box.isEnabled()).toBe(true);

    await openChannel(nadia.page, 'Alpha');
    await openManage(nadia.page, 'Channel');
    // The backend's words are said before anything is done.
    await nadia.page.getByText(/^Archiving “Alpha” keeps its/).waitFor();
    await expectAccessible(nadia.page, 'manage → channel');
    await nadia.page.getByRole('button', { name: 'Archive channel' }).click();
    await nadia.page.getByRole('button', { name: 'Restore channel' }).waitFor();

    await member.page.getByText('This channel is archived: its messages can be read').waitFor();
    await member.page.getByPlaceholder('This channel is archived').waitFor();
    expect(await box.isDisabled()).toBe(true);

    await nadia.page.getByRole('button', { name: 'Restore channel' }).click();
    await nadia.page.getByRole('button', { name: 'Archive channel' }).waitFor();
    await member.page.getByPlaceholder('Write a message').waitFor();
    expect(await box.isEnabled()).toBe(true);
  });

  it('removes a member: the channel leaves their window live, and they are told why once', async () => {
    await nadia.page.getByRole('tab', { name: 'Members' }).click();
    await nadia.page.getByRole('button', { name: 'Remove Morgan' }).click();
    const confirm = nadia.page.getByRole('group', { name: 'Remove Morgan' });
    await confirm.getByText('what they wrote stays').waitFor();
    await expectAccessible(nadia.page, 'remove a member');
    await confirm.getByRole('button', { name: 'Remove Morgan' }).click();
    await confirm.waitFor({ state: 'detached' });

    await channelLink(member.page, 'Alpha').waitFor({ state: 'detached' });
    const notice = member.page.getByText('You are no longer in “Alpha”');
    await notice.waitFor();
    expect(await notice.count()).toBe(1);
    await member.page.getByText('This channel is no longer yours to read').waitFor();
  });

  it('revokes an invitation: its link then says it was withdrawn', async () => {
    await closeManage(nadia.page);
    await openChannel(nadia.page, 'Beta');
    await openManage(nadia.page, 'Invite');
    await nadia.page.getByRole('button', { name: /^Revoke/ }).click();
    await nadia.page.locator('.status--revoked').filter({ hasText: 'withdrawn' }).waitFor();

    const visitor = await windows.openWindow({ viewport: { width: 390, height: 844 } });
    await visitor.page.goto(`${server.url}/invite/${waiting.id}`);
    await visitor.page.getByRole('heading', { name: 'This invitation was withdrawn' }).waitFor();
  });

  it('hands a channel over: the other consultant owns it, and it leaves the first one’s list', async () => {
    omar = await openWindow(OMAR, PASSWORD);
    await closeManage(nadia.page);
    await openChannel(nadia.page, 'Alpha');
    await openManage(nadia.page, 'Channel');
    await nadia.page.getByLabel('New owner').selectOption({ label: 'Omar Haddad' });
    await nadia.page.getByRole('button', { name: 'Hand over…' }).click();
    await expectAccessible(nadia.page, 'hand over');
    await nadia.page.getByRole('button', { name: 'Hand over to Omar Haddad' }).click();
    await channelLink(nadia.page, 'Alpha').waitFor({ state: 'detached' });

    await openChannel(omar.page, 'Alpha');
    await openChannelMenu(omar.page);
    await omar.page.getByRole('button', { name: 'Manage' }).waitFor();
  });

  it('deletes a channel after its notice and its typed name: gone in both windows', async () => {
    await openChannel(nadia.page, 'Beta');
    await openManage(nadia.page, 'Channel');
    await nadia.page.getByText(/^Deleting “Beta” removes its/).waitFor();
    await nadia.page.getByRole('button', { name: 'Delete channel…' }).click();
    const forGood = nadia.page.getByRole('button', { name: 'Delete for good' });
    await nadia.page.getByLabel(/Type the channel’s name/).fill('Bet');
    expect(await forGood.isDisabled()).toBe(true);
    await expectAccessible(nadia.page, 'delete a channel');
    await nadia.page.getByLabel(/Type the channel’s name/).fill('Beta');
    await forGood.click();

    await channelLink(nadia.page, 'Beta').waitFor({ state: 'detached' });
    await nadia.page.getByText('This channel is no longer yours to read').waitFor();
    await channelLink(member.page, 'Beta').waitFor({ state: 'detached' });
    await member.page.getByText('You are no longer in “Beta”').waitFor();
    expect(beta.id).toBeTruthy();
  });

  it('then the consultant owns nothing and deletes their account', async () => {
    const { page } = nadia;
    await page.getByRole('link', { name: 'Settings' }).first().click();
    await page.getByRole('link', { name: /Your data/ }).click();
    await page.getByText('You own no channel any more').waitFor();
    await page.getByRole('button', { name: 'Delete my account…' }).click();
    await page.getByLabel('Your password, to confirm').fill(PASSWORD);
    expect([...nadia.errors, ...member.errors, ...omar.errors]).toEqual([]);
    await page.getByRole('button', { name: 'Delete my account for good' }).click();
    await page.getByRole('heading', { name: 'Your account has been deleted' }).waitFor();
    // Once the account is gone, a request its window still had on the way is refused as unauthorized.
    expect(nadia.errors.filter((e) => !/401|Unauthorized/.test(e))).toEqual([]);
  });
});
