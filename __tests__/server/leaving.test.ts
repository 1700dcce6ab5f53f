// Leaving on the real server over a temporary SQLite file: "Download my data" answers a JSON
// file of the account, its messages, offers, invitations and devices, with no secret and nothing of anyone else;
// "Delete my account" with the password removes tokens, sessions (the access token is refused and live streams
// end at once), pending counts, mutes and the user, keeps the messages as from "A former member", frees the
// email; a consultant who owns channels, a wrong password, someone else's account and a second deletion are
// refused with nothing changed.
import { SESSION_ENDED_MESSAGE } from '../../core/errors';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import {
  ACCOUNT_EXPORT_FORMAT,
  ACCOUNT_EXPORT_VERSION,
  FORMER_MEMBER_ID,
  FORMER_MEMBER_NAME,
} from '../../core/leaving';
import type { AccountExport } from '../../core/leaving';
import type { ChatMessage } from '../../core/model';
import { DEMO_EMAILS, DEMO_PASSWORD } from '../../server/demo';
import { pushToken } from '../../drivers/webPushTokens';
import { pngFile } from '../../drivers/sampleFiles';
import { openStream, waitFor } from './support/sse';
import type { LiveStream } from './support/sse';
import { demoIds, expectError, startTestServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

let server: TestServer;
let ids: DemoIds;
beforeEach(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
});
const streams: LiveStream[] = [];
/** A live stream closed after its test even when the test fails midway (an open one would hold the server). */
async function stream(token: string): Promise<LiveStream> {
  const opened = await openStream(server, token);
  streams.push(opened);
  return opened;
}
afterEach(async () => {
  for (const opened of streams.splice(0)) opened.close();
  await server.close();
});

type Role = 'consultant' | 'member' | 'visitor' | 'admin';

const exportOf = (who: Role, uid = ids.uid[who]) =>
  server.request('GET', `/api/users/${uid}/export`, { token: ids.token[who] });
const deleteAccount = (who: Role, password: unknown, uid = ids.uid[who], token = ids.token[who]) =>
  server.request('DELETE', `/api/users/${uid}`, { token, body: { password } });
const rowsOf = (table: string, column: string, value: string) =>
  server.query<Record<string, unknown>>(`SELECT * FROM ${table} WHERE ${column} = ?`, value);

async function send(who: Role, channel: string, text: string): Promise<ChatMessage> {
  const res = await server.request('POST', `/api/channels/${channel}/messages`, {
    token: ids.token[who],
    body: { text },
  });
  expect(res.statusCode).toBe(200);
  return res.json<ChatMessage>();
}

async function addDevice(who: Role, seed: string): Promise<string> {
  const token = pushToken(`leaving-${seed}`);
  const res = await server.request('POST', `/api/users/${ids.uid[who]}/tokens`, {
    token: ids.token[who],
    body: { token, deviceId: `${seed}-phone`, platform: 'web', userAgent: 'Leaving test browser' },
  });
  expect(res.statusCode).toBe(200);
  return token;
}

/** Everything of the member that deletion must remove, counted by table. */
const memberTraces = () => ({
  users: rowsOf('users', 'uid', ids.uid.member).length,
  refreshTokens: rowsOf('refresh_tokens', 'uid', ids.uid.member).length,
  pushTokens: rowsOf('push_tokens', 'uid', ids.uid.member).length,
  pending: rowsOf('pending_notifications', 'uid', ids.uid.member).length,
  mutes: rowsOf('channel_mutes', 'uid', ids.uid.member).length,
  memberships: rowsOf('channel_members', 'uid', ids.uid.member).length,
  messages: rowsOf('messages', 'sender_id', ids.uid.member).length,
});

describe('GET /api/users/:uid/export', () => {
  it("answers a dated JSON file of the account's own data", async () => {
    const sent = await send('member', ids.strategy, 'Something only I wrote');
    await addDevice('member', 'member');
    expect(
      (
        await server.request('PUT', `/api/channels/${ids.strategy}/mute`, {
          token: ids.token.member,
          body: { duration: '8h' },
        })
      ).statusCode,
    ).toBe(200);

    const res = await exportOf('member');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="qupm-data-2026-01-15.json"');
    const data = res.json<AccountExport>();
    expect(data).toMatchObject({
      format: ACCOUNT_EXPORT_FORMAT,
      version: ACCOUNT_EXPORT_VERSION,
      exportedAt: new Date(server.clock.now()).toISOString(),
      account: { uid: ids.uid.member, email: DEMO_EMAILS.member },
      settings: data.account.notificationSettings,
      mutes: { [ids.strategy]: expect.any(Number) },
    });
    expect(data.messages).toContainEqual({
      id: sent.id,
      channelId: ids.strategy,
      channelTitle: 'Strategy Studio',
      text: 'Something only I wrote',
      createdAt: sent.createdAt,
    });
    expect(data.offers.received.length).toBeGreaterThan(0);
    expect(data.invitations.received.map((i) => i.id)).toContain(ids.usedInvitation);
    expect(data.devices).toEqual([
      {
        id: expect.any(String),
        deviceId: 'member-phone',
        platform: 'web',
        userAgent: 'Leaving test browser',
        createdAt: server.clock.now(),
        lastUsed: server.clock.now(),
      },
    ]);
  });

  it('holds no secret and nothing of other accounts', async () => {
    const token = await addDevice('member', 'secret');
    await send('consultant', ids.strategy, 'The consultant wrote this');
    const raw = (await exportOf('member')).body;
    const hashes = server.query<{ password_hash: string }>(
      'SELECT password_hash FROM users WHERE uid = ?',
      ids.uid.member,
    );
    const refresh = server.query<{ token_hash: string }>(
      'SELECT token_hash FROM refresh_tokens WHERE uid = ?',
      ids.uid.member,
    );
    for (const secret of [
      token,
      ids.session.member.refreshToken,
      ids.session.member.accessToken,
      ...hashes.map((r) => r.password_hash),
      ...refresh.map((r) => r.token_hash),
    ]) {
      expect(raw).not.toContain(secret);
    }
    expect(raw).not.toMatch(/password|scrypt|token_hash|refreshToken/i);
    const data = JSON.parse(raw) as AccountExport;
    expect(data.messages.every((m) => m.text !== 'The consultant wrote this')).toBe(true);
    for (const who of ['consultant', 'visitor', 'admin'] as const) {
      expect(raw).not.toContain(DEMO_EMAILS[who]);
    }
  });

  it('refuses another account, existing or not, the same way (an admin too)', async () => {
    const other = expectError(await exportOf('visitor', ids.uid.member), 403, 'PERMISSION_DENIED');
    const unknown = expectError(await exportOf('visitor', 'NoSuchUser0000000001'), 403, 'PERMISSION_DENIED');
    expect(unknown.message).toBe(other.message);
    expectError(await exportOf('admin', ids.uid.member), 403, 'PERMISSION_DENIED');
    expectError(await server.request('GET', `/api/users/${ids.uid.member}/export`), 401, 'UNAUTHENTICATED');
  });
});

describe('DELETE /api/users/:uid', () => {
  it('removes tokens, sessions, pending counts, mutes and the user; the access token is refused at once', async () => {
    await addDevice('member', 'gone');
    await server.request('PUT', `/api/channels/${ids.strategy}/mute`, {
      token: ids.token.member,
      body: { duration: 'forever' },
    });
    await send('consultant', ids.strategy, 'Counted as pending for the member');
    const before = memberTraces();
    expect(before).toMatchObject({ users: 1, pushTokens: 1, pending: 1, mutes: 1, memberships: 1 });
    expect(before.refreshTokens).toBeGreaterThan(0);

    const res = await deleteAccount('member', DEMO_PASSWORD);
    expect({ code: res.statusCode, body: res.json() }).toEqual({ code: 200, body: { success: true } });
    expect(memberTraces()).toEqual({
      users: 0,
      refreshTokens: 0,
      pushTokens: 0,
      pending: 0,
      mutes: 0,
      memberships: 0,
      messages: 0,
    });
    expectError(
      await server.request('GET', `/api/users/${ids.uid.member}`, { token: ids.token.member }),
      401,
      'UNAUTHENTICATED',
    );
    expectError(
      await server.request('POST', '/api/auth/refresh', {
        body: { refreshToken: ids.session.member.refreshToken },
      }),
      401,
      'UNAUTHENTICATED',
    );
    expectError(
      await server.request('POST', '/api/auth/signin', {
        body: { email: DEMO_EMAILS.member, password: DEMO_PASSWORD },
      }),
      401,
      'UNAUTHENTICATED',
      'invalid-credentials',
    );
  });

  it('forgets the mail still waiting for the account, and only its own', async () => {
    // An SMTP server that is not there: mail stays queued for its next attempt.
    const offline = await startTestServer({ mail: { smtpUrl: 'smtp://127.0.0.1:1' } });
    try {
      const offlineIds = await demoIds(offline);
      for (const email of [DEMO_EMAILS.member, DEMO_EMAILS.visitor]) {
        const asked = await offline.request('POST', '/api/auth/password-reset', { body: { email } });
        expect(asked.statusCode).toBe(200);
      }
      const waiting = (email: string) =>
        offline.query(
          "SELECT id FROM mail_jobs WHERE to_address = ? AND state IN ('queued', 'sending')",
          email,
        ).length;
      expect(waiting(DEMO_EMAILS.member)).toBe(1);

      const res = await offline.request('DELETE', `/api/users/${offlineIds.uid.member}`, {
        token: offlineIds.token.member,
        body: { password: DEMO_PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      expect(
        offline.query(
          "SELECT id FROM mail_jobs WHERE to_address = ? AND state = 'queued'",
          DEMO_EMAILS.member,
        ),
      ).toEqual([]);
      expect(waiting(DEMO_EMAILS.visitor)).toBe(1);
    } finally {
      await offline.close();
    }
  });

  it("ends the account's live streams at once, in every session", async () => {
    const second = await server.signIn('member');
    const first = await stream(ids.token.member);
    const other = await stream(second.accessToken);
    const consultant = await stream(ids.token.consultant);
    expect((await deleteAccount('member', DEMO_PASSWORD)).statusCode).toBe(200);
    for (const ended of [first, other]) {
      expect((await ended.next('closing')).data).toEqual({ reason: 'signed-out' });
      await ended.ended;
    }
    expect(consultant.events.some((e) => e.event === 'closing')).toBe(false);
  });

  it('keeps the messages, shown to the others as from "A former member", live and on reading', async () => {
    const mine = await send('member', ids.strategy, 'I was here');
    const consultant = await stream(ids.token.consultant);
    expect((await deleteAccount('member', DEMO_PASSWORD)).statusCode).toBe(200);
    const live = await waitFor(() =>
      consultant.events.find((e) => (e.data as { message?: ChatMessage }).message?.id === mine.id),
    );
    expect(live).toMatchObject({
      event: 'message',
      data: { message: { id: mine.id, text: 'I was here', senderName: FORMER_MEMBER_NAME } },
    });
    const page = await server.request('GET', `/api/channels/${ids.strategy}/messages?limit=100`, {
      token: ids.token.consultant,
    });
    const messages = page.json<{ messages: ChatMessage[] }>().messages;
    const kept = messages.find((m) => m.id === mine.id);
    expect(kept).toMatchObject({ text: 'I was here', senderName: FORMER_MEMBER_NAME });
    expect(kept?.senderId).not.toBe(ids.uid.member);
    // Nothing the others read names the person any more (the others' own words aside): not as a sender, a
    // member, nor in the admin's lists.
    const namesMember = /"(senderName|name|displayName|nickname|title)":"Morgan/;
    for (const url of [
      `/api/channels/${ids.strategy}/messages?limit=100`,
      `/api/channels/${ids.strategy}/members`,
      '/api/channels/overview',
    ]) {
      const body = (await server.request('GET', url, { token: ids.token.consultant })).body;
      expect(body).not.toContain(ids.uid.member);
      expect(body).not.toContain(DEMO_EMAILS.member);
      expect(body).not.toMatch(namesMember);
    }
    const admin = (await server.request('GET', '/api/admin/users', { token: ids.token.admin })).body;
    expect(admin).not.toContain(DEMO_EMAILS.member);
    expect(admin).not.toContain('former-member');
    // The consultant's own export does not name them either.
    const exported = (await exportOf('consultant')).body;
    expect(exported).not.toContain(ids.uid.member);
    expect(exported).not.toContain(DEMO_EMAILS.member);
  });

  it('removes the uploads the person never sent at once, row and file; sent files stay with their messages', async () => {
    const uploadAs = async (name: string) => {
      const res = await server.request(
        'POST',
        `/api/channels/${ids.strategy}/attachments?name=${encodeURIComponent(name)}`,
        { token: ids.token.member, payload: pngFile(4, 4), contentType: 'image/png' },
      );
      expect(res.statusCode).toBe(200);
      return res.json<{ id: string }>().id;
    };
    const sent = await uploadAs('sent.png');
    const sendRes = await server.request('POST', `/api/channels/${ids.strategy}/messages`, {
      token: ids.token.member,
      body: { text: '', attachmentId: sent },
    });
    expect(sendRes.statusCode).toBe(200);
    const unsent = [await uploadAs('draft-1.png'), await uploadAs('draft-2.png')];
    const folder = path.join(server.dir, 'attachments');
    expect(readdirSync(folder).sort()).toEqual([sent, ...unsent].sort());

    expect((await deleteAccount('member', DEMO_PASSWORD)).statusCode).toBe(200);
    // At once, not at the next day's prune.
    expect(readdirSync(folder)).toEqual([sent]);
    expect(server.query('SELECT id, uploader_id FROM attachments')).toEqual([
      { id: sent, uploader_id: FORMER_MEMBER_ID },
    ]);
  });

  it('lets the email register again, as a new account', async () => {
    expect((await deleteAccount('member', DEMO_PASSWORD)).statusCode).toBe(200);
    const fresh = await server.signUp({ email: DEMO_EMAILS.member, password: 'a new password' });
    expect(fresh.user.uid).not.toBe(ids.uid.member);
    const doc = await server.request('GET', `/api/users/${fresh.user.uid}`, { token: fresh.accessToken });
    expect(doc.json()).toMatchObject({ credits: 0, passCount: 0, effectiveConId: '' });
  });

  it('refuses a consultant who still owns channels, naming them, and changes nothing', async () => {
    const before = server.query('SELECT * FROM users ORDER BY uid');
    const sessions = server.query('SELECT * FROM refresh_tokens ORDER BY token_hash');
    const error = expectError(await deleteAccount('consultant', DEMO_PASSWORD), 400, 'FAILED_PRECONDITION');
    expect(error.message).toMatch(/Strategy Studio/);
    expect(error.message).toMatch(/Hand each one over to another consultant or delete it first/);
    expect(server.query('SELECT * FROM users ORDER BY uid')).toEqual(before);
    expect(server.query('SELECT * FROM refresh_tokens ORDER BY token_hash')).toEqual(sessions);
    expect(
      (await server.request('GET', `/api/users/${ids.uid.consultant}`, { token: ids.token.consultant }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses a wrong password without signing the person out, and rate-limits guessing', async () => {
    const limited = await startTestServer({ rateLimits: { auth: { max: 3, timeWindowMs: 60_000 } } });
    try {
      const own = await demoIds(limited);
      const attempt = (password: string) =>
        limited.request('DELETE', `/api/users/${own.uid.member}`, {
          token: own.token.member,
          body: { password },
        });
      const wrong = expectError(await attempt('not my password'), 403, 'PERMISSION_DENIED');
      expect(wrong.message).toBe('That password is not right. Your account has not been deleted.');
      await attempt('still wrong');
      await attempt('wrong again');
      expectError(await attempt(DEMO_PASSWORD), 429, 'RESOURCE_EXHAUSTED');
      expect(limited.query('SELECT uid FROM users WHERE uid = ?', own.uid.member)).toHaveLength(1);
      expect(
        (await limited.request('GET', `/api/users/${own.uid.member}`, { token: own.token.member }))
          .statusCode,
      ).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('refuses another account and a missing password, with nothing changed', async () => {
    expectError(await deleteAccount('visitor', DEMO_PASSWORD, ids.uid.member), 403, 'PERMISSION_DENIED');
    expectError(await deleteAccount('admin', DEMO_PASSWORD, ids.uid.member), 403, 'PERMISSION_DENIED');
    expectError(await deleteAccount('member', ''), 400, 'INVALID_ARGUMENT');
    expectError(await deleteAccount('member', undefined), 400, 'INVALID_ARGUMENT');
    expect(memberTraces().users).toBe(1);
  });

  it('answers a second deletion clearly: the session went with the account', async () => {
    expect((await deleteAccount('member', DEMO_PASSWORD)).statusCode).toBe(200);
    const again = expectError(
      await deleteAccount('member', DEMO_PASSWORD),
      401,
      'UNAUTHENTICATED',
      'session-expired',
    );
    expect(again.message).toBe(SESSION_ENDED_MESSAGE);
    expect(server.query('SELECT uid FROM users WHERE email = ?', DEMO_EMAILS.member)).toEqual([]);
  });
});

// The placeholder that stands for everyone who left ("A former member") is a row messages point at, never an
// account: no address, no password, nothing to sign in as, reset, export or register; and deleting an account
// works whatever addresses others have taken.
describe('the former member', () => {
  const RESERVED_BEFORE = 'former-member@qupm.invalid';

  it('cannot be blocked by someone who signed up with its old address: deletion still answers 200', async () => {
    // Signed up and the link opened: an account holds the address.
    await server.signUp({ email: RESERVED_BEFORE, password: 'squatting here' });
    expect(server.query('SELECT uid FROM users WHERE email = ?', RESERVED_BEFORE)).toHaveLength(1);
    await send('member', ids.strategy, 'A message that must outlive me');
    const res = await deleteAccount('member', DEMO_PASSWORD);
    expect({ code: res.statusCode, body: res.json() }).toEqual({ code: 200, body: { success: true } });
    expect(rowsOf('messages', 'sender_id', ids.uid.member)).toEqual([]);
    // A second person leaves after the first: the placeholder is shared, nothing collides.
    expect((await deleteAccount('visitor', DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('has no address and no password, so nobody signs in as it, resets it or exports it', async () => {
    await send('member', ids.strategy, 'Leaving soon');
    expect((await deleteAccount('member', DEMO_PASSWORD)).statusCode).toBe(200);
    const [sender] = server.query<{ sender_id: string }>(
      "SELECT sender_id FROM messages WHERE text = 'Leaving soon'",
    );
    const placeholder = server.query<{ email: string | null; password_hash: string | null }>(
      'SELECT email, password_hash FROM users WHERE uid = ?',
      sender?.sender_id ?? '',
    );
    expect(placeholder).toEqual([{ email: null, password_hash: null }]);

    // Its old reserved address belongs to nobody: a reset mails nothing, a sign-in is the usual refusal.
    const reset = await server.request('POST', '/api/auth/password-reset', {
      body: { email: RESERVED_BEFORE },
    });
    expect(reset.statusCode).toBe(200);
    expect(server.query('SELECT id FROM mail_jobs WHERE to_address = ?', RESERVED_BEFORE)).toEqual([]);
    expect(
      server.query('SELECT token_hash FROM email_tokens WHERE uid = ?', sender?.sender_id ?? ''),
    ).toEqual([]);
    for (const password of ['', 'anything at all']) {
      const signIn = await server.request('POST', '/api/auth/signin', {
        body: { email: RESERVED_BEFORE, password: password || 'x'.repeat(8) },
      });
      expectError(signIn, 401, 'UNAUTHENTICATED', 'invalid-credentials');
    }
    // Not a user document anyone reads, and not in the admin's list.
    expectError(
      await server.request('GET', `/api/users/${sender?.sender_id ?? ''}`, { token: ids.token.admin }),
      404,
      'NOT_FOUND',
    );
    const admin = await server.request('GET', '/api/admin/users', { token: ids.token.admin });
    expect(admin.body).not.toContain(sender?.sender_id ?? '');
    expectError(
      await server.request('POST', `/api/admin/users/${sender?.sender_id ?? ''}/role`, {
        token: ids.token.admin,
        body: { isOwner: true },
      }),
      404,
      'NOT_FOUND',
    );
  });
});
