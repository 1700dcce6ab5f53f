// Push on a new message, end to end over the real server on a temporary SQLite file and a
// local Web Push receiver standing in for the push service: each push is decrypted with the subscription's keys,
// as the browser would, and must say who wrote what, with the recipient's own badge count.
import type { ChatMessage } from '../../core/model';
import type { RetryPolicy } from '../../server/services/pushQueue';
import { backoffMs } from '../../server/services/pushQueue';
import { demoIds, startTestServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';
import { startPushReceiver } from '../../drivers/pushReceiver';
import type { PushReceiver, ReceivedPush } from '../../drivers/pushReceiver';
import { decryptPush, subscriptionToken } from '../../drivers/webPushTokens';
import type { SubscriptionToken } from '../../drivers/webPushTokens';

jest.setTimeout(20_000);

let receiver: PushReceiver;
beforeAll(async () => {
  receiver = await startPushReceiver();
});
afterAll(() => receiver.close());

interface World {
  server: TestServer;
  ids: DemoIds;
  /** Registers a device of `role` whose subscription points at the receiver under /push/<name>. */
  device(role: keyof DemoIds['uid'], name: string): Promise<SubscriptionToken & { id: string }>;
  send(role: keyof DemoIds['uid'], channel: string, text: string): Promise<ChatMessage>;
  /** Waits until no job is queued or in flight. */
  drained(): Promise<void>;
  jobs(): Array<{ message_id: string; token_id: string; state: string; attempts: number }>;
}

async function world(
  options: { realClock?: boolean; retry?: RetryPolicy; concurrency?: number } = {},
): Promise<World> {
  const server = await startTestServer({
    ...(options.realClock ? { now: () => Date.now() } : {}),
    push: {
      allowEndpoint: (url) => url.origin === receiver.origin,
      agent: receiver.agent,
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    },
  });
  const ids = await demoIds(server);
  const w: World = {
    server,
    ids,
    async device(role, name) {
      const subscription = subscriptionToken(name, `${receiver.origin}/push/${name}`);
      const res = await server.request('POST', `/api/users/${ids.uid[role]}/tokens`, {
        token: ids.token[role],
        body: { token: subscription.token, deviceId: `device-${name}`, platform: 'web', userAgent: 'Test/1' },
      });
      expect(res.statusCode).toBe(200);
      return { ...subscription, id: res.json<{ id: string }>().id };
    },
    async send(role, channel, text) {
      const res = await server.request('POST', `/api/channels/${channel}/messages`, {
        token: ids.token[role],
        body: { text },
      });
      expect(res.statusCode).toBe(200);
      return res.json<ChatMessage>();
    },
    async drained() {
      for (;;) {
        const busy = server.query<{ n: number }>(
          "SELECT COUNT(*) AS n FROM push_jobs WHERE state IN ('queued', 'sending')",
        )[0]?.n;
        if (busy === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    jobs: () =>
      server.query('SELECT message_id, token_id, state, attempts FROM push_jobs ORDER BY id') as ReturnType<
        World['jobs']
      >,
  };
  return w;
}

const at = (name: string) => (push: ReceivedPush) => push.path === `/push/${name}`;

describe('a new message', () => {
  let w: World;
  beforeEach(async () => {
    receiver.received.length = 0;
    w = await world();
  });
  afterEach(() => w.server.close());

  it("pushes to every device of everyone else in the channel, encrypted to each one, with the sender's name, the text's start and the recipient's own badge count", async () => {
    const laptop = await w.device('consultant', 'dana-laptop');
    const phone = await w.device('consultant', 'dana-phone');
    await w.device('member', 'morgan-phone');
    const text = `Here are the cohort numbers for the pricing test. ${'Conversion held at 4.1% and churn at 2.0%. '.repeat(5)}`;
    const message = await w.send('member', w.ids.strategy, text);
    await w.drained();

    for (const device of [laptop, phone]) {
      const pushes = receiver.received.filter(at(device === laptop ? 'dana-laptop' : 'dana-phone'));
      expect(pushes).toHaveLength(1);
      const push = pushes[0] as ReceivedPush;
      expect(push.headers['content-encoding']).toBe('aes128gcm');
      expect(push.headers.topic).toBe(message.id);
      expect(push.headers.urgency).toBe('high');
      expect(decryptPush(device, push.body)).toEqual({
        messageId: message.id,
        data: {
          type: 'message',
          // The demo world left the consultant one pending notification (Leo's message): this is the second.
          badge_count: 2,
          channelId: w.ids.strategy,
          link: `/?channel=${w.ids.strategy}`,
          messageId: message.id,
        },
        notification: {
          title: 'Morgan',
          body: expect.stringMatching(/^Here are the cohort numbers for the pricing test\. Conversion held/),
        },
      });
      const body = (decryptPush(device, push.body) as { notification: { body: string } }).notification.body;
      expect(body.length).toBeLessThanOrEqual(120);
      expect(body.endsWith('…')).toBe(true);
    }
    // Nothing to the sender's own device.
    expect(receiver.received.filter(at('morgan-phone'))).toEqual([]);
    expect(w.jobs().map((job) => job.state)).toEqual(['sent', 'sent']);
  });

  it("counts each recipient's badge on their own: the member's demo pending count carries on", async () => {
    const phone = await w.device('member', 'morgan-phone');
    const first = await w.send('consultant', w.ids.strategy, 'First');
    const second = await w.send('consultant', w.ids.strategy, 'Second');
    await w.drained();
    const badges = receiver.received
      .filter(at('morgan-phone'))
      .map((push) => decryptPush(phone, push.body) as { messageId: string; data: { badge_count: number } })
      .sort((a, b) => a.data.badge_count - b.data.badge_count)
      .map((payload) => [payload.messageId, payload.data.badge_count]);
    // The demo world left the member one pending notification.
    expect(badges).toEqual([
      [first.id, 2],
      [second.id, 3],
    ]);
  });

  it('answers the sender before the push service has answered (sending is off the request path)', async () => {
    await w.device('consultant', 'dana-laptop');
    receiver.hold();
    try {
      const message = await w.send('member', w.ids.strategy, 'Are you there?');
      expect(w.jobs()).toEqual([
        expect.objectContaining({
          message_id: message.id,
          state: expect.stringMatching(/^(queued|sending)$/),
        }),
      ]);
    } finally {
      receiver.release();
    }
    await w.drained();
    expect(w.jobs().map((job) => job.state)).toEqual(['sent']);
  });

  it('pushes nothing to someone who turned push off, nor to anyone outside the channel', async () => {
    await w.device('member', 'morgan-phone');
    await w.device('visitor', 'sam-phone');
    await w.device('admin', 'admin-laptop');
    const off = await w.server.request('PATCH', `/api/users/${w.ids.uid.member}`, {
      token: w.ids.token.member,
      body: { notificationSettings: { enabled: true, delivery: { channels: ['in_app'] } } },
    });
    expect(off.statusCode).toBe(200);
    await w.send('consultant', w.ids.strategy, 'Quiet update');
    await w.drained();
    expect(receiver.received).toEqual([]);
    expect(w.jobs()).toEqual([]);
  });

  it.each([404, 410])(
    'prunes a token the push service answers %i for, and pushes to it no more',
    async (status) => {
      const gone = await w.device('consultant', `gone-${status}`);
      receiver.answer(`/push/gone-${status}`, status);
      await w.send('member', w.ids.strategy, 'Hello?');
      await w.drained();
      expect(w.jobs().map((job) => job.state)).toEqual(['gone']);
      expect(w.server.query('SELECT id FROM push_tokens WHERE id = ?', gone.id)).toEqual([]);
      await w.send('member', w.ids.strategy, 'Anyone?');
      await w.drained();
      expect(receiver.received.filter(at(`gone-${status}`))).toHaveLength(1);
    },
  );

  it('sends nothing to a device signed out before its push left', async () => {
    await w.server.close();
    // One push at a time: one device's push waits at the receiver while the other's is still queued.
    w = await world({ concurrency: 1 });
    const devices = [await w.device('consultant', 'dana-laptop'), await w.device('consultant', 'dana-phone')];
    receiver.hold();
    let waiting = '';
    try {
      await w.send('member', w.ids.strategy, 'One');
      await receiver.until((received) => received.length === 1);
      const inFlight = receiver.received[0]?.path;
      const queued = devices.find(
        (device) => device.subscription.endpoint !== `${receiver.origin}${inFlight}`,
      );
      if (!queued) throw new Error('no queued device');
      waiting = queued.id;
      const signedOut = await w.server.request(
        'DELETE',
        `/api/users/${w.ids.uid.consultant}/tokens/${queued.id}`,
        {
          token: w.ids.token.consultant,
        },
      );
      expect(signedOut.statusCode).toBe(200);
    } finally {
      receiver.release();
    }
    await w.drained();
    expect(receiver.received).toHaveLength(1);
    expect(
      w
        .jobs()
        .map((job) => [job.token_id === waiting ? 'signed out' : 'in flight', job.state])
        .sort(),
    ).toEqual([
      ['in flight', 'sent'],
      ['signed out', 'gone'],
    ]);
  });
});

describe('a push service that fails', () => {
  const retry: RetryPolicy = { attempts: 3, baseMs: 20, maxMs: 40 };
  let w: World;
  beforeEach(async () => {
    receiver.received.length = 0;
    w = await world({ realClock: true, retry });
  });
  afterEach(() => w.server.close());

  it('is retried with backoff until it accepts the push, which is then the same push', async () => {
    const laptop = await w.device('consultant', 'flaky');
    receiver.answerNext('/push/flaky', [500, 503]);
    const message = await w.send('member', w.ids.strategy, 'Retry me');
    await w.drained();
    const pushes = receiver.received.filter(at('flaky'));
    expect(pushes).toHaveLength(3);
    for (const push of pushes) {
      expect(push.headers.topic).toBe(message.id);
      expect(decryptPush(laptop, push.body)).toMatchObject({ messageId: message.id });
    }
    expect(w.jobs()).toEqual([expect.objectContaining({ state: 'sent', attempts: 3 })]);
  });

  it('gives up after the last attempt and keeps the token', async () => {
    const laptop = await w.device('consultant', 'down');
    receiver.answer('/push/down', 500);
    await w.send('member', w.ids.strategy, 'Nobody home');
    await w.drained();
    expect(receiver.received.filter(at('down'))).toHaveLength(3);
    expect(w.jobs()).toEqual([expect.objectContaining({ state: 'failed', attempts: 3 })]);
    expect(w.server.query('SELECT id FROM push_tokens WHERE id = ?', laptop.id)).toHaveLength(1);
  });
});

describe('a push service that cannot be reached', () => {
  it('keeps the push queued for its next attempt, and the server still closes', async () => {
    // startTestServer's default agent refuses every connection, as a machine offline would.
    const server = await startTestServer();
    try {
      const ids = await demoIds(server);
      const added = await server.request('POST', `/api/users/${ids.uid.consultant}/tokens`, {
        token: ids.token.consultant,
        body: {
          token: subscriptionToken('offline').token,
          deviceId: 'offline',
          platform: 'web',
          userAgent: 'T/1',
        },
      });
      expect(added.statusCode).toBe(200);
      const sent = await server.request('POST', `/api/channels/${ids.strategy}/messages`, {
        token: ids.token.member,
        body: { text: 'Is anyone online?' },
      });
      expect(sent.statusCode).toBe(200);
      const job = () =>
        server.query<{ state: string; attempts: number; next_attempt_at: number }>(
          'SELECT state, attempts, next_attempt_at FROM push_jobs',
        );
      while (job()[0]?.attempts !== 1 || job()[0]?.state !== 'queued') {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // The test's clock stands still: the retry is due a second after the failed attempt.
      expect(job()).toEqual([{ state: 'queued', attempts: 1, next_attempt_at: server.clock.now() + 1000 }]);
    } finally {
      await server.close();
    }
  });
});

describe('backoffMs', () => {
  it('doubles from the base after each failure, up to the cap', () => {
    const policy: RetryPolicy = { attempts: 5, baseMs: 1000, maxMs: 5000 };
    expect([1, 2, 3, 4, 5].map((attempts) => backoffMs(policy, attempts))).toEqual([
      1000, 2000, 4000, 5000, 5000,
    ]);
  });
});
