// Sessions in the real build against the real server, with two browsers of their own (two
// persistent profiles: two devices of one account). Window A lists both sessions in Settings → Devices, this one
// marked, and signs B out; B lands on the sign-in form with a sentence saying why, and the access token B held is
// refused by the server at once. Checked with axe-core on the way.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { launchPersistent, watchErrors } from './support/browser';
import type { PersistentBrowser } from './support/browser';
import { startServer } from './support/server';
import type { RunningServer } from './support/server';

let server: RunningServer;
let windowA: PersistentBrowser;
let windowB: PersistentBrowser;

beforeAll(async () => {
  server = await startServer();
  windowA = await launchPersistent();
  windowB = await launchPersistent();
});

afterAll(async () => {
  await windowA?.close();
  await windowB?.close();
  await server?.close();
});

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(server.url + '/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('qupm-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Channels' }).waitFor();
}

/** The session this browser keeps (src/backend/local/session.ts). */
async function storedSession(page: Page): Promise<{ accessToken: string; user: { uid: string } }> {
  const raw = await page.evaluate(() => localStorage.getItem('qupm_session'));
  if (!raw) throw new Error('no stored session');
  return JSON.parse(raw) as { accessToken: string; user: { uid: string } };
}

it('window A signs window B out: B is at the sign-in form at once and its token is refused', async () => {
  const a = windowA.context.pages()[0] ?? (await windowA.context.newPage());
  const b = windowB.context.pages()[0] ?? (await windowB.context.newPage());
  const errorsA = watchErrors(a);
  await signIn(a, 'member@qupm.demo');
  await signIn(b, 'member@qupm.demo');
  const bSession = await storedSession(b);
  const readAsB = () =>
    fetch(`${server.url}/api/users/${bSession.user.uid}`, {
      headers: { authorization: `Bearer ${bSession.accessToken}` },
    });
  expect((await readAsB()).status).toBe(200);

  await a.goto(server.url + '/settings/devices');
  const sessions = a.getByRole('region', { name: 'Where you are signed in' });
  await sessions.getByText('This device').waitFor();
  const items = sessions.getByRole('listitem');
  await expect(items.count()).resolves.toBe(2);
  const signOutButtons = sessions.getByRole('button', { name: /^Sign out .+ on .+/ });
  await expect(signOutButtons.count()).resolves.toBe(1);
  await expect(sessions.getByRole('button', { name: 'Sign out everywhere else' }).isVisible()).resolves.toBe(
    true,
  );
  const { violations } = await new AxeBuilder({ page: a }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  await signOutButtons.first().click();
  await expect(items.count()).resolves.toBeGreaterThanOrEqual(1);
  await sessions.getByText('You are signed in on this device only.').waitFor();

  // B was told by its live stream: it is at the sign-in form, saying why, without a reload.
  await b.getByText('You were signed out: this session was ended elsewhere.').waitFor();
  await b.getByRole('button', { name: 'Sign in' }).waitFor();
  expect((await readAsB()).status).toBe(401);
  const { violations: atSignIn } = await new AxeBuilder({ page: b }).analyze();
  expect(atSignIn.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  // A is still signed in, and its own requests still work.
  const aSession = await storedSession(a);
  const own = await fetch(`${server.url}/api/auth/sessions`, {
    headers: { authorization: `Bearer ${aSession.accessToken}` },
  });
  expect(((await own.json()) as { sessions: unknown[] }).sessions).toHaveLength(1);
  expect(errorsA).toEqual([]);
}, 90_000);

it('changes the password in Settings → Profile: a wrong current one is refused in words, the right one works', async () => {
  const a = windowA.context.pages()[0] ?? (await windowA.context.newPage());
  await a.goto(server.url + '/settings/profile');
  const form = a.getByRole('form', { name: 'Change password' });
  await form.getByLabel('Current password').fill('not-my-password');
  await form.getByLabel('New password').fill('a-new-demo-password');
  await form.getByRole('button', { name: 'Change password' }).click();
  await form.getByText('Your current password is not right. Check it and try again.').waitFor();
  await form.getByLabel('Current password').fill('qupm-demo');
  await form.getByRole('button', { name: 'Change password' }).click();
  await form.getByText('Password changed. Your other devices were signed out.').waitFor();
  const { violations } = await new AxeBuilder({ page: a }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  const signIn = await fetch(`${server.url}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'member@qupm.demo', password: 'a-new-demo-password' }),
  });
  expect(signIn.status).toBe(200);
}, 60_000);
