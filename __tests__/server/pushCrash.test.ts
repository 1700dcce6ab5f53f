// The crash test: the server (its own process) is killed with SIGKILL while 20 clients post messages and
// pushes are in flight. After a restart every acknowledged message is there exactly once, and the push queue
// resumes without any push sent twice (counted per message id at the receiver), never to the sender.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ChatMessage } from '../../core/model';
import type { SessionResponse } from '../../core/wire';
import { DATABASE_FILE } from '../../server/db/database';
import { startPushReceiver, TLS_CERT_FILE } from '../../drivers/pushReceiver';
import type { PushReceiver } from '../../drivers/pushReceiver';
import { decryptPush, subscriptionToken } from '../../drivers/webPushTokens';
import type { SubscriptionToken } from '../../drivers/webPushTokens';
import { startChild } from '../../drivers/startChild';
import type { ChildServer } from '../../drivers/startChild';

jest.setTimeout(60_000);

const CLIENTS = 20;
/** Messages acknowledged before the kill: enough that pushes are both in flight and queued by then. */
const ACKNOWLEDGED_BEFORE_KILL = 80;

let dir: string;
let receiver: PushReceiver;
let children: ChildServer[] = [];
beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'qupm-push-kill-'));
  receiver = await startPushReceiver();
  children = [];
});
afterEach(async () => {
  for (const child of children) await child.kill();
  receiver.release();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

interface JobRow {
  id: number;
  message_id: string;
  token_id: string;
  state: string;
}

/** Reads the database between the two lives of the server (a short-lived connection of the test's own). */
function readDb<T>(sql: string): T[] {
  const db = new Database(path.join(dir, DATABASE_FILE));
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

describe('a server killed with pushes in flight', () => {
  it('keeps every acknowledged message once, and resumes the queue without sending any push twice', async () => {
    const env = { QUPM_TEST_PUSH_ORIGIN: receiver.origin, QUPM_TEST_PUSH_CA: TLS_CERT_FILE };
    const first = await startChild(dir, env);
    children.push(first);
    const call = async <T>(origin: string, method: string, url: string, body?: unknown, token?: string) => {
      const res = await fetch(`${origin}${url}`, {
        method,
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, json: (await res.json()) as T };
    };
    const signIn = async (email: string) =>
      (
        await call<SessionResponse>(first.origin, 'POST', '/api/auth/signin', {
          email,
          password: 'qupm-demo',
        })
      ).json;
    const people = {
      consultant: await signIn('consultant@qupm.demo'),
      member: await signIn('member@qupm.demo'),
    };
    const channel = (
      await call<{ channels: Array<{ id: string; channelId: string }> }>(
        first.origin,
        'GET',
        '/api/channels?mine=true',
        undefined,
        people.member.accessToken,
      )
    ).json.channels.find((c) => c.channelId === 'strategy-studio')?.id;
    expect(channel).toBeDefined();

    // Two devices for the consultant, one for the member; each push is decrypted with its device's keys.
    const devices = new Map<string, { owner: string; subscription: SubscriptionToken }>();
    for (const [who, name] of [
      ['consultant', 'dana-laptop'],
      ['consultant', 'dana-phone'],
      ['member', 'morgan-phone'],
    ] as const) {
      const subscription = subscriptionToken(name, `${receiver.origin}/push/${name}`);
      const session = people[who];
      const added = await call(
        first.origin,
        'POST',
        `/api/users/${session.user.uid}/tokens`,
        {
          token: subscription.token,
          deviceId: name,
          platform: 'web',
          userAgent: 'Crash/1',
        },
        session.accessToken,
      );
      expect(added.status).toBe(200);
      devices.set(`/push/${name}`, { owner: session.user.uid, subscription });
    }

    // The push service holds its answers: pushes stay in flight while the queue fills behind them.
    receiver.hold();
    const acknowledged: ChatMessage[] = [];
    let sending = true;
    let enough: () => void = () => undefined;
    const enoughAcknowledged = new Promise<void>((resolve) => {
      enough = resolve;
    });
    const clients = Array.from({ length: CLIENTS }, async (_unused, client) => {
      const session = client % 2 === 0 ? people.member : people.consultant;
      for (let i = 0; sending; i += 1) {
        try {
          const res = await call<ChatMessage>(
            first.origin,
            'POST',
            `/api/channels/${channel}/messages`,
            { text: `client ${client} message ${i}` },
            session.accessToken,
          );
          if (res.status === 200) acknowledged.push(res.json);
          if (acknowledged.length >= ACKNOWLEDGED_BEFORE_KILL) enough();
        } catch {
          return; // the server is gone
        }
      }
    });
    await enoughAcknowledged;
    await first.kill();
    sending = false;
    await Promise.all(clients);

    const atKill = readDb<JobRow>('SELECT id, message_id, token_id, state FROM push_jobs');
    const stateAtKill = new Map(atKill.map((job) => [job.id, job.state]));
    // The test means something only if the kill caught pushes both in flight and waiting.
    expect(atKill.filter((job) => job.state === 'sending').length).toBeGreaterThan(0);
    expect(atKill.filter((job) => job.state === 'queued').length).toBeGreaterThan(0);
    const receivedBeforeRestart = receiver.received.length;
    receiver.release();

    const second = await startChild(dir, env);
    children.push(second);
    for (;;) {
      const busy = readDb<{ n: number }>(
        "SELECT COUNT(*) AS n FROM push_jobs WHERE state IN ('queued', 'sending')",
      )[0]?.n;
      if (busy === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }

    // Every acknowledged message is stored, once.
    const stored = readDb<{ id: string; text: string; sender_id: string }>(
      'SELECT id, text, sender_id FROM messages',
    );
    const storedIds = new Set(stored.map((m) => m.id));
    expect(acknowledged.filter((m) => !storedIds.has(m.id))).toEqual([]);
    const texts = stored.map((m) => m.text).filter((text) => text.startsWith('client '));
    expect(texts.length).toBe(new Set(texts).size);
    const senderOf = new Map(stored.map((m) => [m.id, m.sender_id]));

    // No push twice: each (device, message) at most once, and never to the sender's own device.
    const seen = new Map<string, number>();
    for (const push of receiver.received) {
      const device = devices.get(push.path);
      if (!device) throw new Error(`a push to an unknown device: ${push.path}`);
      const payload = decryptPush(device.subscription, push.body) as { messageId: string };
      expect(push.headers.topic).toBe(payload.messageId);
      expect(senderOf.get(payload.messageId)).not.toBe(device.owner);
      const key = `${push.path} ${payload.messageId}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    expect([...seen.values()].filter((count) => count > 1)).toEqual([]);

    // The queue resumed: every job queued at the kill was sent after the restart; the ones cut off in flight
    // were abandoned, not sent again.
    const after = readDb<JobRow>('SELECT id, message_id, token_id, state FROM push_jobs');
    const resumed = after.filter((job) => stateAtKill.get(job.id) === 'queued');
    expect(resumed.length).toBeGreaterThan(0);
    expect(resumed.filter((job) => job.state !== 'sent')).toEqual([]);
    const cutOff = after.filter((job) => stateAtKill.get(job.id) === 'sending');
    expect(cutOff.filter((job) => job.state !== 'abandoned')).toEqual([]);
    // Nothing was sent before the kill (the receiver held every answer) and no message came after it.
    expect(after.filter((job) => !stateAtKill.has(job.id))).toEqual([]);
    expect(receiver.received.length).toBe(receivedBeforeRestart + resumed.length);
  });
});
