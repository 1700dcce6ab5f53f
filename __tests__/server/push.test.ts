// The embedded server's push pieces over HTTP and a real SQLite file: the public key, what a token must be,
// pruning of unused tokens, and a push service's 404/410 pruning the token it was sent to.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PushTokenDoc } from '../../core/model';
import { TOKEN_UNUSED_PRUNE_AFTER_MS } from '../../core/pushTokens';
import { openDatabase } from '../../server/db/database';
import { EventHub } from '../../server/hub';
import { createRepos } from '../../server/repo';
import { keepVapidKeys, sendToToken } from '../../server/services/push';
import type { PushContext } from '../../server/services/push';
import { demoIds, startTestServer } from './support/testServer';
import type { TestServer } from './support/testServer';
import { startPushReceiver } from '../../drivers/pushReceiver';
import type { PushReceiver } from '../../drivers/pushReceiver';
import { pushToken, subscriptionToken } from '../../drivers/webPushTokens';

const DAY = 24 * 60 * 60 * 1000;

function device(token: string, deviceId = 'device-1') {
  return { token, deviceId, platform: 'web', userAgent: 'Mozilla/5.0 Chrome/156' };
}

describe('GET /api/push/config', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers the public VAPID key without a session, the same across restarts of the same data', async () => {
    const first = (await server.request('GET', '/api/push/config')).json<{ vapidPublicKey: string }>();
    // An uncompressed P-256 point, base64url: 65 bytes.
    expect(Buffer.from(first.vapidPublicKey, 'base64url')).toHaveLength(65);
    const again = await startTestServer({ dir: server.dir, keepDir: true, demo: false });
    const second = (await again.request('GET', '/api/push/config')).json<{ vapidPublicKey: string }>();
    await again.close();
    expect(second.vapidPublicKey).toBe(first.vapidPublicKey);
    expect(server.query('SELECT value FROM settings WHERE key = ?', 'vapid_keys')).toHaveLength(1);
  });
});

describe('push token registration', () => {
  let server: TestServer;
  let member: { uid: string; token: string };
  beforeAll(async () => {
    server = await startTestServer();
    const ids = await demoIds(server);
    member = { uid: ids.uid.member, token: ids.token.member };
  });
  afterAll(() => server.close());

  const add = (body: unknown) =>
    server.request('POST', `/api/users/${member.uid}/tokens`, { token: member.token, body });

  it('accepts a Web Push subscription of a browser push service', async () => {
    const res = await add(device(pushToken('ok')));
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ['a token that is not a subscription', 'abcdefghijklmnopqrstuvwxyz0123456789'],
    [
      'a subscription without keys',
      Buffer.from(JSON.stringify({ endpoint: 'https://fcm.googleapis.com/x' })).toString('base64url'),
    ],
    [
      'a subscription to an arbitrary server',
      subscriptionToken('x', 'https://internal.example.com/hook').token,
    ],
    ['a subscription over plain http', subscriptionToken('x', 'http://fcm.googleapis.com/fcm/send/x').token],
  ])('refuses %s with a clear message and stores nothing', async (_label, token) => {
    const res = await add(device(token, 'device-bad'));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { status: 'INVALID_ARGUMENT', message: expect.stringMatching(/^token: /) },
    });
    expect(server.query('SELECT id FROM push_tokens WHERE device_id = ?', 'device-bad')).toEqual([]);
  });
});

describe('pruning tokens unused for 30 days', () => {
  it('prunes them when the server starts, and keeps the others', async () => {
    const server = await startTestServer({ keepDir: true });
    const ids = await demoIds(server);
    // Signed in afresh for each add: access tokens last 15 minutes and the clock moves by weeks.
    const add = async (token: string, deviceId: string) => {
      const session = await server.signIn('member');
      const res = await server.request('POST', `/api/users/${ids.uid.member}/tokens`, {
        token: session.accessToken,
        body: device(token, deviceId),
      });
      expect(res.statusCode).toBe(200);
    };
    await add(pushToken('old'), 'old-device');
    server.clock.advance(TOKEN_UNUSED_PRUNE_AFTER_MS - DAY);
    await add(pushToken('recent'), 'recent-device');
    server.clock.advance(2 * DAY);
    await server.close();

    const restarted = await startTestServer({
      dir: server.dir,
      keepDir: true,
      demo: false,
      now: () => server.clock.now(),
    });
    const left = restarted.query<{ device_id: string }>(
      'SELECT device_id FROM push_tokens ORDER BY device_id',
    );
    await restarted.close();
    rmSync(server.dir, { recursive: true, force: true });
    expect(left).toEqual([{ device_id: 'recent-device' }]);
  });
});

describe('sendToToken', () => {
  let receiver: PushReceiver;
  let dir: string;
  let ctx: PushContext;
  const uid = 'uidPush0000000000001';

  beforeAll(async () => {
    receiver = await startPushReceiver();
  });
  afterAll(() => receiver.close());

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'qupm-push-'));
    const db = openDatabase(path.join(dir, 'qupm.sqlite'));
    const repos = createRepos(db);
    db.prepare(
      `INSERT INTO users (uid, email, password_hash, notification_settings, created_at) VALUES (?, ?, 'x', '{}', 0)`,
    ).run(uid, 'push@example.com');
    ctx = {
      db,
      repos,
      hub: new EventHub(),
      now: () => 1_000,
      push: {
        vapid: keepVapidKeys(db, repos),
        subject: 'mailto:test@qupm.invalid',
        allowEndpoint: (url) => url.origin === receiver.origin,
        timeoutMs: 5_000,
        agent: receiver.agent,
      },
    };
  });
  afterEach(() => {
    ctx.db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function save(name: string): PushTokenDoc {
    const doc: PushTokenDoc = {
      id: `doc${name.padEnd(17, '0')}`.slice(0, 20),
      token: subscriptionToken(name, `${receiver.origin}/push/${name}`).token,
      deviceId: `device-${name}`,
      createdAt: 0,
      lastUsed: 0,
      status: 'active',
      platform: 'web',
      userAgent: 'ua',
    };
    ctx.repos.tokens.insert(uid, doc);
    return doc;
  }

  it('hands an encrypted, VAPID-signed push to the push service', async () => {
    const doc = save('ok');
    expect(await sendToToken(ctx, uid, doc, { messageId: 'm1' })).toBe('sent');
    const push = receiver.received.find((r) => r.path === '/push/ok');
    expect(push?.headers['content-encoding']).toBe('aes128gcm');
    expect(String(push?.headers.authorization)).toMatch(/^vapid t=.+, k=.+/);
    expect(push?.body.includes(Buffer.from('m1'))).toBe(false);
    expect(ctx.repos.tokens.list(uid)).toHaveLength(1);
  });

  it("signs one VAPID token per push service for hours, for that service's origin (RFC 8292)", async () => {
    const first = save('vapid1');
    const second = save('vapid2');
    expect(await sendToToken(ctx, uid, first, { messageId: 'm4' })).toBe('sent');
    expect(await sendToToken(ctx, uid, second, { messageId: 'm5' })).toBe('sent');
    const [a, b] = ['/push/vapid1', '/push/vapid2'].map((p) =>
      String(receiver.received.find((r) => r.path === p)?.headers.authorization),
    );
    expect(a).toBe(b);
    const jwt = /^vapid t=([^,]+), k=(.+)$/.exec(a ?? '');
    expect(jwt?.[2]).toBe(ctx.push.vapid.publicKey);
    const claims = JSON.parse(Buffer.from(jwt?.[1]?.split('.')[1] ?? '', 'base64url').toString()) as {
      aud: string;
      exp: number;
      sub: string;
    };
    expect(claims.aud).toBe(receiver.origin);
    expect(claims.sub).toBe('mailto:test@qupm.invalid');
    const hoursLeft = (claims.exp - Date.now() / 1000) / 3600;
    expect(hoursLeft).toBeGreaterThan(11);
    expect(hoursLeft).toBeLessThanOrEqual(24);
  });

  it.each([404, 410])('prunes the token when the push service answers %i', async (status) => {
    const doc = save(`gone${status}`);
    receiver.answer(`/push/gone${status}`, status);
    expect(await sendToToken(ctx, uid, doc, { messageId: 'm2' })).toBe('gone');
    expect(ctx.repos.tokens.list(uid)).toEqual([]);
  });

  it('keeps the token when the push service fails otherwise (the caller retries)', async () => {
    const doc = save('flaky');
    receiver.answer('/push/flaky', 500);
    expect(await sendToToken(ctx, uid, doc, { messageId: 'm3' })).toBe('failed');
    expect(ctx.repos.tokens.list(uid)).toHaveLength(1);
  });
});
