// Missed-message email's browser side in Chromium against the real server: the settings switch
// "Email me about messages I miss" on a phone, an iPhone and a laptop (off by default, on after a click and a
// reload, no serious axe violation), and the unsubscribe link of an email: its page asks, its button unsubscribes
// (a real form POST under the server's CSP), and the switch is off afterwards.
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { unsubscribePath } from '../core/missedMail';
import { unsubscribeToken } from '../server/services/missedMail';
import { expectAccessible } from './support/accessibility';
import { watchErrors } from './support/browser';
import type { RunningServer } from './support/server';
import { signIn, withBrowserSession } from './support/session';

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const SIZES = [
  { name: 'phone', width: 390, height: 844, ua: undefined, email: 'member@qupm.demo' },
  { name: 'iPhone', width: 390, height: 664, ua: IPHONE_UA, email: 'consultant@qupm.demo' },
  { name: 'laptop', width: 1366, height: 768, ua: undefined, email: 'admin@qupm.demo' },
] as const;

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));

const emailSwitch = (page: Page) => page.getByRole('switch', { name: 'Email me about messages I miss' });

/** The link an email would carry for this account, signed with the server's own secret. */
function unsubscribeUrl(email: string): string {
  const db = new Database(path.join(server.dataDir, 'qupm.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const { uid } = db.prepare('SELECT uid FROM users WHERE email = ?').get(email) as { uid: string };
    const { value } = db
      .prepare("SELECT value FROM settings WHERE key = 'mail_unsubscribe_secret'")
      .get() as {
      value: string;
    };
    return server.url + unsubscribePath(unsubscribeToken(Buffer.from(value, 'base64url'), uid));
  } finally {
    db.close();
  }
}

describe('Settings → Notifications → Email', () => {
  it.each(SIZES)('is off by default and stays on once switched on ($name)', async (size) => {
    const page = await windows.newPage({
      viewport: { width: size.width, height: size.height },
      ...(size.ua ? { userAgent: size.ua } : {}),
    });
    const errors = watchErrors(page);
    await signIn(page, `${server.url}/settings/notifications`, size.email);
    await emailSwitch(page).waitFor();
    expect(await emailSwitch(page).isChecked()).toBe(false);
    await expectAccessible(page, `notifications (${size.name})`);
    await emailSwitch(page).click();
    await page.getByText('Emails are on.').waitFor();
    await page.reload();
    await emailSwitch(page).waitFor();
    expect(await emailSwitch(page).isChecked()).toBe(true);
    await expectAccessible(page, `notifications, email on (${size.name})`);
    expect(errors).toEqual([]);
  });

  // The member switched email on above (the phone's case).
  it('is turned off by the button of the unsubscribe page (and not by opening it)', async () => {
    const context = await windows.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(unsubscribeUrl('member@qupm.demo'));
    await page.getByRole('heading', { name: 'Stop emails about missed messages?' }).waitFor();
    await expectAccessible(page, 'unsubscribe page');
    // Opening it changed nothing.
    const owner = await windows.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(owner, `${server.url}/settings/notifications`, 'member@qupm.demo');
    await emailSwitch(owner).waitFor();
    expect(await emailSwitch(owner).isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Stop these emails' }).click();
    await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
    await expectAccessible(page, 'unsubscribed page');
    await owner.reload();
    await emailSwitch(owner).waitFor();
    expect(await emailSwitch(owner).isChecked()).toBe(false);
  });
});
