// Change of email, end to end over the real server and a real SMTP server: the current
// password is required; the new address gets a link, and only that link makes the change; the old address is then
// told and no longer signs in; invitations bound to the new address become the account's.
import { EMAIL_CHANGE_MESSAGES } from '../../core/emailLinks';
import type { Invitation } from '../../core/model';
import type { SessionResponse } from '../../core/wire';
import { DEMO_EMAILS, DEMO_PASSWORD } from '../../server/demo';
import { startSmtpSink } from '../../drivers/smtpSink';
import type { SmtpSink } from '../../drivers/smtpSink';
import { mailedToken } from './support/mailbox';
import { demoIds, expectError, startTestServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

jest.setTimeout(20_000);

const DAY = 24 * 60 * 60 * 1000;
const NEW = 'morgan.new@example.com';

let sink: SmtpSink;
let server: TestServer;
let ids: DemoIds;
beforeEach(async () => {
  sink = await startSmtpSink();
  server = await startTestServer({ mail: { smtpUrl: sink.url, publicUrl: 'https://qupm.example.com' } });
  ids = await demoIds(server);
});
afterEach(async () => {
  await server.close();
  await sink.close();
});

const change = (token: string, body: unknown) => server.request('POST', '/api/auth/email', { token, body });
const signIn = (email: string, password = DEMO_PASSWORD) =>
  server.request('POST', '/api/auth/signin', { body: { email, password } });

describe('changing the email address', () => {
  it('changes nothing until the link mailed to the new address is used; then the old one is told', async () => {
    const res = await change(ids.token.member, { password: DEMO_PASSWORD, newEmail: NEW });
    expect(res.json()).toEqual({ email: NEW });
    const { mail, token } = await mailedToken(sink, NEW, '/verify-email');
    expect(mail.subject).toBe('Confirm your new email address for QuPM');
    // Not yet: the old address still signs in, the new one does not.
    expect((await signIn(DEMO_EMAILS.member)).statusCode).toBe(200);
    expectError(await signIn(NEW), 401, 'UNAUTHENTICATED');

    // An invitation for the new address, made before the change, is not the member's yet.
    const invitation = (
      await server.request('POST', '/api/invitations', {
        token: ids.token.consultant,
        body: {
          channelId: ids.growth,
          inviteeEmail: NEW,
          passes: 1,
          credits: 1,
          expiresAt: server.clock.now() + DAY,
        },
      })
    ).json<Invitation>();
    expect((await server.request('GET', '/api/invitations', { token: ids.token.member })).json()).toEqual({
      invitations: [],
    });

    const done = await server.request('POST', '/api/auth/verify-email', { body: { token } });
    expect(done.json()).toEqual({ email: NEW, emailVerified: true });
    expectError(await signIn(DEMO_EMAILS.member), 401, 'UNAUTHENTICATED');
    const fresh = (await signIn(NEW)).json<SessionResponse>();
    expect(fresh.user.email).toBe(NEW);
    const notice = await sink.next((m) => m.envelopeTo.includes(DEMO_EMAILS.member));
    expect(notice.subject).toBe('Your QuPM email address was changed');
    expect(notice.text).toContain(NEW);
    // The invitation is now theirs, even with the access token issued before the change.
    const mine = await server.request('GET', '/api/invitations', { token: ids.token.member });
    expect(mine.json<{ invitations: Invitation[] }>().invitations.map((i) => i.id)).toEqual([invitation.id]);
    // The link works once.
    expectError(
      await server.request('POST', '/api/auth/verify-email', { body: { token } }),
      400,
      'FAILED_PRECONDITION',
    );
  });

  it('needs the current password, a different address, and one no other account has', async () => {
    const wrong = expectError(
      await change(ids.token.member, { password: 'not-it', newEmail: NEW }),
      403,
      'PERMISSION_DENIED',
    );
    expect(wrong.message).toBe(EMAIL_CHANGE_MESSAGES.wrongPassword);
    expectError(
      await change(ids.token.member, { password: DEMO_PASSWORD, newEmail: 'Member@QuPM.demo' }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(
      await change(ids.token.member, { password: DEMO_PASSWORD, newEmail: DEMO_EMAILS.visitor }),
      409,
      'ALREADY_EXISTS',
    );
    expectError(
      await change(ids.token.member, { password: DEMO_PASSWORD, newEmail: 'a@b\r\nBcc: x@evil.test' }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(
      await server.request('POST', '/api/auth/email', { body: { password: DEMO_PASSWORD, newEmail: NEW } }),
      401,
      'UNAUTHENTICATED',
    );
    expect(server.query("SELECT id FROM mail_jobs WHERE kind = 'change-email'")).toEqual([]);
  });

  it('refuses the link when another account took the address meanwhile', async () => {
    await change(ids.token.member, { password: DEMO_PASSWORD, newEmail: NEW });
    const { token } = await mailedToken(sink, NEW, '/verify-email');
    await server.signUp({ email: NEW, password: 'a-good-password' });
    expectError(
      await server.request('POST', '/api/auth/verify-email', { body: { token } }),
      400,
      'FAILED_PRECONDITION',
      'email-taken',
    );
    expect((await signIn(DEMO_EMAILS.member)).statusCode).toBe(200);
  });
});
