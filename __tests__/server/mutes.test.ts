// Muting a channel on the real server over a temporary SQLite file: a person in a channel
// mutes it for 1 hour, 8 hours or until they turn it back on; a message to it then queues no push job for them
// (others still get theirs) and adds nothing to their pending count or badge; the mute ends with the clock, no
// job; and muting a channel one is not in, an unknown duration or a malformed id is refused, nothing written.
import type { ChannelMute, ChatMessage } from '../../core/model';
import { MUTE_MESSAGES, MUTED_FOREVER } from '../../core/mutes';
import { pushToken } from '../../drivers/webPushTokens';
import { demoIds, expectError, withDemoServer, pendingCount } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

const HOUR = 60 * 60 * 1000;

let server: TestServer;
let ids: DemoIds;
withDemoServer((world) => ({ server, ids } = world));

type Role = 'consultant' | 'member' | 'visitor' | 'admin';

const mute = (who: Role, channel: string, body: unknown) =>
  server.request('PUT', `/api/channels/${channel}/mute`, { token: ids.token[who], body });
const unmute = (who: Role, channel: string) =>
  server.request('DELETE', `/api/channels/${channel}/mute`, { token: ids.token[who] });
const mutesOf = async (who: Role): Promise<Record<string, number>> => {
  const res = await server.request('GET', '/api/mutes', { token: ids.token[who] });
  expect(res.statusCode).toBe(200);
  return res.json<{ mutes: Record<string, number> }>().mutes;
};
const send = async (who: Role, channel: string, text: string): Promise<ChatMessage> => {
  const res = await server.request('POST', `/api/channels/${channel}/messages`, {
    token: ids.token[who],
    body: { text },
  });
  expect({ code: res.statusCode, body: res.body }).toEqual({ code: 200, body: expect.any(String) });
  return res.json<ChatMessage>();
};
const jobsFor = (messageId: string) =>
  server
    .query<{ uid: string; payload: string }>(
      'SELECT uid, payload FROM push_jobs WHERE message_id = ?',
      messageId,
    )
    .map((job) => ({
      uid: job.uid,
      badge: (JSON.parse(job.payload) as { data: { badge_count: number } }).data.badge_count,
    }));
const pendingOf = (uid: string, channel: string) => pendingCount(server, uid, channel);
/** Moves the clock; sessions are signed in afresh (access tokens last 15 minutes). */
async function later(ms: number): Promise<void> {
  server.clock.advance(ms);
  ids = await demoIds(server);
}
const muteRows = () => server.query('SELECT * FROM channel_mutes');

async function wantsPush(who: Role): Promise<void> {
  const uid = ids.uid[who];
  const settings = await server.request('PATCH', `/api/users/${uid}`, {
    token: ids.token[who],
    body: { notificationSettings: { enabled: true, delivery: { channels: ['push', 'in_app'] } } },
  });
  expect(settings.statusCode).toBe(200);
  const res = await server.request('POST', `/api/users/${uid}/tokens`, {
    token: ids.token[who],
    body: { token: pushToken(`mutes-${who}`), deviceId: `${who}-phone`, platform: 'web', userAgent: 'test' },
  });
  expect(res.statusCode).toBe(200);
}

/** The visitor joins Strategy Studio too (the consultant invites them), so a message there has two recipients. */
async function visitorJoinsStrategy(): Promise<void> {
  const invite = await server.request('POST', '/api/invitations', {
    token: ids.token.consultant,
    body: { channelId: ids.strategy, passes: 0, credits: 0, expiresAt: server.clock.now() + 24 * HOUR },
  });
  expect(invite.statusCode).toBe(200);
  const accepted = await server.request(
    'POST',
    `/api/invitations/${invite.json<{ id: string }>().id}/accept`,
    {
      token: ids.token.visitor,
    },
  );
  expect(accepted.statusCode).toBe(200);
}

describe('muting a channel', () => {
  it('mutes for 1 hour, 8 hours or until turned back on, from the server clock, and lists what is in force', async () => {
    const now = server.clock.now();
    expect((await mute('member', ids.strategy, { duration: '1h' })).json<ChannelMute>()).toEqual({
      channelId: ids.strategy,
      mutedUntil: now + HOUR,
    });
    expect(await mutesOf('member')).toEqual({ [ids.strategy]: now + HOUR });
    expect((await mute('member', ids.strategy, { duration: '8h' })).json<ChannelMute>().mutedUntil).toBe(
      now + 8 * HOUR,
    );
    expect((await mute('consultant', ids.growth, { duration: 'forever' })).json<ChannelMute>()).toEqual({
      channelId: ids.growth,
      mutedUntil: MUTED_FOREVER,
    });
    expect(await mutesOf('consultant')).toEqual({ [ids.growth]: MUTED_FOREVER });
    // Each person's own: the consultant's mute is not the member's.
    expect(await mutesOf('member')).toEqual({ [ids.strategy]: now + 8 * HOUR });
  });

  it('ends a timed mute with the clock, with no job', async () => {
    await mute('member', ids.strategy, { duration: '1h' });
    await later(HOUR);
    expect(await mutesOf('member')).toEqual({});
  });

  it('unmutes', async () => {
    await mute('member', ids.strategy, { duration: 'forever' });
    expect((await unmute('member', ids.strategy)).statusCode).toBe(200);
    expect(await mutesOf('member')).toEqual({});
    expect(muteRows()).toEqual([]);
  });
});

describe('what a muted channel sends', () => {
  it('queues no push job for the member who muted it, and still one for the others', async () => {
    await visitorJoinsStrategy();
    await wantsPush('member');
    await wantsPush('visitor');
    await mute('member', ids.strategy, { duration: '8h' });
    const message = await send('consultant', ids.strategy, 'While you were muted');
    expect(jobsFor(message.id).map((job) => job.uid)).toEqual([ids.uid.visitor]);
  });

  it('queues one again once the mute has ended', async () => {
    await wantsPush('member');
    await mute('member', ids.strategy, { duration: '1h' });
    expect(jobsFor((await send('consultant', ids.strategy, 'Muted')).id)).toEqual([]);
    await later(HOUR);
    expect(jobsFor((await send('consultant', ids.strategy, 'Back')).id).map((job) => job.uid)).toEqual([
      ids.uid.member,
    ]);
  });

  it('adds nothing to the pending count behind the badge, and still shows as unread in the list', async () => {
    await mute('member', ids.strategy, { duration: 'forever' });
    const before = pendingOf(ids.uid.member, ids.strategy);
    const overview = async () =>
      (await server.request('GET', '/api/channels/overview', { token: ids.token.member }))
        .json<{ channels: Array<{ channel: { id: string }; unread: number }> }>()
        .channels.find((o) => o.channel.id === ids.strategy)?.unread;
    const unreadBefore = await overview();
    await send('consultant', ids.strategy, 'One');
    await send('consultant', ids.strategy, 'Two');
    expect(pendingOf(ids.uid.member, ids.strategy)).toBe(before);
    expect(await overview()).toBe((unreadBefore ?? 0) + 2);
  });

  it("leaves a muted channel's earlier count out of another channel's badge", async () => {
    await visitorJoinsStrategy();
    await server.request('POST', `/api/invitations/${ids.pendingInvitation}/accept`, {
      token: ids.token.visitor,
    });
    await wantsPush('visitor');
    await send('consultant', ids.strategy, 'Counted before the mute');
    expect(pendingOf(ids.uid.visitor, ids.strategy)).toBe(1);
    await mute('visitor', ids.strategy, { duration: 'forever' });
    const message = await send('consultant', ids.growth, 'In the other channel');
    expect(jobsFor(message.id)).toEqual([{ uid: ids.uid.visitor, badge: 1 }]);
  });
});

describe('refused, with a clear message and nothing written', () => {
  it('muting or unmuting a channel one is not in, admins included', async () => {
    for (const [who, channel] of [
      ['visitor', ids.strategy],
      ['member', ids.growth],
      ['admin', ids.strategy],
    ] as const) {
      const error = expectError(await mute(who, channel, { duration: '1h' }), 403, 'PERMISSION_DENIED');
      expect(error.message).toBe(MUTE_MESSAGES.notInChannel);
      expectError(await unmute(who, channel), 403, 'PERMISSION_DENIED');
    }
    expect(muteRows()).toEqual([]);
  });

  it.each([['2h'], ['FOREVER'], [''], [3600], [null]])('an unknown duration (%j)', async (duration) => {
    const error = expectError(await mute('member', ids.strategy, { duration }), 400, 'INVALID_ARGUMENT');
    expect(error.message).toBe(MUTE_MESSAGES.unknownDuration);
    expect(muteRows()).toEqual([]);
  });

  it('a body that is not a mute', async () => {
    expectError(await mute('member', ids.strategy, { duration: '1h', until: 1 }), 400, 'INVALID_ARGUMENT');
    expectError(await mute('member', ids.strategy, 'forever'), 400, 'INVALID_ARGUMENT');
    expect(muteRows()).toEqual([]);
  });

  it('a malformed channel id, and a channel that does not exist', async () => {
    expectError(await mute('member', 'not-an-id', { duration: '1h' }), 400, 'INVALID_ARGUMENT');
    expectError(await unmute('member', '..%2F..%2Fx'), 400, 'INVALID_ARGUMENT');
    expectError(await mute('member', 'AAAAAAAAAAAAAAAAAAAA', { duration: '1h' }), 404, 'NOT_FOUND');
    expect(muteRows()).toEqual([]);
  });

  it('without a session', async () => {
    const res = await server.request('PUT', `/api/channels/${ids.strategy}/mute`, {
      body: { duration: '1h' },
    });
    expectError(res, 401, 'UNAUTHENTICATED');
    expectError(await server.request('GET', '/api/mutes'), 401, 'UNAUTHENTICATED');
    expect(muteRows()).toEqual([]);
  });
});
