// Issuing offers (server/services/offers.ts) over the real server with the demo world: a consultant
// grants a member of their channel a discount, lists what they issued, and the two people concerned are told live
// (and nobody else: shown by order, a later event to them arrives and the offer event came nowhere before it).
import type { IssuedOffer, Offer } from '../../core/model';
import { expectError, withDemoServer, requestsTo } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';
import { demoStreams } from './support/sse';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let server: TestServer;
let ids: DemoIds;
withDemoServer((world) => ({ server, ids } = world));

const { get, post } = requestsTo(() => server);
const rows = (table: 'invitations' | 'offers') =>
  server.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)[0]?.n;

/** One of the demo consultant's services: a new offer names the service it is for. */
const serviceTitled = (title: string) =>
  server.query<{ id: string }>('SELECT id FROM services WHERE title = ?', title)[0]?.id;

describe('POST /api/offers', () => {
  const offer = () => ({
    channelId: ids.strategy,
    userId: ids.uid.member,
    serviceId: serviceTitled('Strategy session'),
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
      serviceId: serviceTitled('Strategy session'),
      status: 'active',
      expiresAt: server.clock.now() + 5 * DAY,
      createdAt: server.clock.now(),
      userId: ids.uid.member,
      userName: 'Morgan',
    });
    const { userId: _userId, userName: _userName, serviceId: _serviceId, ...spec } = issued;
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
    ['a malformed user id', { userId: 'morgan/../admin' }, /userId/],
    ['no service', { serviceId: undefined }, /serviceId: choose the service this offer is for/],
    ['a malformed service id', { serviceId: 'strategy/../x' }, /serviceId/],
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
        serviceId: serviceTitled('Quick check-in'),
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

describe('live events', () => {
  const { open, marker } = demoStreams(() => ({ server, ids }));

  it('tells the person an offer was issued to and its consultant, and nobody else', async () => {
    const member = await open('member');
    const consultant = await open('consultant');
    const visitor = await open('visitor');
    const res = await post(ids.token.consultant, '/api/offers', {
      channelId: ids.strategy,
      userId: ids.uid.member,
      serviceId: serviceTitled('Quick check-in'),
      discountPercent: 5,
      expiresAt: server.clock.now() + DAY,
    });
    expect(res.statusCode).toBe(200);
    expect((await member.next('offers')).data).toEqual({ changed: true });
    expect((await consultant.next('offers')).data).toEqual({ changed: true });
    await marker('visitor');
    expect((await visitor.before('user')).map((e) => e.event)).not.toContain('offers');
  });
});
