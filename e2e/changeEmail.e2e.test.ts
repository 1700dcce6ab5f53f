// Change of email in a real browser against the real server and a real SMTP server: from the
// form in Settings → Profile (refusals in words, the cursor where the mistake is), through the link mailed to the
// new address, to signing in with it; the old address is told and no longer signs in. Every new screen is checked
// with axe-core.
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../server/demo';
import type { SmtpSink } from '../drivers/smtpSink';
import { expectAccessible } from './support/accessibility';
import type { RunningServer } from './support/server';
import { signIn, signInWithForm, submitSignIn, withMailedBrowserSession } from './support/session';

let server: RunningServer;
let sink: SmtpSink;
const windows = withMailedBrowserSession((started) => ({ server, sink } = started));

const OLD_EMAIL = 'visitor@qupm.demo';
const NEW_EMAIL = 'visitor.new@example.com';

/** The name attribute of the focused element (the form's fields: new-email, current-password). */
const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('name') ?? null);

describe('change of email', () => {
  it('mails a link to the new address from settings; once opened, the new address signs in', async () => {
    const { page, errors } = await windows.openWindow({ viewport: { width: 390, height: 844 } });
    await signIn(page, server.url + '/settings/profile', OLD_EMAIL);
    const form = page.getByRole('form', { name: 'Change email' });
    await form.waitFor();
    await page.getByRole('region', { name: 'Email address' }).getByText(`${OLD_EMAIL} is`).waitFor();
    await expectAccessible(page, 'settings → profile');

    // A wrong password: said in words, the cursor back in the password field, nothing mailed.
    await form.getByLabel('New email address').fill(NEW_EMAIL);
    await form.getByLabel('Current password').fill('not-my-password');
    await form.getByRole('button', { name: 'Change email' }).click();
    await form
      .getByRole('alert')
      .filter({ hasText: 'That is not your current password. Check it and try again.' })
      .waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'current-password');

    // An address another account has: said in words, the cursor in the address field.
    await form.getByLabel('New email address').fill('member@qupm.demo');
    await form.getByLabel('Current password').fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Change email' }).click();
    await form.getByRole('alert').filter({ hasText: 'Another account already uses this address.' }).waitFor();
    expect(await focusedName(page)).toBe('new-email');
    await expectAccessible(page, 'change email (refused)');

    // The account's own address, written otherwise: the backend refuses it, and the form says so in words.
    await form.getByLabel('New email address').fill(' Visitor@QuPM.demo ');
    await form.getByLabel('Current password').fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Change email' }).click();
    await form.getByRole('alert').filter({ hasText: 'This is already your email address.' }).waitFor();
    expect(await focusedName(page)).toBe('new-email');

    // The real change: the link goes to the new address, and focus stays on the button that sent it.
    await form.getByLabel('New email address').fill(NEW_EMAIL);
    await form.getByLabel('Current password').fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Change email' }).click();
    await form
      .getByRole('status')
      .filter({ hasText: `We sent a link to ${NEW_EMAIL} — your address changes when you open it.` })
      .waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Change email');
    // A long address in the sentence wraps: on a phone nothing spills out of the form's card.
    const spills = await form.evaluate((card) => {
      const edge = card.getBoundingClientRect().right;
      return [...card.querySelectorAll('input, button, p')]
        .filter((el) => el.getBoundingClientRect().right > edge + 0.5)
        .map((el) => el.outerHTML.slice(0, 60));
    });
    expect(spills).toEqual([]);
    expect(await form.getByRole('alert').count()).toBe(0);
    await expectAccessible(page, 'change email (sent)');

    const mail = await sink.next((m) => m.envelopeTo.includes(NEW_EMAIL));
    expect(mail.subject).toBe('Confirm your new email address for QuPM');
    // Nothing has changed until the link is used: the new address does not sign in yet.
    const other = await windows.newPage({ viewport: { width: 390, height: 844 } });
    await signInWithForm(other, server.url + '/', NEW_EMAIL);
    await other.getByRole('alert').waitFor();

    await page.goto(sink.link(mail, '/verify-email').href);
    await page.getByRole('heading', { name: 'Your email address is confirmed' }).waitFor();
    await expectAccessible(page, 'verify email (changed)');

    // The old address is told, and signs in no more.
    const told = await sink.next((m) => m.envelopeTo.includes(OLD_EMAIL));
    expect(told.subject).toBe('Your QuPM email address was changed');
    expect(told.text).toContain(NEW_EMAIL);
    await other.reload();
    await submitSignIn(other, OLD_EMAIL);
    await other.getByRole('alert').waitFor();

    // The new address signs in, and settings shows it confirmed.
    await other.getByLabel('Email').fill(NEW_EMAIL);
    await other.getByLabel('Password').fill(DEMO_PASSWORD);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
    await other.goto(server.url + '/settings/profile');
    await other
      .getByRole('region', { name: 'Email address' })
      .getByText(`${NEW_EMAIL} is confirmed.`)
      .waitFor();

    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });
});
