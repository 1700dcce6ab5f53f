// Sign-up tells nobody whether an address has an account, over the real server and a real SMTP server: a new
// address and a taken one get the same answer and no session; the new one is mailed the link that creates its
// account, the taken one's owner is told that someone tried, with a link to choose a new password, at most once
// an hour; and neither can be used to flood an inbox.
import { EMAIL_LINK_MESSAGES } from '../../core/emailLinks';
import { DEMO_EMAILS, DEMO_PASSWORD } from '../../server/demo';
import { startSmtpSink } from '../../drivers/smtpSink';
import type { SmtpSink } from '../../drivers/smtpSink';
import { mailedToken } from './support/mailbox';
import { GENEROUS_LIMITS, expectError, startTestServer } from './support/testServer';
import type { TestServer } from './support/testServer';

jest.setTimeout(20_000);

const HOUR = 60 * 60 * 1000;
const PUBLIC = 'https://qupm.example.com';
const TAKEN = DEMO_EMAILS.member;

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

const signUp = (email: string, password = 'a-good-password', displayName?: string) =>
  server.request('POST', '/api/auth/signup', {
    body: { email, password, ...(displayName === undefined ? {} : { displayName }) },
  });
const signIn = (email: string, password: string) =>
  server.request('POST', '/api/auth/signin', { body: { email, password } });
/** What a client can see of an answer: its status, its body and its headers (less the date and timing). */
const seen = (res: Awaited<ReturnType<typeof signUp>>) => {
  const { date: _date, ...headers } = res.headers;
  return { status: res.statusCode, body: res.body, headers };
};

describe('the answer', () => {
  it('is the same for a new address and a taken one, and is no session either way', async () => {
    const fresh = await signUp('someone.new@example.com');
    const taken = await signUp(TAKEN);
    expect(seen(taken)).toEqual(seen(fresh));
    expect(fresh.json()).toEqual({ success: true });
    expect(fresh.body).not.toMatch(/token|uid|session/i);
  });

  it('is the same whatever the case of a taken address', async () => {
    expect(seen(await signUp(TAKEN.toUpperCase()))).toEqual(seen(await signUp('another.new@example.com')));
  });

  it('creates nothing before the link is opened: a sign-in is refused as for any unknown address', async () => {
    await signUp('not.yet@example.com', 'a-good-password');
    expect(server.query('SELECT uid FROM users WHERE email = ?', 'not.yet@example.com')).toEqual([]);
    const early = expectError(
      await signIn('not.yet@example.com', 'a-good-password'),
      401,
      'UNAUTHENTICATED',
      'invalid-credentials',
    );
    const unknown = expectError(
      await signIn('nobody@example.com', 'a-good-password'),
      401,
      'UNAUTHENTICATED',
      'invalid-credentials',
    );
    expect(early.message).toBe(unknown.message);
  });

  it('leaves the taken account as it was: its password still signs in, the one typed does not', async () => {
    await signUp(TAKEN, 'the-attempted-password');
    expect((await signIn(TAKEN, DEMO_PASSWORD)).statusCode).toBe(200);
    expectError(await signIn(TAKEN, 'the-attempted-password'), 401, 'UNAUTHENTICATED');
  });
});

describe('a new address', () => {
  it('is mailed the link that creates the account, confirmed, with the name given; then it signs in', async () => {
    expect((await signUp('nia@example.com', 'nia-password', 'Nia')).statusCode).toBe(200);
    const { mail, token } = await mailedToken(sink, 'nia@example.com', '/verify-email');
    expect(mail.subject).toBe('Finish creating your QuPM account');
    expect(mail.text).toContain('Hello Nia,');
    expect(mail.links).toEqual([`${PUBLIC}/verify-email?token=${token}`]);

    const opened = await server.request('POST', '/api/auth/verify-email', { body: { token } });
    expect(opened.json()).toEqual({ email: 'nia@example.com', emailVerified: true });
    const session = await signIn('nia@example.com', 'nia-password');
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ user: { email: 'nia@example.com', displayName: 'Nia' } });
    expect(
      (
        await server.request('GET', '/api/auth/verify-email', {
          token: session.json<{ accessToken: string }>().accessToken,
        })
      ).json(),
    ).toEqual({ email: 'nia@example.com', emailVerified: true });
  });

  it('gets one account from two sign-ups: the second link, or the first again, is refused in words', async () => {
    await signUp('twice@example.com', 'first-password');
    const first = (await mailedToken(sink, 'twice@example.com', '/verify-email')).token;
    await signUp('twice@example.com', 'second-password');
    const second = (await mailedToken(sink, 'twice@example.com', '/verify-email')).token;
    expect(
      (await server.request('POST', '/api/auth/verify-email', { body: { token: second } })).statusCode,
    ).toBe(200);
    const again = expectError(
      await server.request('POST', '/api/auth/verify-email', { body: { token: first } }),
      400,
      'FAILED_PRECONDITION',
    );
    expect(again.message).toBe(EMAIL_LINK_MESSAGES.signUpUsed);
    expect(server.query('SELECT uid FROM users WHERE email = ?', 'twice@example.com')).toHaveLength(1);
    // The link opened decides the password.
    expect((await signIn('twice@example.com', 'second-password')).statusCode).toBe(200);
  });

  it('has a link that works for 24 hours only', async () => {
    await signUp('slow@example.com');
    const { token } = await mailedToken(sink, 'slow@example.com', '/verify-email');
    server.clock.advance(24 * HOUR);
    const expired = expectError(
      await server.request('POST', '/api/auth/verify-email', { body: { token } }),
      400,
      'FAILED_PRECONDITION',
    );
    expect(expired.message).toBe(EMAIL_LINK_MESSAGES.signUpExpired);
    expect(server.query('SELECT uid FROM users WHERE email = ?', 'slow@example.com')).toEqual([]);
  });

  it('keeps no password and no token in the clear', async () => {
    await signUp('careful@example.com', 'careful-password');
    const { token } = await mailedToken(sink, 'careful@example.com', '/verify-email');
    const rows = JSON.stringify(server.query('SELECT * FROM sign_up_requests'));
    expect(rows).not.toContain('careful-password');
    expect(rows).not.toContain(token);
  });
});

describe('a taken address', () => {
  it('mails its owner that someone tried, with a link that sets a new password', async () => {
    await signUp(TAKEN, 'an-attempt-1');
    const { mail, token } = await mailedToken(sink, TAKEN, '/reset-password');
    expect(mail.subject).toBe('Someone tried to create a QuPM account with your address');
    expect(mail.text).toContain(`Someone just tried to create a QuPM account with ${TAKEN}.`);
    expect(mail.links).toEqual([`${PUBLIC}/reset-password?token=${token}`]);
    const reset = await server.request('POST', '/api/auth/password-reset/confirm', {
      body: { token, password: 'my new password' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await signIn(TAKEN, 'my new password')).statusCode).toBe(200);
  });

  it('tells its owner once an hour at most, however often someone tries', async () => {
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await signUp(TAKEN, `attempt-${attempt}-pw`)).statusCode).toBe(200);
    }
    server.clock.advance(HOUR - 1);
    await signUp(TAKEN, 'still-within-the-hour');
    server.clock.advance(1);
    await signUp(TAKEN, 'an-hour-later');
    const notices = server.query<{ to_address: string }>(
      "SELECT to_address FROM mail_jobs WHERE kind = 'sign-up-attempt'",
    );
    expect(notices).toEqual([{ to_address: TAKEN }, { to_address: TAKEN }]);
  });
});

describe('the limits', () => {
  it('answer a flood at one address with 429, alike for a new and a taken address', async () => {
    const limited = await startTestServer({
      rateLimits: { ...GENEROUS_LIMITS, mailPerAddress: { max: 2, timeWindowMs: 15 * 60_000 } },
    });
    try {
      const flood = async (email: string) => {
        const answers: number[] = [];
        for (let attempt = 0; attempt < 4; attempt += 1) {
          answers.push(
            (
              await limited.request('POST', '/api/auth/signup', {
                body: { email, password: `pw-attempt-${attempt}` },
              })
            ).statusCode,
          );
        }
        return answers;
      };
      const taken = await flood(TAKEN);
      const fresh = await flood('flood.target@example.com');
      expect(taken).toEqual([200, 200, 429, 429]);
      expect(fresh).toEqual(taken);
      // Two mails at most reached the new address.
      expect(
        limited.query("SELECT id FROM mail_jobs WHERE to_address = 'flood.target@example.com'"),
      ).toHaveLength(2);
    } finally {
      await limited.close();
    }
  });
});
