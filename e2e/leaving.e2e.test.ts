// Leaving in the real build against the real server: Settings → Your data downloads a JSON file
// of the account (dated name, the account's data, no secret); a consultant who still owns channels is told to
// hand them over first; a wrong password is refused; the right one deletes the account, this window lands on a
// plain sentence and is signed out, and a second window of the same account (another session) is signed out too,
// while the consultant sees the person's messages as from "A former member". The section passes axe.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { AccountExport } from '../core/leaving';
import type { AuthUser, ChatMessage } from '../core/model';
import { apiOf } from '../drivers/burstClients';
import { expectAccessible } from './support/accessibility';
import type { RunningServer } from './support/server';
import { signIn, withBrowserSession } from './support/session';

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));

async function openWindow(email: string): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await windows.openWindow({
    viewport: { width: 1366, height: 768 },
    acceptDownloads: true,
  });
  await signIn(page, server.url, email);
  await page.getByRole('heading', { name: 'Channels' }).waitFor();
  return { page, errors };
}

async function openYourData(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Settings' }).first().click();
  await page.getByRole('link', { name: /Your data/ }).click();
  await page.getByRole('heading', { name: 'Download my data' }).waitFor();
}

const api = apiOf(() => server.url);

describe('Settings → Your data', () => {
  it('downloads a JSON file of the account, dated, with no secret in it', async () => {
    const { page, errors } = await openWindow('member@qupm.demo');
    await openYourData(page);
    await expectAccessible(page, 'your data');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^qupm-data-\d{4}-\d{2}-\d{2}\.json$/);
    const raw = readFileSync((await download.path()) ?? '', 'utf8');
    const data = JSON.parse(raw) as AccountExport;
    expect(data).toMatchObject({
      format: 'qupm-export',
      version: 1,
      account: { email: 'member@qupm.demo' },
    });
    expect(data.messages.length).toBeGreaterThan(0);
    expect(data.messages.every((m) => m.channelTitle.length > 0)).toBe(true);
    expect(raw).not.toMatch(/qupm-demo"|password|refreshToken|accessToken/i);
    await page
      .getByRole('status')
      .filter({ hasText: `Saved as ${download.suggestedFilename()}.` })
      .waitFor();
    expect(errors).toEqual([]);
  });

  it('tells a consultant who owns channels to hand them over first', async () => {
    const { page } = await openWindow('consultant@qupm.demo');
    await openYourData(page);
    await page.getByRole('button', { name: 'Delete my account…' }).click();
    await page.getByLabel('Your password, to confirm').fill('qupm-demo');
    await page.getByRole('button', { name: 'Delete my account for good' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /Hand each one over to another consultant or delete it first/ })
      .waitFor();
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { name: 'Channels' }).waitFor();
  });

  it('deletes the account with the password: signed out here and in a second window', async () => {
    const member = await api<{ accessToken: string; user: AuthUser }>('POST', '/api/auth/signin', undefined, {
      email: 'member@qupm.demo',
      password: 'qupm-demo',
    });
    const consultant = await api<{ accessToken: string }>('POST', '/api/auth/signin', undefined, {
      email: 'consultant@qupm.demo',
      password: 'qupm-demo',
    });
    const strategy = (
      await api<{ channels: Array<{ id: string; channelId: string }> }>(
        'GET',
        '/api/channels?mine=true',
        consultant.accessToken,
      )
    ).channels.find((c) => c.channelId === 'strategy-studio');

    const first = await openWindow('member@qupm.demo');
    const second = await openWindow('member@qupm.demo');
    await openYourData(first.page);
    await first.page.getByRole('button', { name: 'Delete my account…' }).click();
    const password = first.page.getByLabel('Your password, to confirm');
    await password.fill('not my password');
    await first.page.getByRole('button', { name: 'Delete my account for good' }).click();
    await first.page.getByRole('alert').filter({ hasText: 'That password is not right.' }).waitFor();
    await expectAccessible(first.page, 'delete confirm');

    await password.fill('qupm-demo');
    await first.page.getByRole('button', { name: 'Delete my account for good' }).click();
    await first.page.getByRole('heading', { name: 'Your account has been deleted' }).waitFor();
    await expectAccessible(first.page, 'deleted');
    await first.page.getByRole('link', { name: 'Back to the start' }).click();
    await first.page.getByRole('button', { name: 'Sign in' }).waitFor();

    // The other window's session ended with the account: its live stream closed, and it is signed out.
    await second.page.getByRole('button', { name: 'Sign in' }).waitFor();
    await second.page.getByLabel('Email').fill('member@qupm.demo');
    await second.page.getByLabel('Password').fill('qupm-demo');
    await second.page.getByRole('button', { name: 'Sign in' }).click();
    await second.page
      .getByRole('alert')
      .filter({ hasText: /email and password don.t match/ })
      .waitFor();

    const { messages } = await api<{ messages: ChatMessage[] }>(
      'GET',
      `/api/channels/${strategy?.id ?? ''}/messages?limit=100`,
      consultant.accessToken,
    );
    expect(messages.some((m) => m.senderName === 'A former member')).toBe(true);
    expect(messages.some((m) => m.senderId === member.user.uid)).toBe(false);
    expect(first.errors.filter((e) => !/401|Unauthorized|status of 4\d\d/.test(e))).toEqual([]);
  });
});
