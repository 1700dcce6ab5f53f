// Mute and attention in the real build, against the real server and its real push queue, whose
// pushes go to a push service on localhost (drivers/pushReceiver.ts): a member mutes a channel from the
// conversation's header; another client's message there sends that member no push, while a message in their
// unmuted channel is pushed to them; with the window not focused, the tab title counts the unmuted unread
// messages and is "QuPM" again once focused; off the home screen a new message shows an in-app notice (not one
// from the muted channel); unmuting brings the pushes back.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startPushReceiver } from '../drivers/pushReceiver';
import type { PushReceiver } from '../drivers/pushReceiver';
import { decryptPush, subscriptionToken } from '../drivers/webPushTokens';
import type { SubscriptionToken } from '../drivers/webPushTokens';
import type { AuthUser, ChannelOverview, ChatMessage } from '../core/model';
import { watchErrors } from './support/browser';
import { readDatabase } from './support/server';
import type { RunningServer } from './support/server';
import { muteStrategyFromHeader, openChannelMenu } from './support/mutes';
import { signInHome, withBrowserSession } from './support/session';

const DAY = 24 * 60 * 60 * 1000;
const MEMBER_PATH = '/push/member';

let receiver: PushReceiver;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  receiver = await startPushReceiver();
});
// The server's pushes go to the receiver started just before it.
withBrowserSession(
  (started) => ({ server, browser } = started),
  () => ({ push: { allowEndpoint: (url) => url.origin === receiver.origin, agent: receiver.agent } }),
);
// Registered after the session's hooks, so it runs after the browser and the server are closed.
afterAll(async () => {
  await receiver?.close();
});

beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
});

afterEach(async () => {
  await context.close();
});

/** A call to the server's API as another client would make it. */
async function api<T>(
  route: string,
  init: { token?: string; method?: string; body?: unknown } = {},
): Promise<T> {
  const response = await fetch(server.url + route, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${route}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

const signIn = (email: string) =>
  api<{ accessToken: string; user: AuthUser }>('/api/auth/signin', {
    body: { email, password: 'qupm-demo' },
  });

interface World {
  consultant: string;
  member: { token: string; uid: string };
  strategy: string;
  growth: string;
  subscription: SubscriptionToken;
  /** How many pushes the receiver had before this world's subscription existed. */
  since: number;
  post(channel: string, text: string): Promise<ChatMessage>;
}

/**
 * The member of Strategy Studio joins Growth Clinic too (an invitation from its consultant), and has a device
 * whose push subscription points at the push receiver.
 */
async function world(): Promise<World> {
  const consultant = (await signIn('consultant@qupm.demo')).accessToken;
  const member = await signIn('member@qupm.demo');
  const channels = await api<{ channels: ChannelOverview[] }>('/api/channels/overview', {
    token: consultant,
  });
  const idOf = (title: string) => channels.channels.find((o) => o.channel.title === title)?.channel.id ?? '';
  const strategy = idOf('Strategy Studio');
  const growth = idOf('Growth Clinic');
  const invitation = await api<{ id: string }>('/api/invitations', {
    token: consultant,
    body: { channelId: growth, passes: 0, credits: 0, expiresAt: Date.now() + DAY },
  });
  await api(`/api/invitations/${invitation.id}/accept`, { token: member.accessToken, method: 'POST' });
  // The tests share one server: each starts with nothing muted.
  await api(`/api/channels/${strategy}/mute`, { token: member.accessToken, method: 'DELETE' });
  const since = receiver.received.length;
  const subscription = subscriptionToken('member', receiver.origin + MEMBER_PATH);
  await api(`/api/users/${member.user.uid}/tokens`, {
    token: member.accessToken,
    body: { token: subscription.token, deviceId: 'member-phone', platform: 'web', userAgent: 'e2e' },
  });
  return {
    consultant,
    member: { token: member.accessToken, uid: member.user.uid },
    strategy,
    growth,
    subscription,
    since,
    post: (channel, text) =>
      api<ChatMessage>(`/api/channels/${channel}/messages`, { token: consultant, body: { text } }),
  };
}

interface DecryptedPush {
  messageId: string;
  data: { channelId: string; badge_count: number };
}

/** What the push service was handed for the member's subscription, decrypted. */
function memberPushes(w: World): DecryptedPush[] {
  return receiver.received
    .slice(w.since)
    .filter((push) => push.path === MEMBER_PATH)
    .map((push) => decryptPush(w.subscription, push.body) as DecryptedPush);
}

/** The push jobs the server's queue holds for a message (read from its database). */
function pushJobsFor(messageId: string): number {
  return readDatabase(
    server,
    (db) =>
      (db.prepare('SELECT COUNT(*) AS n FROM push_jobs WHERE message_id = ?').get(messageId) as { n: number })
        .n,
  );
}

async function signedInMember(): Promise<Page> {
  const page = await context.newPage();
  await signInHome(page, server.url, 'member@qupm.demo');
  return page;
}

const countIn = (title: string): number => {
  const match = /^\((\d+)\) QuPM$/.exec(title);
  if (match) return Number(match[1]);
  if (title === 'QuPM') return 0;
  throw new Error(`Not a QuPM title: ${title}`);
};

describe('a muted channel', () => {
  it("sends its member no push through the real queue, while their unmuted channel's message is pushed", async () => {
    const w = await world();
    const page = await signedInMember();
    const errors = watchErrors(page);
    await muteStrategyFromHeader(page);
    // The channel list says so too, and the backend has it.
    await page
      .locator('.channel-link__muted')
      .filter({ hasText: /Muted until/ })
      .waitFor();
    expect(
      Object.keys((await api<{ mutes: object }>('/api/mutes', { token: w.member.token })).mutes),
    ).toEqual([w.strategy]);

    const muted = await w.post(w.strategy, 'Posted while muted');
    const unmuted = await w.post(w.growth, 'Posted in the unmuted channel');
    await receiver.until(() => memberPushes(w).some((push) => push.messageId === unmuted.id));
    expect(pushJobsFor(muted.id)).toBe(0);
    expect(memberPushes(w).map((push) => push.data.channelId)).toEqual([w.growth]);

    // Unmuted from the header: the next message there is pushed again.
    await openChannelMenu(page);
    await page.getByRole('button', { name: /^Muted until / }).click();
    await page.getByRole('button', { name: 'Unmute' }).click();
    await openChannelMenu(page);
    await page.getByRole('button', { name: 'Mute', exact: true }).waitFor();
    const again = await w.post(w.strategy, 'Posted after unmuting');
    await receiver.until(() => memberPushes(w).some((push) => push.messageId === again.id));
    expect(memberPushes(w).map((push) => push.data.channelId)).toEqual([w.growth, w.strategy]);
    expect(errors).toEqual([]);
  });
});

describe('attention', () => {
  it('shows the unmuted unread count in the tab title, also while the window is looked at, until it is read', async () => {
    const w = await world();
    const page = await signedInMember();
    await muteStrategyFromHeader(page);
    // Looked at (the window has the focus), as the badge does: the count, not the name alone.
    expect(await page.evaluate(() => document.hasFocus() && !document.hidden)).toBe(true);
    const before = countIn(await page.title());

    await w.post(w.strategy, 'Muted: not counted');
    const counted = await w.post(w.growth, 'Counted in the title');
    // Both have reached the page once the growth message shows in the list.
    await page
      .getByRole('link', { name: /Growth Clinic/ })
      .filter({ hasText: counted.text })
      .waitFor();
    await page.waitForFunction((title) => document.title === title, `(${before + 1}) QuPM`);

    // Reading the channel takes its messages out of the count.
    await page.getByRole('link', { name: /Growth Clinic/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Growth Clinic' }).waitFor();
    await page.waitForFunction(
      (most) => Number(/^\((\d+)\) /.exec(document.title)?.[1] ?? 0) <= most,
      before,
    );
  });

  it('shows a new message as an in-app notice on /settings, but not one from a muted channel', async () => {
    const w = await world();
    const page = await signedInMember();
    await muteStrategyFromHeader(page);
    await page.getByRole('link', { name: 'Settings' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();

    await w.post(w.strategy, 'From the muted channel');
    const news = await w.post(w.growth, 'News from Growth Clinic');
    const notice = page.locator('.notice').filter({ hasText: news.text });
    await notice.waitFor();
    expect(await notice.getByRole('link').getAttribute('href')).toBe(`/?channel=${w.growth}`);
    expect(await page.locator('.notice').filter({ hasText: 'From the muted channel' }).count()).toBe(0);
    // The notice leads to the channel.
    await notice.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'Growth Clinic' }).waitFor();
  });
});
