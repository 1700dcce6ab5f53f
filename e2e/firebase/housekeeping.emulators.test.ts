// A consultant's housekeeping on the Firebase build (e2e/housekeeping.e2e.test.ts is the embedded server's), in two
// windows against the emulators: Nadia, a consultant, owns "Alpha" (with Morgan, a client, and Omar, another
// consultant) and "Beta" (with Morgan and a waiting invitation); Omar has offered Morgan a discount (its card is in
// their private consultation, which he owns). The people and what they own are made through the callables as the
// app would make them; the rest is the app's. Archiving Alpha makes it read-only in Morgan's window, live, and
// restoring opens it again; removing Morgan takes Alpha out of their window, live, with one notice saying why;
// revoking Beta's invitation makes its link say it was withdrawn; handing Alpha to Omar makes it his; Settings →
// Your data names Beta, and deleting it (its notice said first, its name typed) takes it out of both windows and
// its attachment out of Cloud Storage (the stand-in, drivers/cloudStorageStandIn.ts), not Alpha's; then
// Nadia owns nothing and deletes her account, and Omar, in the window she left, withdraws his offer: Morgan's card
// says so, live.
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { newDocumentId } from '../../core/ids';
import { openChannelMenu } from '../support/mutes';
import { submitSignIn } from '../support/session';
import {
  confirmAddress,
  makeAdmin,
  objectNames,
  putObject,
  readDocument,
  result,
  signIn,
  signUp,
} from './support/emulators';
import type { Account } from './support/emulators';
import { firebaseWindows, LAPTOP, PHONE, STEP_TIMEOUT_MS, url } from './support/windows';

const SHOTS = process.env.QUPM_SHOTS_DIR;
jest.setTimeout(4 * STEP_TIMEOUT_MS);
const DAY_MS = 24 * 60 * 60 * 1000;

const { open, errors } = firebaseWindows();

/** The screen at a laptop and at a phone, kept when QUPM_SHOTS_DIR names a folder (a person reviews them). */
async function shotSizes(page: Page, name: string, shown?: Locator): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/laptop-${name}.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  // The panel scrolls inside the page: what the shot is of, brought into the phone's view.
  await shown?.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/phone-${name}.png`, fullPage: true });
  await page.setViewportSize(LAPTOP);
}

async function openSignedIn(account: Account): Promise<Page> {
  const page = await open(LAPTOP);
  await page.goto(url('/'));
  await submitSignIn(page, account.email, account.password);
  await page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
  return page;
}

const channelLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: new RegExp(`^${name}`) });

async function openChannel(page: Page, name: string, heading = name): Promise<void> {
  await channelLink(page, name).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

async function openManage(page: Page, tab: string): Promise<void> {
  await openChannelMenu(page);
  await page.getByRole('button', { name: 'Manage' }).click();
  await page.getByRole('tab', { name: tab }).click();
}

const closeManage = (page: Page) => page.getByRole('button', { name: 'Close', exact: true }).click();

/** Delete, in the open channel's Manage → Channel: its notice said first, then its name typed in full. */
async function deleteOpenChannel(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Delete channel…' }).click();
  const field = page.getByLabel(/^Type the channel’s name/);
  const title = /“(.*)”/.exec(
    (await page.locator('label', { hasText: 'Type the channel’s name' }).textContent()) ?? '',
  )?.[1];
  const forGood = page.getByRole('button', { name: 'Delete for good' });
  await field.fill((title ?? '').slice(0, -1));
  expect(await forGood.isDisabled()).toBe(true);
  await field.fill(title ?? '');
  await shotSizes(page, 'delete-channel', forGood);
  await forGood.click();
}

describe('a consultant’s housekeeping on Firebase, in two windows', () => {
  let nadia: Account;
  let omar: Account;
  let morgan: Account;
  let alpha: { id: string };
  let beta: { id: string };
  let waiting: { id: string };
  let nadiaPage: Page;
  let morganPage: Page;

  beforeAll(async () => {
    const [admin, n, o, m] = await Promise.all([
      signUp('admin', 'Ada Admin').then(makeAdmin),
      signUp('nadia', 'Nadia Keller'),
      signUp('omar', 'Omar Haddad'),
      signUp('morgan', 'Morgan'),
    ]);
    for (const consultant of [n, o]) {
      await result('admin_set_consultant', { uid: consultant.uid, isOwner: true }, admin.idToken);
    }
    // Confirmed addresses (invitations need them), in tokens that carry the consultants' role.
    [nadia, omar, morgan] = await Promise.all([confirmAddress(n), confirmAddress(o), confirmAddress(m)]);
    const channel = (title: string) =>
      result<{ id: string }>(
        'create_channel',
        { channelId: `${title.toLowerCase()}-${Date.now()}`, title, description: '' },
        nadia.idToken,
      );
    alpha = await channel('Alpha');
    beta = await channel('Beta');
    const invite = async (channelId: string, guest?: Account) => {
      const invitation = await result<{ id: string }>(
        'create_invitation',
        { channelId, passes: 0, credits: 0, expiresAt: Date.now() + DAY_MS },
        nadia.idToken,
      );
      if (guest) await result('accept_invitation', { invitationId: invitation.id }, guest.idToken);
      return invitation;
    };
    await invite(alpha.id, morgan);
    await invite(alpha.id, omar);
    await invite(beta.id, morgan);
    waiting = await invite(beta.id);
    // Omar's own channel with Morgan, and his offer to them (its card goes to their private consultation, which
    // he owns from then on: he is not the one who leaves).
    const gamma = await result<{ id: string }>(
      'create_channel',
      { channelId: `gamma-${Date.now()}`, title: 'Gamma', description: '' },
      omar.idToken,
    );
    const joinGamma = await result<{ id: string }>(
      'create_invitation',
      { channelId: gamma.id, passes: 0, credits: 0, expiresAt: Date.now() + DAY_MS },
      omar.idToken,
    );
    await result('accept_invitation', { invitationId: joinGamma.id }, morgan.idToken);
    const service = await result<{ id: string }>(
      'create_service',
      {
        title: 'Pricing deep dive',
        description: 'Ninety minutes on your prices.',
        durationMinutes: 90,
        priceCredits: 3,
        operationId: newDocumentId(),
      },
      omar.idToken,
    );
    await result(
      'issue_offer',
      {
        channelId: gamma.id,
        userId: morgan.uid,
        serviceId: service.id,
        discountPercent: 40,
        expiresAt: Date.now() + 7 * DAY_MS,
      },
      omar.idToken,
    );
    // The callable behind "Manage" (the owner's permissions) started once here: run first in CI, beside the other
    // stages, its Functions worker's cold start took the page's whole wait (fresh-clone runs 11 and 12).
    await result('check_channel_permissions', { channel_id: alpha.id }, nadia.idToken);
    [nadiaPage, morganPage] = await Promise.all([openSignedIn(nadia), openSignedIn(morgan)]);
  });

  it('archives a channel: read-only in the member’s window at once, and open again once restored', async () => {
    await openChannel(morganPage, 'Alpha');
    const box = morganPage.getByRole('textbox', { name: 'Message' });
    expect(await box.isEnabled()).toBe(true);

    await openChannel(nadiaPage, 'Alpha');
    await openManage(nadiaPage, 'Channel');
    // The backend's words, the embedded server's too (core/housekeeping.ts removalNotice), before anything is done.
    await nadiaPage.getByText(/^Archiving “Alpha” keeps its/).waitFor();
    await nadiaPage.getByText(/^Deleting “Alpha” removes its/).waitFor();
    await shotSizes(nadiaPage, 'manage-channel');
    await nadiaPage.getByRole('button', { name: 'Archive channel' }).click();
    await nadiaPage.getByRole('button', { name: 'Restore channel' }).waitFor();

    await morganPage.getByText('This channel is archived: its messages can be read').waitFor();
    await morganPage.getByPlaceholder('This channel is archived').waitFor();
    expect(await box.isDisabled()).toBe(true);
    await shotSizes(nadiaPage, 'manage-channel-archived');

    await nadiaPage.getByRole('button', { name: 'Restore channel' }).click();
    await nadiaPage.getByRole('button', { name: 'Archive channel' }).waitFor();
    await morganPage.getByPlaceholder('Write a message').waitFor();
    expect(await box.isEnabled()).toBe(true);
  });

  it('removes a member: the channel leaves their window live, and they are told why once', async () => {
    await nadiaPage.getByRole('tab', { name: 'Members' }).click();
    await nadiaPage.getByRole('button', { name: 'Remove Morgan' }).click();
    const confirm = nadiaPage.getByRole('group', { name: 'Remove Morgan' });
    await confirm.getByText('what they wrote stays').waitFor();
    await confirm.getByRole('button', { name: 'Remove Morgan' }).click();
    await confirm.waitFor({ state: 'detached' });

    await channelLink(morganPage, 'Alpha').waitFor({ state: 'detached' });
    const notice = morganPage.getByText('You are no longer in “Alpha”');
    await notice.waitFor();
    expect(await notice.count()).toBe(1);
    await morganPage.getByText('This channel is no longer yours to read').waitFor();
  });

  it('revokes an invitation: its link then says it was withdrawn', async () => {
    await closeManage(nadiaPage);
    await openChannel(nadiaPage, 'Beta');
    await openManage(nadiaPage, 'Invite');
    await nadiaPage.getByRole('button', { name: /^Revoke/ }).click();
    await nadiaPage.locator('.status--revoked').filter({ hasText: 'withdrawn' }).waitFor();

    const visitor = await open(PHONE);
    await visitor.goto(url(`/invite/${waiting.id}`));
    await visitor.getByRole('heading', { name: 'This invitation was withdrawn' }).waitFor();
    await visitor.context().close();
  });

  it('hands a channel over: the other consultant owns it, and it leaves the first one’s list', async () => {
    await closeManage(nadiaPage);
    await openChannel(nadiaPage, 'Alpha');
    await openManage(nadiaPage, 'Channel');
    await nadiaPage.getByLabel('New owner').selectOption({ label: 'Omar Haddad' });
    await nadiaPage.getByRole('button', { name: 'Hand over…' }).click();
    await nadiaPage.getByRole('button', { name: 'Hand over to Omar Haddad' }).click();
    await channelLink(nadiaPage, 'Alpha').waitFor({ state: 'detached' });

    const stored = await readDocument(`channels/${alpha.id}`);
    expect(stored?.ownerId).toBe(omar.uid);
    expect(stored?.members).not.toContain(nadia.uid);
    expect(stored?.members).not.toContain(omar.uid);
  });

  it('Your data names the channel the consultant still owns; it is deleted after its notice and typed name', async () => {
    await nadiaPage.getByRole('link', { name: 'Settings' }).first().click();
    await nadiaPage.getByRole('link', { name: /Your data/ }).click();
    await nadiaPage.getByText('First hand over or delete the channel you own').waitFor();
    await nadiaPage.locator('.your-data__owned').getByRole('link', { name: 'Beta' }).click();
    await nadiaPage.getByRole('heading', { level: 1, name: 'Beta' }).waitFor();
    // An attachment of Beta's and one of Alpha's in Cloud Storage: deleting Beta deletes its own only.
    const betaFile = `channels/${beta.id}/attachments/${newDocumentId()}`;
    const alphaFile = `channels/${alpha.id}/attachments/${newDocumentId()}`;
    await Promise.all([putObject(betaFile, 'Beta’s notes'), putObject(alphaFile, 'Alpha’s notes')]);
    await openManage(nadiaPage, 'Channel');
    // Its file counted from Cloud Storage, before anything is done.
    await nadiaPage.getByText(/^Deleting “Beta” removes its 0 messages and 1 file for everyone/).waitFor();
    await deleteOpenChannel(nadiaPage);
    await channelLink(nadiaPage, 'Beta').waitFor({ state: 'detached' });
    await nadiaPage.getByText('This channel is no longer yours to read').waitFor();
    await channelLink(morganPage, 'Beta').waitFor({ state: 'detached' });
    await morganPage.getByText('You are no longer in “Beta”').waitFor();
    expect(await objectNames(`channels/${beta.id}/`)).toEqual([]);
    expect(await objectNames(`channels/${alpha.id}/`)).toEqual([alphaFile]);
  });

  it('then the consultant owns nothing and deletes their account', async () => {
    await nadiaPage.getByRole('link', { name: 'Settings' }).first().click();
    await nadiaPage.getByRole('link', { name: /Your data/ }).click();
    await nadiaPage.getByText('You own no channel any more').waitFor();
    await nadiaPage.getByRole('button', { name: 'Delete my account…' }).click();
    await nadiaPage.getByLabel('Your password, to confirm').fill(nadia.password);
    await nadiaPage.getByRole('button', { name: 'Delete my account for good' }).click();
    await nadiaPage.getByRole('heading', { name: 'Your account has been deleted' }).waitFor();

    expect(await readDocument(`users/${nadia.uid}`)).toBeNull();
    await expect(signIn(nadia)).rejects.toThrow(/EMAIL_NOT_FOUND|INVALID_LOGIN_CREDENTIALS/);
  });

  it('another consultant withdraws an offer in that window: the card in the client’s consultation says so, live', async () => {
    await openChannel(morganPage, 'Omar Haddad');
    const card = morganPage.getByRole('group', { name: 'Offer' }).filter({ hasText: '40 % off' });
    await card.getByRole('link', { name: 'Use this offer' }).waitFor();

    // The window Nadia left, signed in again as Omar: the sign-in the test needs for him anyway.
    await nadiaPage.goto(url('/services'));
    await submitSignIn(nadiaPage, omar.email, omar.password);
    await nadiaPage.getByRole('button', { name: 'Withdraw the offer of 40 % for Morgan' }).click();
    await nadiaPage
      .getByRole('group', { name: 'Withdraw the offer of 40 % for Morgan' })
      .getByRole('button', { name: 'Withdraw offer' })
      .click();

    await card.getByText('This offer was withdrawn.').waitFor();
    expect(await card.getByRole('link', { name: 'Use this offer' }).count()).toBe(0);
  });

  it('saw no page error on the way', () => {
    expect(errors.filter((error) => !/status of 4\d\d/.test(error))).toEqual([]);
  });
});
