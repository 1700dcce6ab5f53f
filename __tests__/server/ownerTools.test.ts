// Issue #6's consultant tools over the real server with the demo world: creating invitations for one's channel
// (which the invitee then accepts), and issuing offers with a discount to its members — with every refusal.
import type { Invitation, IssuedOffer, Offer } from '../../core/model';
import { demoIds, expectError, startTestServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const YEAR = 366 * DAY;

let server: TestServer;
let ids: DemoIds;
beforeEach(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
});
afterEach(() => server.close());

const post = (token: string | undefined, url: string, body?: unknown) =>
  server.request('POST', url, {
    ...(token === undefined ? {} : { token }),
    ...(body === undefined ? {} : { body }),
  });
const get = (token: string | undefined, url: string) =>
  server.request('GET', url, token === undefined ? {} : { token });
const rows = (table: 'invitations' | 'offers') =>
  server.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)[0]?.n;

describe('POST /api/invitations', () => {
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

    const signUp = await post(undefined, '/api/auth/signup', {
      email: 'nia.okafor@example.com',
      password: 'nia-password-1',
      displayName: 'Nia',
    });
    const nia = signUp.json<{ accessToken: string; user: { uid: string } }>();
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

describe('POST /api/offers', () => {
  const offer = () => ({
    channelId: ids.strategy,
    userId: ids.uid.member,
    discountPercent: 30,
    expiresAt: server.clock.now() + 5 * DAY,
  });
  const activeOffers = async (token: string) =>
    (await post(token, '/api/callable/get_user_active_offers', { data: null })).json<{
      result: { offers: Offer[] };
    }>().result.offers;

  it('lets the owner issue a discount to a member, who then has it among their active offers', async () => {
    const res = await post(ids.token.consultant, '/api/offers', offer());
    expect(res.statusCode).toBe(200);
    const issued = res.json<IssuedOffer>();
    expect(issued).toEqual({
      offeringId: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      discountPercent: 30,
      source: 'Consultant offer',
      channelId: ids.strategy,
      status: 'active',
      expiresAt: server.clock.now() + 5 * DAY,
      createdAt: server.clock.now(),
      userId: ids.uid.member,
      userName: 'Morgan',
    });
    const { userId: _userId, userName: _userName, ...spec } = issued;
    expect(await activeOffers(ids.token.member)).toContainEqual(spec);
  });

  it.each([1, 100])('accepts a discount of %i %%', async (discountPercent) => {
    const res = await post(ids.token.consultant, '/api/offers', {
      ...offer(),
      discountPercent,
      source: ' Spring ',
    });
    expect(res.json()).toMatchObject({ discountPercent, source: 'Spring' });
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a discount of 0 %', { discountPercent: 0 }, /at least 1 %/],
    ['a discount below 1 %', { discountPercent: -5 }, /at least 1 %/],
    ['a discount above 100 %', { discountPercent: 101 }, /at most 100 %/],
    ['a fraction of a percent', { discountPercent: 12.5 }, /whole percent/],
    ['a discount as text', { discountPercent: '20' }, /discountPercent/],
    ['an expiry in the past', { expiresAt: 1 }, /expiresAt/],
    ['an expiry over a year ahead', { expiresAt: Number.MAX_SAFE_INTEGER }, /expiresAt/],
    ['a whitespace-only source', { source: '   ' }, /source/],
    ['a source over 80 characters', { source: 's'.repeat(81) }, /source/],
    ['a status of its own choosing', { status: 'used' }, /./],
    ['a malformed user id', { userId: 'morgan' }, /userId/],
  ])(
    'refuses %s as INVALID_ARGUMENT with a clear message, and stores nothing',
    async (_label, change, message) => {
      const before = rows('offers');
      const error = expectError(
        await post(ids.token.consultant, '/api/offers', { ...offer(), ...change }),
        400,
        'INVALID_ARGUMENT',
      );
      expect(error.message).toMatch(message);
      expect(rows('offers')).toBe(before);
    },
  );

  it.each(['member', 'visitor', 'admin'] as const)(
    'refuses the %s, who does not own the channel',
    async (role) => {
      const before = rows('offers');
      expectError(await post(ids.token[role], '/api/offers', offer()), 403, 'PERMISSION_DENIED');
      expect(rows('offers')).toBe(before);
    },
  );

  it('refuses an offer to someone outside the channel, or to the owner themself', async () => {
    const before = rows('offers');
    const priya = server.query<{ uid: string }>("SELECT uid FROM users WHERE email = 'priya@qupm.demo'")[0]
      ?.uid;
    for (const userId of [ids.uid.visitor, priya, 'NoSuchUser0000000001']) {
      const error = expectError(
        await post(ids.token.consultant, '/api/offers', { ...offer(), userId }),
        400,
        'FAILED_PRECONDITION',
      );
      expect(error.message).toMatch(/not a member|members of the channel/);
    }
    const self = expectError(
      await post(ids.token.consultant, '/api/offers', { ...offer(), userId: ids.uid.consultant }),
      400,
      'FAILED_PRECONDITION',
    );
    expect(self.message).toMatch(/yourself/);
    expect(rows('offers')).toBe(before);
  });

  it('answers NOT_FOUND for a channel that does not exist, and checks the session first', async () => {
    expectError(
      await post(ids.token.consultant, '/api/offers', { ...offer(), channelId: 'NoSuchChannel0000001' }),
      404,
      'NOT_FOUND',
    );
    expectError(await post(undefined, '/api/offers', { discountPercent: 500 }), 401, 'UNAUTHENTICATED');
  });
});

describe('GET /api/offers/issued', () => {
  it("answers the offers of the caller's channels, newest first, with whom each went to", async () => {
    const issued = (
      await post(ids.token.consultant, '/api/offers', {
        channelId: ids.growth,
        userId: server.query<{ uid: string }>("SELECT uid FROM users WHERE email = 'leo@qupm.demo'")[0]?.uid,
        discountPercent: 40,
        source: 'Email copy review',
        expiresAt: server.clock.now() + DAY,
      })
    ).json<IssuedOffer>();
    const res = await get(ids.token.consultant, '/api/offers/issued');
    const offers = res.json<{ offers: IssuedOffer[] }>().offers;
    expect(offers[0]).toEqual(issued);
    expect(offers.map((o) => [o.userName, o.discountPercent])).toEqual([
      ['Leo Martins', 40],
      ['Morgan', 20],
      ['Priya', 25],
      ['Morgan', 15],
      ['Morgan', 10],
    ]);
    const times = offers.map((o) => o.createdAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('answers an empty list to someone who issued none', async () => {
    expect((await get(ids.token.member, '/api/offers/issued')).json()).toEqual({ offers: [] });
    expect((await get(ids.token.admin, '/api/offers/issued')).json()).toEqual({ offers: [] });
    expectError(await get(undefined, '/api/offers/issued'), 401, 'UNAUTHENTICATED');
  });
});
