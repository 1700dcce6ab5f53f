// Private consultations in three browsers against the real server: a client of Strategy Studio
// opens a private conversation with its consultant ("Talk privately with Dana"); both exchange a message live; a
// third client of the same channel sees neither the conversation nor its messages, on the screen or through the
// API. The private conversation's screen is checked with axe-core for serious or critical violations.
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/accessibility';
import { watchErrors } from './support/browser';
import type { RunningServer } from './support/server';
import { signIn as signInAt, withBrowserSession } from './support/session';
import { openChannelMenu } from './support/mutes';

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));

const newPage = (viewport = { width: 1200, height: 860 }) => windows.newPage({ viewport });

async function signIn(page: Page, email: string): Promise<void> {
  await signInAt(page, server.url + '/', email);
  await page.getByRole('heading', { name: 'Channels' }).waitFor();
}

/** The embedded server's API as a person of the demo world. */
async function api(email: string) {
  const signedIn = await fetch(`${server.url}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'qupm-demo' }),
  });
  const { accessToken } = (await signedIn.json()) as { accessToken: string };
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(server.url + path, {
      method,
      headers: {
        authorization: `Bearer ${accessToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
}

const composer = (page: Page) => page.getByLabel('Message', { exact: true });
const QUESTION = 'Can we talk about my fees, just us?';
const ANSWER = 'Of course, Morgan. Only the two of us see this.';

describe('a private consultation', () => {
  let client: Page;
  let consultant: Page;
  let privateId: string;
  const errors: string[] = [];

  beforeAll(async () => {
    // The visitor joins Strategy Studio: a third person, and a second client, of the same channel.
    const asConsultant = await api('consultant@qupm.demo');
    const mine = (await asConsultant('GET', '/api/channels?mine=true')).body.channels as Array<{
      id: string;
      channelId: string;
    }>;
    const studio = mine.find((c) => c.channelId === 'strategy-studio');
    const invitation = await asConsultant('POST', '/api/invitations', {
      channelId: studio?.id,
      passes: 0,
      credits: 0,
      expiresAt: Date.now() + 86_400_000,
    });
    const asVisitor = await api('visitor@qupm.demo');
    expect((await asVisitor('POST', `/api/invitations/${String(invitation.body.id)}/accept`)).status).toBe(
      200,
    );
  });

  it('a client opens it from their channel with "Talk privately with Dana"', async () => {
    client = await newPage();
    errors.push(...watchErrors(client));
    await signIn(client, 'member@qupm.demo');
    await client.locator('.channel-link', { hasText: 'Strategy Studio' }).click();
    await openChannelMenu(client);
    await client.getByRole('button', { name: 'Talk privately with Dana' }).click();
    await client.getByRole('heading', { name: 'Dana', exact: true }).waitFor();
    await openChannelMenu(client);
    await client.getByText('Private conversation: only the two of you can read it.').waitFor();
    privateId = new URL(client.url()).searchParams.get('channel') ?? '';
    expect(privateId).toMatch(/^[A-Za-z0-9]{20}$/);
    // Listed under the consultant's name; no "Manage" for anyone in it.
    await client.locator('.channel-link__title', { hasText: /^Dana · private$/ }).waitFor();
    expect(await client.getByRole('button', { name: 'Manage' }).count()).toBe(0);
    await expectAccessible(client, 'private conversation (client)');
  });

  it('pressing it again opens the same one', async () => {
    await client.locator('.channel-link', { hasText: 'Strategy Studio' }).click();
    // The private conversation's menu is open until Strategy Studio replaces it: wait for that first.
    await client.getByRole('heading', { level: 1, name: 'Strategy Studio' }).waitFor();
    await openChannelMenu(client);
    await client.getByRole('button', { name: 'Talk privately with Dana' }).click();
    await client.getByRole('heading', { name: 'Dana', exact: true }).waitFor();
    expect(new URL(client.url()).searchParams.get('channel')).toBe(privateId);
    expect(await client.locator('.channel-link', { hasText: 'private' }).count()).toBe(1);
  });

  it('both exchange a message live', async () => {
    consultant = await newPage();
    errors.push(...watchErrors(consultant));
    await signIn(consultant, 'consultant@qupm.demo');
    const entry = consultant.locator('.channel-link', {
      has: consultant.locator('.channel-link__title', { hasText: /^Morgan · private$/ }),
    });
    await entry.waitFor();
    await entry.click();
    await consultant.getByRole('heading', { name: 'Morgan', exact: true }).waitFor();
    await openChannelMenu(consultant);
    expect(await consultant.getByRole('button', { name: 'Manage' }).count()).toBe(0);

    await composer(client).fill(QUESTION);
    await client.getByRole('button', { name: 'Send', exact: true }).click();
    await consultant.locator('.message', { hasText: QUESTION }).waitFor();

    await composer(consultant).fill(ANSWER);
    await consultant.getByRole('button', { name: 'Send', exact: true }).click();
    await client.locator('.message', { hasText: ANSWER }).waitFor();
    await expectAccessible(consultant, 'private conversation (consultant)');
  });

  it('a third client of the same channel sees neither the conversation nor its messages', async () => {
    const third = await newPage();
    errors.push(...watchErrors(third));
    await signIn(third, 'visitor@qupm.demo');
    await third.locator('.channel-link', { hasText: 'Strategy Studio' }).waitFor();
    expect(await third.locator('.channel-link').count()).toBe(1);
    // Straight to its address: nothing of it shows.
    await third.goto(`${server.url}/?channel=${privateId}`);
    await third.getByRole('heading', { name: 'Channels' }).waitFor();
    await third.locator('.conversation').waitFor();
    await third
      .getByText(/not a member/i)
      .first()
      .waitFor();
    const text = await third.locator('body').innerText();
    expect(text).not.toContain(QUESTION);
    expect(text).not.toContain(ANSWER);
    expect(await third.getByRole('heading', { name: 'Dana', exact: true }).count()).toBe(0);

    const asVisitor = await api('visitor@qupm.demo');
    expect((await asVisitor('GET', `/api/channels/${privateId}/messages`)).status).toBe(403);
    expect((await asVisitor('GET', `/api/channels/${privateId}`)).status).toBe(403);
    const overview = (await asVisitor('GET', '/api/channels/overview')).body.channels as Array<{
      channel: { id: string };
    }>;
    expect(overview.map((o) => o.channel.id)).not.toContain(privateId);
    expect(
      (
        await asVisitor('POST', `/api/channels/${privateId}/messages`, {
          text: 'Let me in',
        })
      ).status,
    ).toBe(403);
  });

  it('admins see that it exists, not its messages', async () => {
    const asAdmin = await api('admin@qupm.demo');
    const listed = (await asAdmin('GET', '/api/admin/channels')).body.channels as Array<{
      channel: { id: string; kind?: string };
    }>;
    expect(listed.find((c) => c.channel.id === privateId)?.channel.kind).toBe('private');
    expect((await asAdmin('GET', `/api/channels/${privateId}/messages`)).status).toBe(403);
    expect(errors).toEqual([]);
  });
});
