// Password reset, end to end over the real server and a real SMTP server: the mailed link sets
// a new password once, within an hour, and ends every session the account had (their refresh tokens refused,
// their live streams closed); an unknown address gets the same answer and no mail; floods are rate-limited.
import { EMAIL_LINK_MESSAGES } from '../../core/emailLinks';
import type { SessionResponse } from '../../core/wire';
import { DEMO_EMAILS, DEMO_PASSWORD } from '../../server/demo';
import { startSmtpSink } from '../../drivers/smtpSink';
import type { SmtpSink } from '../../drivers/smtpSink';
import { mailedToken } from './support/mailbox';
import { openStream } from './support/sse';
import { GENEROUS_LIMITS, expectError, legacyAccount, startTestServer } from './support/testServer';
import type { TestServer } from './support/testServer';

jest.setTimeout(20_000);

const HOUR = 60 * 60 * 1000;
const PUBLIC = 'https://qupm.example.com';
const NEW_PASSWORD = 'a-brand-new-password';

let sink: SmtpSink;
let server: TestServer;
beforeEach(async () => {
  sink = await startSmtpSink();
  server = await startTestServer({ mail: { smtpUrl: sink.url, publicUrl: PUBLIC } });
});
afterEach(async () => {
  await server.close();
  await sink.close();
});

const ask = (email: string) => server.request('POST', '/api/auth/password-reset', { body: { email } });
const confirm = (token: string, password = NEW_PASSWORD) =>
  server.request('POST', '/api/auth/password-reset/confirm', { body: { token, password } });
const signIn = (email: string, password: string) =>
  server.request('POST', '/api/auth/signin', { body: { email, password } });
const refresh = (refreshToken: string) =>
  server.request('POST', '/api/auth/refresh', { body: { refreshToken } });

describe('a password reset', () => {
  it('mails a link that sets a new password and ends every session the account had', async () => {
    const phone = (await signIn(DEMO_EMAILS.member, DEMO_PASSWORD)).json<SessionResponse>();
    const laptop = (await signIn(DEMO_EMAILS.member, DEMO_PASSWORD)).json<SessionResponse>();
    const stream = await openStream(server, laptop.accessToken);

    const asked = await ask('Member@QuPM.demo');
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ success: true });
    const { mail, token } = await mailedToken(sink, DEMO_EMAILS.member, '/reset-password');
    expect(mail.subject).toBe('Choose a new password for QuPM');
    expect(mail.links).toEqual([`${PUBLIC}/reset-password?token=${token}`]);
    // Nothing changes until the link is used.
    expect((await signIn(DEMO_EMAILS.member, DEMO_PASSWORD)).statusCode).toBe(200);

    const done = await confirm(token);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ success: true, email: DEMO_EMAILS.member });

    // The old password no longer opens the account; the new one does.
    expectError(
      await signIn(DEMO_EMAILS.member, DEMO_PASSWORD),
      401,
      'UNAUTHENTICATED',
      'invalid-credentials',
    );
    expect((await signIn(DEMO_EMAILS.member, NEW_PASSWORD)).statusCode).toBe(200);
    // Every session from before is over: its refresh token is refused, its live stream closed.
    for (const old of [phone, laptop]) expectError(await refresh(old.refreshToken), 401, 'UNAUTHENTICATED');
    // Their access tokens too, at once, not when they expire.
    for (const old of [phone, laptop]) {
      const read = await server.request('GET', `/api/users/${old.user.uid}`, { token: old.accessToken });
      expect(read.statusCode).toBe(401);
    }
    expect((await stream.next('closing')).data).toEqual({ reason: 'signed-out' });
    await stream.ended;
    // And the account is told what happened.
    const notice = await sink.next((m) => m.envelopeTo.includes(DEMO_EMAILS.member));
    expect(notice.subject).toBe('Your QuPM password was changed');
  });

  it('works once, and only within the hour', async () => {
    await ask(DEMO_EMAILS.visitor);
    const first = await mailedToken(sink, DEMO_EMAILS.visitor, '/reset-password');
    expect((await confirm(first.token)).statusCode).toBe(200);
    const used = expectError(await confirm(first.token, 'yet-another-password'), 400, 'FAILED_PRECONDITION');
    expect(used.message).toBe(EMAIL_LINK_MESSAGES.resetUsed);
    expect((await signIn(DEMO_EMAILS.visitor, NEW_PASSWORD)).statusCode).toBe(200);

    await ask(DEMO_EMAILS.visitor);
    const late = await mailedToken(sink, DEMO_EMAILS.visitor, '/reset-password');
    server.clock.advance(HOUR);
    const expired = expectError(await confirm(late.token, 'too-late-password'), 400, 'FAILED_PRECONDITION');
    expect(expired.message).toBe(EMAIL_LINK_MESSAGES.resetExpired);
    expect((await signIn(DEMO_EMAILS.visitor, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a forged or malformed token, and a password out of bounds without using the link', async () => {
    const forged = expectError(await confirm('B'.repeat(43)), 400, 'INVALID_ARGUMENT');
    expect(forged.message).toBe(EMAIL_LINK_MESSAGES.invalid);
    expectError(await confirm('not a token'), 400, 'INVALID_ARGUMENT');
    await ask(DEMO_EMAILS.admin);
    const { token } = await mailedToken(sink, DEMO_EMAILS.admin, '/reset-password');
    expectError(await confirm(token, 'short'), 400, 'INVALID_ARGUMENT');
    expectError(await confirm(token, 'x'.repeat(129)), 400, 'INVALID_ARGUMENT');
    // The refused passwords did not use the link up.
    expect((await confirm(token)).statusCode).toBe(200);
    for (const body of [{}, { email: 'not-an-address' }, { email: 'a@example.com', extra: 1 }]) {
      expectError(
        await server.request('POST', '/api/auth/password-reset', { body }),
        400,
        'INVALID_ARGUMENT',
      );
    }
  });

  it('answers an unknown address the same, and sends it nothing', async () => {
    const unknown = await ask('nobody@example.com');
    const known = await ask(DEMO_EMAILS.consultant);
    expect({ status: unknown.statusCode, body: unknown.json() }).toEqual({
      status: known.statusCode,
      body: known.json(),
    });
    // The mail that arrives is the known address's; none was queued for the unknown one.
    const first = await sink.next();
    expect(first.envelopeTo).toEqual([DEMO_EMAILS.consultant]);
    expect(server.query("SELECT id FROM mail_jobs WHERE to_address = 'nobody@example.com'")).toEqual([]);
  });

  it("confirms the account's address: the link proved it", async () => {
    // An account from before sign-up confirmed addresses.
    await legacyAccount(server, { email: 'forgetful@example.com', password: 'first-password' });
    const session = (await signIn('forgetful@example.com', 'first-password')).json<SessionResponse>();
    await ask('forgetful@example.com');
    const { token } = await mailedToken(sink, 'forgetful@example.com', '/reset-password');
    await confirm(token);
    const fresh = (await signIn('forgetful@example.com', NEW_PASSWORD)).json<SessionResponse>();
    expect(
      (await server.request('GET', '/api/auth/verify-email', { token: fresh.accessToken })).json(),
    ).toMatchObject({ emailVerified: true });
    expectError(await refresh(session.refreshToken), 401, 'UNAUTHENTICATED');
  });
});

describe('a flood of reset requests', () => {
  it('is limited per address and per IP, with the same answer for known and unknown addresses', async () => {
    const limited = await startTestServer({
      rateLimits: {
        ...GENEROUS_LIMITS,
        mailPerAddress: { max: 3, timeWindowMs: 60_000 },
        mailPerIp: { max: 8, timeWindowMs: 60_000 },
      },
    });
    try {
      const flood = (email: string) =>
        limited.request('POST', '/api/auth/password-reset', { body: { email } });
      for (const email of [DEMO_EMAILS.member, 'ghost@example.com']) {
        for (let i = 0; i < 3; i += 1) expect((await flood(email)).statusCode).toBe(200);
        const refused = expectError(await flood(email), 429, 'RESOURCE_EXHAUSTED');
        expect(refused.message).toBe(EMAIL_LINK_MESSAGES.tooManyMails);
      }
      // Eight asks counted for this IP: the next address is refused too.
      expectError(await flood(DEMO_EMAILS.admin), 429, 'RESOURCE_EXHAUSTED');
      const queued = limited.query<{ to_address: string }>(
        "SELECT to_address FROM mail_jobs WHERE kind = 'reset-password'",
      );
      expect(queued.map((row) => row.to_address)).toEqual([
        DEMO_EMAILS.member,
        DEMO_EMAILS.member,
        DEMO_EMAILS.member,
      ]);
    } finally {
      await limited.close();
    }
  });
});
