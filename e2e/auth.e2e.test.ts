// Signing in as each demo role, settings, a reload that stays signed in, and signing out, in a real browser
// against the real server and its demo world.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { watchErrors } from './support/browser';
import type { RunningServer } from './support/server';
import {
  signInHome,
  signInWithForm,
  signUpByMail,
  submitSignIn,
  withBrowserSession,
} from './support/session';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
withBrowserSession((started) => ({ server, browser } = started));

beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
  errors = watchErrors(page);
});

afterEach(async () => {
  await context.close();
});

// The tests of signing in use the form; the settings tests start with a session made through the API.
const signIn = (email: string, password?: string) => signInWithForm(page, server.url + '/', email, password);

const expectedErrors = (list: string[]) => list.filter((e) => !/status of 401/.test(e));

describe('signing in', () => {
  it.each([
    ['consultant@qupm.demo', 'Consultant'],
    ['member@qupm.demo', 'Member'],
    ['visitor@qupm.demo', 'Member'],
    ['admin@qupm.demo', 'Admin'],
  ])('signs in as %s and knows the role (%s)', async (email, role) => {
    await signIn(email);
    await page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
    expect(await page.locator('.badge').first().textContent()).toBe(role);
    await page.goto(server.url + '/settings/about');
    await page.getByText('Signed in as').waitFor();
    expect(await page.locator('.facts__row', { hasText: 'Signed in as' }).locator('dd').textContent()).toBe(
      email,
    );
    expect(errors).toEqual([]);
  });

  it("shows the member's balances", async () => {
    await signIn('member@qupm.demo');
    await page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
    const credits = Number(
      await page.locator('.home__balances div', { hasText: 'Credits' }).locator('dd').textContent(),
    );
    const passes = Number(
      await page.locator('.home__balances div', { hasText: 'Channel passes' }).locator('dd').textContent(),
    );
    expect(credits).toBeGreaterThan(0);
    expect(passes).toBeGreaterThan(0);
  });

  it('says so, in words, when the password is wrong', async () => {
    await signIn('member@qupm.demo', 'not-the-password');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe(
      "That email and password don't match. Check them and try again.",
    );
    expect(expectedErrors(errors)).toEqual([]);
  });

  it('creates an account through the link mailed to the address, then signs in', async () => {
    const email = `grace-${Date.now()}@example.com`;
    await page.goto(server.url + '/');
    await page.getByRole('tab', { name: 'Create account' }).click();
    await signUpByMail(page, server, { name: 'Grace Hopper', email, password: 'compilers-rule' });
    await page.getByRole('link', { name: 'Sign in to QuPM' }).click();
    await submitSignIn(page, email, 'compilers-rule');
    await page.getByRole('heading', { level: 1, name: 'Hello, Grace Hopper' }).waitFor();
    expect(expectedErrors(errors)).toEqual([]);
  });

  it('answers a taken address in the same words as a new one, and signs nobody in', async () => {
    const answer = async (email: string): Promise<string> => {
      await page.goto(server.url + '/');
      await page.getByRole('tab', { name: 'Create account' }).click();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('a-long-password');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText('Check your inbox').waitFor();
      return (await page.getByRole('status').textContent()) ?? '';
    };
    const fresh = `new-${Date.now()}@example.com`;
    const forNew = await answer(fresh);
    const forTaken = await answer('member@qupm.demo');
    expect(forTaken).toBe(forNew.replace(fresh, 'member@qupm.demo'));
    expect(forNew).toContain(`We have sent an email to ${fresh}.`);
    // Still signed out: the sign-in form, and no greeting.
    await page.reload();
    await page.getByRole('tab', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('heading', { name: /^Hello, / }).count()).toBe(0);
    expect(expectedErrors(errors)).toEqual([]);
  });

  it('stays signed in across a reload, and signs out at /logout', async () => {
    await signIn('visitor@qupm.demo');
    await page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
    // The visitor's invitation (demo data) comes after the greeting and pushes the list's foot down: a click made
    // as it lands hits what is now under the pointer (run 16: the page stayed at / with nothing clicked).
    await page.getByRole('heading', { name: 'An invitation for you' }).waitFor();
    const { refreshToken } = JSON.parse(
      (await page.evaluate(() => localStorage.getItem('qupm_session'))) ?? '{}',
    ) as { refreshToken: string };
    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: /advice, in one place/i }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    // The server revoked the session: its refresh token no longer starts one.
    const refresh = await fetch(server.url + '/api/auth/refresh', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
    expect(refresh.status).toBe(401);
    expect(errors).toEqual([]);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /advice, in one place/i }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('qupm_session'))).toBeNull();
  });

  it('signs out cleanly, without a loop, when the stored session is corrupt', async () => {
    await page.goto(server.url + '/');
    await page.evaluate(() => localStorage.setItem('qupm_session', '{"accessToken":"x","refreshToken":'));
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /advice, in one place/i }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('qupm_session'))).toBeNull();
  });

  it('signs out cleanly when the stored session was revoked on the server', async () => {
    await signIn('visitor@qupm.demo');
    await page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
    // Age the access token and break the refresh token: the server refuses the refresh.
    await page.evaluate(() => {
      const session = JSON.parse(localStorage.getItem('qupm_session')!) as Record<string, unknown>;
      localStorage.setItem(
        'qupm_session',
        JSON.stringify({ ...session, expiresAt: 0, refreshToken: 'revoked' }),
      );
    });
    let refreshes = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/refresh')) refreshes += 1;
    });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /advice, in one place/i }).waitFor();
    await page.waitForTimeout(300);
    expect(refreshes).toBe(1);
  });
});

describe('settings', () => {
  it('saves a nickname that the home screen and a reload show', async () => {
    await signInHome(page, server.url, 'member@qupm.demo');
    await page.goto(server.url + '/settings/profile');
    const nickname = page.getByLabel('Nickname');
    await nickname.fill('Mia <b>M.</b>');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Hello, Mia <b>M.</b>' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Hello, Mia <b>M.</b>' }).waitFor();
    expect(await page.locator('h1 b').count()).toBe(0); // rendered as text, never as HTML
  });

  it('saves notification settings', async () => {
    await signInHome(page, server.url, 'consultant@qupm.demo');
    await page.goto(server.url + '/settings/notifications');
    const push = page.getByLabel(/push notifications/i);
    expect(await push.isChecked()).toBe(true);
    await push.uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    await page.reload();
    // The reload may first draw the device's last known copy of the account (kept a second after a change), as
    // "Opens at once" means to; the live read brings the saved choice, which must then show.
    await page
      .getByLabel(/push notifications/i)
      .and(page.locator(':not(:checked)'))
      .waitFor();
    expect(await page.getByLabel(/push notifications/i).isChecked()).toBe(false);
  });

  it('lists no devices for an account that never allowed notifications', async () => {
    await signInHome(page, server.url, 'visitor@qupm.demo');
    await page.goto(server.url + '/settings/devices');
    await page.getByRole('heading', { name: 'No devices yet' }).waitFor();
  });

  it('asks a signed-out visitor to sign in for personal sections', async () => {
    await page.goto(server.url + '/settings/profile');
    await page.getByText('Sign in to manage your profile.').waitFor();
  });
});
