import type { Invitation, UserDoc } from '../../core/model';
import { GENEROUS_LIMITS, demoIds, expectError, startTestServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';
import { startSmtpSink } from '../../drivers/smtpSink';
import type { SmtpSink } from '../../drivers/smtpSink';
import { confirmByMail } from './support/mailbox';

let server: TestServer;
let ids: DemoIds;
let sink: SmtpSink;

beforeEach(async () => {
  sink = await startSmtpSink();
  server = await startTestServer({ mail: { smtpUrl: sink.url, publicUrl: 'http://qupm.test' } });
  ids = await demoIds(server);
});
afterEach(async () => {
  await server.close();
  await sink.close();
});

const DAY = 24 * 60 * 60 * 1000;
const read = (token: string, id: string) => server.request('GET', `/api/invitations/${id}`, { token });
const accept = (token: string, id: string) =>
  server.request('POST', `/api/invitations/${id}/accept`, { token });
const activate = (token: string, id: string) =>
  server.request('POST', `/api/invitations/${id}/activate`, { token });
/** Moves the clock; the visitor signs in again since their access token has expired by then. */
const later = async (ms: number): Promise<void> => {
  server.clock.advance(ms);
  ids.token.visitor = (await server.signIn('visitor')).accessToken;
};
const user = async (role: 'visitor' | 'member') =>
  (await server.request('GET', `/api/users/${ids.uid[role]}`, { token: ids.token[role] })).json<UserDoc>();

describe('reading an invitation', () => {
  it('shows the invitee who invites them to what', async () => {
    const res = await read(ids.token.visitor, ids.pendingInvitation);
    expect(res.json<Invitation>()).toEqual({
      id: ids.pendingInvitation,
      channelId: ids.growth,
      channelTitle: 'Growth Clinic',
      consultantId: ids.uid.consultant,
      consultantName: 'Dana',
      inviteeEmail: 'visitor@qupm.demo',
      status: 'pending',
      passes: 2,
      credits: 5,
      expiresAt: server.clock.now() + 7 * DAY,
    });
  });

  it('reads an expired invitation as expired', async () => {
    expect((await read(ids.token.visitor, ids.expiredInvitation)).json<Invitation>().status).toBe('expired');
  });

  it('lets the consultant and an admin read it, and nobody else', async () => {
    expect((await read(ids.token.consultant, ids.pendingInvitation)).statusCode).toBe(200);
    expect((await read(ids.token.admin, ids.pendingInvitation)).statusCode).toBe(200);
    expectError(
      await read(ids.token.member, ids.pendingInvitation),
      403,
      'PERMISSION_DENIED',
      'invitation-not-yours',
    );
  });

  it('answers NOT_FOUND for an unknown id and INVALID_ARGUMENT for a malformed one', async () => {
    expectError(await read(ids.token.visitor, 'AAAAAAAAAAAAAAAAAAAA'), 404, 'NOT_FOUND');
    expectError(await read(ids.token.visitor, 'nope'), 400, 'INVALID_ARGUMENT');
  });
});

describe('GET /api/invitations: the ones waiting for the caller (issue #12)', () => {
  const mine = async (token: string) =>
    (await server.request('GET', '/api/invitations', { token })).json<{ invitations: Invitation[] }>()
      .invitations;

  it('lists the pending, unexpired invitations naming the caller, newest first, as each one reads', async () => {
    server.clock.advance(1000);
    const created = await server.request('POST', '/api/invitations', {
      token: ids.token.consultant,
      body: {
        channelId: ids.strategy,
        inviteeEmail: 'visitor@qupm.demo',
        passes: 0,
        credits: 1,
        expiresAt: server.clock.now() + DAY,
      },
    });
    const newest = created.json<Invitation>();
    // Not the expired one, nor the link invitation that names nobody.
    expect(await mine(ids.token.visitor)).toEqual([
      newest,
      (await read(ids.token.visitor, ids.pendingInvitation)).json<Invitation>(),
    ]);
  });

  it('drops one once it is accepted', async () => {
    await accept(ids.token.visitor, ids.pendingInvitation);
    expect(await mine(ids.token.visitor)).toEqual([]);
  });

  it('drops one once its date passes', async () => {
    await later(8 * DAY);
    expect(await mine(ids.token.visitor)).toEqual([]);
  });

  it('lists nothing for someone invited to nothing open, the consultant included', async () => {
    expect(await mine(ids.token.member)).toEqual([]);
    expect(await mine(ids.token.consultant)).toEqual([]);
  });

  it('needs a session', async () => {
    expectError(await server.request('GET', '/api/invitations'), 401, 'UNAUTHENTICATED');
  });
});

describe('accepting and activating', () => {
  it('accept joins the channel and connects the visitor to the consultant', async () => {
    const res = await accept(ids.token.visitor, ids.pendingInvitation);
    expect(res.statusCode).toBe(200);
    expect(res.json<Invitation>()).toMatchObject({ status: 'accepted', acceptedBy: ids.uid.visitor });
    const mine = await server.request('GET', '/api/channels?mine=true', { token: ids.token.visitor });
    expect(mine.json<{ channels: Array<{ id: string }> }>().channels.map((c) => c.id)).toEqual([ids.growth]);
    expect((await user('visitor')).effectiveConId).toBe(ids.uid.consultant);
    // Joining makes them a member: canMessage.
    const sent = await server.request('POST', `/api/channels/${ids.growth}/messages`, {
      token: ids.token.visitor,
      body: { text: 'Hello, glad to be here.' },
    });
    expect(sent.statusCode).toBe(200);
  });

  it('a second accept answers FAILED_PRECONDITION invitation-used', async () => {
    await accept(ids.token.visitor, ids.pendingInvitation);
    expectError(
      await accept(ids.token.visitor, ids.pendingInvitation),
      400,
      'FAILED_PRECONDITION',
      'invitation-used',
    );
  });

  it('activation grants the passes and credits once', async () => {
    await accept(ids.token.visitor, ids.pendingInvitation);
    const res = await activate(ids.token.visitor, ids.pendingInvitation);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ invitation: Invitation; user: UserDoc }>();
    expect(body.invitation.status).toBe('activated');
    expect(body.user).toMatchObject({ uid: ids.uid.visitor, passCount: 2, credits: 5 });
    expectError(
      await activate(ids.token.visitor, ids.pendingInvitation),
      400,
      'FAILED_PRECONDITION',
      'invitation-used',
    );
    expect(await user('visitor')).toMatchObject({ passCount: 2, credits: 5 });
  });

  it('refuses to activate before accepting', async () => {
    expectError(
      await activate(ids.token.visitor, ids.pendingInvitation),
      400,
      'FAILED_PRECONDITION',
      'invitation-not-accepted',
    );
  });

  it('refuses an invitation addressed to someone else, for accept and activate', async () => {
    expectError(
      await accept(ids.token.member, ids.pendingInvitation),
      403,
      'PERMISSION_DENIED',
      'invitation-not-yours',
    );
    await accept(ids.token.visitor, ids.pendingInvitation);
    expectError(
      await activate(ids.token.member, ids.pendingInvitation),
      403,
      'PERMISSION_DENIED',
      'invitation-not-yours',
    );
    expect(await user('member')).toMatchObject({ passCount: 1, credits: 3 });
  });

  it('refuses an expired invitation', async () => {
    expectError(
      await accept(ids.token.visitor, ids.expiredInvitation),
      400,
      'FAILED_PRECONDITION',
      'invitation-expired',
    );
    await later(8 * DAY);
    expectError(
      await accept(ids.token.visitor, ids.pendingInvitation),
      400,
      'FAILED_PRECONDITION',
      'invitation-expired',
    );
  });

  it('refuses to activate an accepted invitation after it expired', async () => {
    await accept(ids.token.visitor, ids.pendingInvitation);
    await later(8 * DAY);
    expectError(
      await activate(ids.token.visitor, ids.pendingInvitation),
      400,
      'FAILED_PRECONDITION',
      'invitation-expired',
    );
    expect(await user('visitor')).toMatchObject({ passCount: 0, credits: 0 });
  });

  it('answers a used invitation as used', async () => {
    expectError(
      await activate(ids.token.member, ids.usedInvitation),
      400,
      'FAILED_PRECONDITION',
      'invitation-used',
    );
  });

  it('answers NOT_FOUND for an unknown invitation, after the session check', async () => {
    expectError(await accept(ids.token.visitor, 'AAAAAAAAAAAAAAAAAAAA'), 404, 'NOT_FOUND');
    expectError(await activate(ids.token.visitor, 'AAAAAAAAAAAAAAAAAAAA'), 404, 'NOT_FOUND');
    expectError(
      await server.request('POST', '/api/invitations/AAAAAAAAAAAAAAAAAAAA/accept'),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('grants once even when two activations race', async () => {
    await accept(ids.token.visitor, ids.pendingInvitation);
    const results = await Promise.all([
      activate(ids.token.visitor, ids.pendingInvitation),
      activate(ids.token.visitor, ids.pendingInvitation),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(await user('visitor')).toMatchObject({ passCount: 2, credits: 5 });
  });
});

describe('POST /api/invitations (a consultant invites to their channel)', () => {
  const YEAR = 366 * DAY;
  const post = (token: string | undefined, url: string, body?: unknown) =>
    server.request('POST', url, {
      ...(token === undefined ? {} : { token }),
      ...(body === undefined ? {} : { body }),
    });
  const get = (token: string | undefined, url: string) =>
    server.request('GET', url, token === undefined ? {} : { token });
  const rows = (table: 'invitations' | 'offers') =>
    server.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)[0]?.n;

  const invite = () => ({
    channelId: ids.growth,
    inviteeEmail: '  Nia.Okafor@Example.com ',
    passes: 2,
    credits: 4,
    expiresAt: server.clock.now() + 7 * DAY,
  });

  it('lets the owner invite someone by email; the invitee can then read and accept it, and joins', async () => {
    const res = await post(ids.token.consultant, '/api/invitations', invite());
    expect(res.statusCode).toBe(200);
    const invitation = res.json<Invitation>();
    expect(invitation).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      channelId: ids.growth,
      channelTitle: 'Growth Clinic',
      consultantId: ids.uid.consultant,
      consultantName: 'Dana',
      inviteeEmail: 'nia.okafor@example.com',
      status: 'pending',
      passes: 2,
      credits: 4,
      expiresAt: server.clock.now() + 7 * DAY,
    });
    const listed = (await get(ids.token.consultant, `/api/channels/${ids.growth}/invitations`)).json<{
      invitations: Invitation[];
    }>().invitations;
    expect(listed[0]).toEqual(invitation);

    await post(undefined, '/api/auth/signup', {
      email: 'nia.okafor@example.com',
      password: 'nia-password-1',
      displayName: 'Nia',
    });
    // Hers once her account exists, made by the link mailed to the address it names (which confirms it).
    await confirmByMail(server, sink, 'nia.okafor@example.com');
    const nia = (
      await post(undefined, '/api/auth/signin', {
        email: 'nia.okafor@example.com',
        password: 'nia-password-1',
      })
    ).json<{ accessToken: string; user: { uid: string } }>();
    expect((await get(nia.accessToken, `/api/invitations/${invitation.id}`)).json()).toEqual(invitation);
    const accepted = await post(nia.accessToken, `/api/invitations/${invitation.id}/accept`);
    expect(accepted.json()).toMatchObject({ status: 'accepted', acceptedBy: nia.user.uid });
    const activated = await post(nia.accessToken, `/api/invitations/${invitation.id}/activate`);
    expect(activated.json()).toMatchObject({ user: { passCount: 2, credits: 4 } });
    expect(
      server.query(
        'SELECT uid FROM channel_members WHERE channel_id = ? AND uid = ?',
        ids.growth,
        nia.user.uid,
      ),
    ).toHaveLength(1);
  });

  it('makes an invitation without an email one anyone with the link may accept, once', async () => {
    const { inviteeEmail: _none, ...open } = invite();
    const invitation = (await post(ids.token.consultant, '/api/invitations', open)).json<Invitation>();
    expect(invitation).not.toHaveProperty('inviteeEmail');
    expect((await post(ids.token.visitor, `/api/invitations/${invitation.id}/accept`)).statusCode).toBe(200);
    expectError(
      await post(ids.token.member, `/api/invitations/${invitation.id}/accept`),
      400,
      'FAILED_PRECONDITION',
    );
  });

  it.each(['member', 'visitor', 'admin'] as const)(
    'refuses the %s, who does not own the channel',
    async (role) => {
      const before = rows('invitations');
      expectError(await post(ids.token[role], '/api/invitations', invite()), 403, 'PERMISSION_DENIED');
      expect(rows('invitations')).toBe(before);
    },
  );

  it('answers NOT_FOUND for a channel that does not exist', async () => {
    expectError(
      await post(ids.token.consultant, '/api/invitations', {
        ...invite(),
        channelId: 'NoSuchChannel0000001',
      }),
      404,
      'NOT_FOUND',
    );
  });

  it.each<[string, (input: ReturnType<typeof invite>) => unknown]>([
    ['an expiry in the past', (input) => ({ ...input, expiresAt: server.clock.now() - 1 })],
    ['an expiry of right now', (input) => ({ ...input, expiresAt: server.clock.now() })],
    ['an expiry over a year ahead', (input) => ({ ...input, expiresAt: server.clock.now() + YEAR + 1 })],
    ['negative passes', (input) => ({ ...input, passes: -1 })],
    ['over 1000 credits', (input) => ({ ...input, credits: 1001 })],
    ['half a pass', (input) => ({ ...input, passes: 1.5 })],
    ['an email that is not one', (input) => ({ ...input, inviteeEmail: 'not-an-email' })],
    ["the consultant's own email", (input) => ({ ...input, inviteeEmail: 'CONSULTANT@qupm.demo' })],
    ['a channel handle instead of its id', (input) => ({ ...input, channelId: 'growth-clinic' })],
    ['a status of its own choosing', (input) => ({ ...input, status: 'accepted' })],
    ['no expiry', ({ expiresAt: _none, ...input }) => input],
  ])('refuses %s as INVALID_ARGUMENT, and stores nothing', async (_label, change) => {
    const before = rows('invitations');
    expectError(
      await post(ids.token.consultant, '/api/invitations', change(invite())),
      400,
      'INVALID_ARGUMENT',
    );
    expect(rows('invitations')).toBe(before);
  });

  it('accepts an expiry of exactly a year ahead', async () => {
    const res = await post(ids.token.consultant, '/api/invitations', {
      ...invite(),
      expiresAt: server.clock.now() + YEAR,
    });
    expect(res.statusCode).toBe(200);
  });

  it('checks the session before the body', async () => {
    expectError(await post(undefined, '/api/invitations', { channelId: 'x' }), 401, 'UNAUTHENTICATED');
  });
});

describe('an invitation’s preview, for anyone with the link (issue #13 part 8)', () => {
  const preview = (id: string, headers: Record<string, string> = {}) =>
    server.request('GET', `/api/invitations/${id}/preview`, { headers });

  it('answers without a session: who invites to which channel, what it grants, until when, and no more', async () => {
    const res = await preview(ids.pendingInvitation);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toStrictEqual({
      id: ids.pendingInvitation,
      consultantName: 'Dana',
      channelTitle: 'Growth Clinic',
      passes: 2,
      credits: 5,
      expiresAt: server.clock.now() + 7 * DAY,
      state: 'open',
      forOneEmail: true,
    });
    expect(res.body).not.toMatch(/visitor@qupm\.demo|consultantId|channelId|acceptedBy/);
  });

  it('says used once accepted, and expired past its date', async () => {
    expect((await accept(ids.token.visitor, ids.pendingInvitation)).statusCode).toBe(200);
    expect((await preview(ids.pendingInvitation)).json<{ state: string }>().state).toBe('used');
    expect((await preview(ids.expiredInvitation)).json<{ state: string }>().state).toBe('expired');
  });

  it('tells someone else reading a used invitation that it was used', async () => {
    expect((await accept(ids.token.visitor, ids.pendingInvitation)).statusCode).toBe(200);
    expectError(
      await read(ids.token.member, ids.pendingInvitation),
      400,
      'FAILED_PRECONDITION',
      'invitation-used',
    );
  });

  it('answers NOT_FOUND for no such invitation and INVALID_ARGUMENT for a malformed id', async () => {
    expectError(await preview('NoSuchInvite00000001'), 404, 'NOT_FOUND');
    expectError(await preview('..%2F..%2Fetc'), 400, 'INVALID_ARGUMENT');
  });
});

describe('previews are limited per address', () => {
  let limited: TestServer;
  afterEach(() => limited.close());

  it('refuses a visitor who goes through ids faster than a person could', async () => {
    limited = await startTestServer({
      rateLimits: { ...GENEROUS_LIMITS, invitationPreview: { max: 3, timeWindowMs: 60_000 } },
    });
    const codes: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      codes.push(
        (await limited.request('GET', `/api/invitations/NoSuchInvite0000000${i}/preview`)).statusCode,
      );
    }
    expect(codes).toEqual([404, 404, 404, 429, 429]);
  });
});
