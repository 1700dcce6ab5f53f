// Email verification, end to end over the real server and a real SMTP server: an account whose
// address is not confirmed (one from before sign-up confirmed it) is mailed a link that confirms it; the link
// works once, for 24 hours; asking again is rate-limited per address and
// per IP; and the invitation hijack of the issue is closed: an account that registered someone else's address
// first can neither see, nor hear of, nor accept an invitation bound to it, until it confirms the address.
import type { Invitation } from '../../core/model';
import { EMAIL_LINK_MESSAGES } from '../../core/emailLinks';
import { INVITATION_MESSAGES } from '../../core/invitations';
import type { SessionResponse } from '../../core/wire';
import { startSmtpSink } from '../../drivers/smtpSink';
import type { SmtpSink } from '../../drivers/smtpSink';
import { confirmByMail, mailedToken } from './support/mailbox';
import { openStream } from './support/sse';
import { GENEROUS_LIMITS, demoIds, expectError, legacyAccount, startTestServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

jest.setTimeout(20_000);

const DAY = 24 * 60 * 60 * 1000;
const PUBLIC = 'https://qupm.example.com';

let sink: SmtpSink;
let server: TestServer;
let ids: DemoIds;
beforeEach(async () => {
  sink = await startSmtpSink();
  server = await startTestServer({ mail: { smtpUrl: sink.url, publicUrl: PUBLIC } });
  ids = await demoIds(server);
});
afterEach(async () => {
  await server.close();
  await sink.close();
});

/**
 * An account whose address is not confirmed, signed in, that asked for a confirmation link. Sign-up confirms the
 * address it makes an account for (__tests__/server/signUp.test.ts), so such accounts are the ones made before it
 * did: made here in the server's database, as they are left there.
 */
async function signUp(email: string, displayName?: string): Promise<SessionResponse> {
  await legacyAccount(server, {
    email,
    password: 'a-good-password',
    ...(displayName ? { displayName } : {}),
  });
  const res = await server.request('POST', '/api/auth/signin', {
    body: { email, password: 'a-good-password' },
  });
  expect(res.statusCode).toBe(200);
  const session = res.json<SessionResponse>();
  const asked = await server.request('POST', '/api/auth/verify-email/send', { token: session.accessToken });
  expect(asked.json()).toEqual({ email, emailVerified: false });
  return session;
}
const state = (token: string) => server.request('GET', '/api/auth/verify-email', { token });
const verify = (token: string) => server.request('POST', '/api/auth/verify-email', { body: { token } });

describe('an account whose address is not confirmed', () => {
  it('is mailed a link on the public origin that confirms the address', async () => {
    const nia = await signUp('nia@example.com', 'Nia');
    expect(state(nia.accessToken).then((res) => res.json())).resolves.toEqual({
      email: 'nia@example.com',
      emailVerified: false,
    });
    const { mail, token } = await mailedToken(sink, 'nia@example.com', '/verify-email');
    expect(mail.subject).toBe('Confirm your email address for QuPM');
    expect(mail.text).toContain('Hello Nia,');
    expect(mail.links).toEqual([`${PUBLIC}/verify-email?token=${token}`]);
    expect(mail.html).toContain(`href="${PUBLIC}/verify-email?token=${token}"`);

    const res = await verify(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email: 'nia@example.com', emailVerified: true });
    expect((await state(nia.accessToken)).json()).toEqual({ email: 'nia@example.com', emailVerified: true });
  });

  it('answers without waiting for a slow SMTP server; the mail follows when it answers', async () => {
    sink.hold();
    await signUp('patient@example.com');
    const jobs = server.query<{ state: string }>("SELECT state FROM mail_jobs WHERE kind = 'verify-email'");
    expect(jobs.map((job) => job.state).every((s) => s === 'queued' || s === 'sending')).toBe(true);
    sink.release();
    await mailedToken(sink, 'patient@example.com', '/verify-email');
  });

  it("confirms the demo world's accounts from the start", async () => {
    expect((await state(ids.token.member)).json()).toEqual({
      email: 'member@qupm.demo',
      emailVerified: true,
    });
  });
});

describe('the link', () => {
  it('works once', async () => {
    await signUp('once@example.com');
    const { token } = await mailedToken(sink, 'once@example.com', '/verify-email');
    expect((await verify(token)).statusCode).toBe(200);
    const again = expectError(await verify(token), 400, 'FAILED_PRECONDITION');
    expect(again.message).toBe(EMAIL_LINK_MESSAGES.verifyUsed);
  });

  it('expires after 24 hours', async () => {
    const late = await signUp('late@example.com');
    const { token } = await mailedToken(sink, 'late@example.com', '/verify-email');
    server.clock.advance(DAY);
    const expired = expectError(await verify(token), 400, 'FAILED_PRECONDITION');
    expect(expired.message).toBe(EMAIL_LINK_MESSAGES.verifyExpired);
    expect(
      (
        await state(
          (
            await server.request('POST', '/api/auth/refresh', { body: { refreshToken: late.refreshToken } })
          ).json<SessionResponse>().accessToken,
        )
      ).json(),
    ).toMatchObject({ emailVerified: false });
  });

  it('refuses a forged, malformed or missing token with words for a person', async () => {
    const forged = expectError(await verify('A'.repeat(43)), 400, 'INVALID_ARGUMENT');
    expect(forged.message).toBe(EMAIL_LINK_MESSAGES.invalid);
    for (const body of [
      { token: 'short' },
      { token: 'x'.repeat(300) },
      { token: 'a b c d e f g h i j k l m' },
      {},
      { token: 5 },
    ]) {
      expectError(await server.request('POST', '/api/auth/verify-email', { body }), 400, 'INVALID_ARGUMENT');
    }
  });

  it('does not confirm with a password-reset link', async () => {
    await signUp('mixed@example.com');
    await server.request('POST', '/api/auth/password-reset', { body: { email: 'mixed@example.com' } });
    const { token } = await mailedToken(sink, 'mixed@example.com', '/reset-password');
    expectError(await verify(token), 400, 'INVALID_ARGUMENT');
  });
});

describe('asking for another link', () => {
  it('mails a new one to a signed-in person whose address is not confirmed, and nothing once it is', async () => {
    const sam = await signUp('sam@example.com');
    await mailedToken(sink, 'sam@example.com', '/verify-email');
    const res = await server.request('POST', '/api/auth/verify-email/send', { token: sam.accessToken });
    expect(res.json()).toEqual({ email: 'sam@example.com', emailVerified: false });
    const { token } = await mailedToken(sink, 'sam@example.com', '/verify-email');
    await verify(token);
    const after = await server.request('POST', '/api/auth/verify-email/send', { token: sam.accessToken });
    expect(after.json()).toEqual({ email: 'sam@example.com', emailVerified: true });
    const mailsTo = () =>
      server.query("SELECT id FROM mail_jobs WHERE to_address = 'sam@example.com'").length;
    expect(mailsTo()).toBe(2);
  });

  it('needs a session', async () => {
    expectError(await server.request('POST', '/api/auth/verify-email/send'), 401, 'UNAUTHENTICATED');
    expectError(await server.request('GET', '/api/auth/verify-email'), 401, 'UNAUTHENTICATED');
  });

  it('is rate-limited per address and per IP', async () => {
    const limited = await startTestServer({
      rateLimits: {
        ...GENEROUS_LIMITS,
        mailPerAddress: { max: 2, timeWindowMs: 60_000 },
        mailPerIp: { max: 5, timeWindowMs: 60_000 },
      },
    });
    try {
      const session = async (email: string) => {
        await legacyAccount(limited, { email, password: 'a-good-password' });
        return (
          await limited.request('POST', '/api/auth/signin', { body: { email, password: 'a-good-password' } })
        ).json<SessionResponse>().accessToken;
      };
      const send = (token: string) => limited.request('POST', '/api/auth/verify-email/send', { token });
      const flood = await session('flood@example.com');
      expect((await send(flood)).statusCode).toBe(200);
      expect((await send(flood)).statusCode).toBe(200);
      const refused = expectError(await send(flood), 429, 'RESOURCE_EXHAUSTED');
      expect(refused.message).toBe(EMAIL_LINK_MESSAGES.tooManyMails);
      // Other addresses from the same IP (three asks counted so far): two more, then the IP's own limit.
      expect((await send(await session('other1@example.com'))).statusCode).toBe(200);
      expect((await send(await session('other2@example.com'))).statusCode).toBe(200);
      expectError(await send(await session('other3@example.com')), 429, 'RESOURCE_EXHAUSTED');
      const queued = limited.query<{ n: number }>(
        "SELECT COUNT(*) AS n FROM mail_jobs WHERE to_address = 'flood@example.com'",
      )[0]?.n;
      // The two asked for.
      expect(queued).toBe(2);
    } finally {
      await limited.close();
    }
  });
});

describe('the invitation hijack (issue #15)', () => {
  it('an unconfirmed account that registered the address first can neither see nor accept its invitation; once confirmed it can', async () => {
    // An account from before sign-up confirmed addresses holds the invitee's address unconfirmed (the attacker
    // registered it before the real person), and listens.
    const thief = await signUp('invitee@example.com');
    const stream = await openStream(server, thief.accessToken);
    const created = await server.request('POST', '/api/invitations', {
      token: ids.token.consultant,
      body: {
        channelId: ids.growth,
        inviteeEmail: 'invitee@example.com',
        passes: 2,
        credits: 4,
        expiresAt: server.clock.now() + 7 * DAY,
      },
    });
    expect(created.statusCode).toBe(200);
    const invitation = created.json<Invitation>();
    // A marker the thief's stream does get, published after the invitation: nothing about it came before.
    await server.request('PATCH', `/api/users/${thief.user.uid}`, {
      token: thief.accessToken,
      body: { nickname: 'T' },
    });
    const before = await stream.before('user');
    expect(before.filter((event) => event.event === 'invitations')).toEqual([]);

    expect((await server.request('GET', '/api/invitations', { token: thief.accessToken })).json()).toEqual({
      invitations: [],
    });
    expectError(
      await server.request('GET', `/api/invitations/${invitation.id}`, { token: thief.accessToken }),
      403,
      'PERMISSION_DENIED',
    );
    const refused = expectError(
      await server.request('POST', `/api/invitations/${invitation.id}/accept`, { token: thief.accessToken }),
      403,
      'PERMISSION_DENIED',
      'email-not-verified',
    );
    expect(refused.message).toBe(INVITATION_MESSAGES.emailNotVerified);
    expectError(
      await server.request('POST', `/api/invitations/${invitation.id}/activate`, {
        token: thief.accessToken,
      }),
      403,
      'PERMISSION_DENIED',
    );
    expect(server.query('SELECT status FROM invitations WHERE id = ?', invitation.id)).toEqual([
      { status: 'pending' },
    ]);

    // Whoever can read the inbox of the address confirms it: the open stream hears at once, and it is theirs.
    await confirmByMail(server, sink, 'invitee@example.com');
    await stream.next('invitations');
    expect(
      (await server.request('GET', '/api/invitations', { token: thief.accessToken }))
        .json<{ invitations: Invitation[] }>()
        .invitations.map((i) => i.id),
    ).toEqual([invitation.id]);
    const accepted = await server.request('POST', `/api/invitations/${invitation.id}/accept`, {
      token: thief.accessToken,
    });
    expect(accepted.statusCode).toBe(200);
    stream.close();
  });

  it('a confirmed account hears live of an invitation created for its address', async () => {
    const nia = await signUp('nia.live@example.com');
    await confirmByMail(server, sink, 'nia.live@example.com');
    const stream = await openStream(server, nia.accessToken);
    await server.request('POST', '/api/invitations', {
      token: ids.token.consultant,
      body: {
        channelId: ids.growth,
        inviteeEmail: 'nia.live@example.com',
        passes: 1,
        credits: 1,
        expiresAt: server.clock.now() + DAY,
      },
    });
    await stream.next('invitations');
    stream.close();
  });
});

describe('without QUPM_SMTP_URL', () => {
  it('prints the mail to the console, and the printed link makes the account, confirmed', async () => {
    const printed: string[] = [];
    const quiet = await startTestServer({ mail: { print: (text) => printed.push(text) } });
    try {
      await quiet.request('POST', '/api/auth/signup', {
        body: { email: 'console@example.com', password: 'a-good-password' },
      });
      while (printed.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(printed[0]).toContain('To: console@example.com');
      expect(printed[0]).toContain('Subject: Finish creating your QuPM account');
      const link = /http:\/\/localhost:\d+\/verify-email\?token=[\w-]+/.exec(printed[0] ?? '')?.[0];
      expect(link).toBeDefined();
      const token = new URL(link ?? '').searchParams.get('token');
      const res = await quiet.request('POST', '/api/auth/verify-email', { body: { token } });
      expect(res.json()).toEqual({ email: 'console@example.com', emailVerified: true });
    } finally {
      await quiet.close();
    }
  });
});
