// A renamed person, seen from the other side of a private consultation, against the real server: the member
// takes a new nickname in Settings → Profile in one window, and the consultant's channel list (another window,
// left open) lists their consultation under the new name at once, without a reload, and still after one.
import type { Page } from 'playwright-core';
import type { Channel, ChannelOverview } from '../core/model';
import type { SessionResponse } from '../core/wire';
import { watchErrors } from './support/browser';
import type { RunningServer } from './support/server';
import { signIn, signInHome, withBrowserSession } from './support/session';

let server: RunningServer;
const windows = withBrowserSession((started) => ({ server } = started));

async function api<T>(path: string, token: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

describe('a private consultation after its client takes a new name', () => {
  let member: Page;
  let consultant: Page;
  let errors: string[][] = [];
  let channel: Channel;

  beforeAll(async () => {
    const signedIn = await fetch(`${server.url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'member@qupm.demo', password: 'qupm-demo' }),
    });
    const session = (await signedIn.json()) as SessionResponse;
    const { channels } = await api<{ channels: ChannelOverview[] }>(
      '/api/channels/overview',
      session.accessToken,
    );
    const studio = channels.find((o) => o.channel.kind !== 'private')?.channel;
    if (!studio) throw new Error('the demo member is in no channel');
    channel = await api<Channel>('/api/private-channels', session.accessToken, {
      withUid: studio.ownerId,
      viaChannelId: studio.id,
    });
    consultant = await windows.newPage({ viewport: { width: 1366, height: 768 } });
    member = await windows.newPage({ viewport: { width: 390, height: 844 } });
    errors = [watchErrors(member), watchErrors(consultant)];
    await signInHome(consultant, server.url, 'consultant@qupm.demo');
    await signIn(member, `${server.url}/settings/profile`, 'member@qupm.demo');
  });

  const listed = () => consultant.locator(`.channel-link[href$="${channel.id}"] .channel-link__title`);

  it('is listed under the name stored when it was opened, at first', async () => {
    const before = channel.names?.[channel.members[0] ?? ''] ?? '';
    expect(before).not.toBe('');
    await expect(listed().textContent()).resolves.toContain(before);
  });

  it('follows the new nickname live in the other window, and after a reload', async () => {
    await member.getByLabel('Nickname').fill('Morgana Vale');
    await member.getByRole('button', { name: 'Save' }).click();
    await member.getByText('Saved.').waitFor();
    await listed().filter({ hasText: 'Morgana Vale' }).waitFor({ timeout: 10_000 });
    await consultant.reload();
    await listed().filter({ hasText: 'Morgana Vale' }).waitFor();
  });

  it('shows no page errors', () => {
    expect(errors.flat()).toEqual([]);
  });
});
