// Forgot password in a real browser against the real server and a real SMTP server: from the
// sign-in form's "Forgot your password?", through the link read from the mail, to signing in with the new password;
// the session a second browser had open ends. Every new screen is checked with axe-core.
import type { Page } from 'playwright-core';
import type { SmtpSink } from '../drivers/smtpSink';
import { expectAccessible } from './support/accessibility';
import { watchErrors } from './support/browser';
import type { RunningServer } from './support/server';
import { signIn, signInWithForm, withMailedBrowserSession } from './support/session';

let server: RunningServer;
let sink: SmtpSink;
const windows = withMailedBrowserSession((started) => ({ server, sink } = started));

const newPage = (viewport = { width: 390, height: 844 }): Promise<Page> => windows.newPage({ viewport });

describe('forgot password', () => {
  it('mails a link from the sign-in form that sets a new password, and the old session ends', async () => {
    // A session from before, open on another device.
    const old = await newPage({ width: 1200, height: 800 });
    await signIn(old, server.url + '/', 'member@qupm.demo');
    await old.getByRole('heading', { name: 'Channels' }).waitFor();

    const page = await newPage();
    const errors = watchErrors(page);
    await page.goto(server.url + '/');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/reset-password');
    await expectAccessible(page, 'forgot password');
    await page.getByLabel('Email').fill('member@qupm.demo');
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByRole('status').filter({ hasText: 'If an account uses this address' }).waitFor();
    await expectAccessible(page, 'forgot password (sent)');

    const mail = await sink.next((m) => m.envelopeTo.includes('member@qupm.demo'));
    expect(mail.subject).toBe('Choose a new password for QuPM');
    const link = sink.link(mail, '/reset-password');
    await page.goto(link.href);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await expectAccessible(page, 'reset password');
    // Too short: said at once, nothing sent.
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Save my new password' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Choose a password of 8 to 128 characters.');
    await page.getByLabel('New password', { exact: true }).fill('a-brand-new-password');
    await page.getByRole('button', { name: 'Save my new password' }).click();
    await page.getByRole('heading', { name: 'Your password has been changed' }).waitFor();
    await expectAccessible(page, 'reset password (done)');

    // The old password no longer works; the new one does.
    const origin = link.origin;
    await signInWithForm(page, origin + '/', 'member@qupm.demo');
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Password').fill('a-brand-new-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Channels' }).waitFor();

    // The session opened before the reset is over: that browser is back at the sign-in form.
    await old.getByRole('button', { name: 'Sign in', exact: true }).waitFor();

    // The same link a second time: refused in words.
    await page.goto(link.href);
    await page.getByLabel('New password', { exact: true }).fill('yet-another-password');
    await page.getByRole('button', { name: 'Save my new password' }).click();
    expect(await page.getByRole('alert').textContent()).toBe(
      'This password reset link has already been used. Ask for a new one from the sign-in page.',
    );
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });
});
