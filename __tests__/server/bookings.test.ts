// Bookings on the real server (server/services/bookings.ts) with the demo world, called through the running app's
// context (the routes come with the route table): the whole loop with its ledger entries, card, pushes and
// calendar mail; proposing another time; the 24-hour rule; requests nobody answers; a repeat of an operation; and
// every bad request refused with why, nothing held or taken.
import ICAL from 'ical.js';
import { simpleParser } from 'mailparser';
import type { Booking, Service, Slot } from '../../core/model';
import type { Caller } from '../../core/permissions';
import { pushToken } from '../../drivers/webPushTokens';
import type { OutgoingMail } from '../../server/services/mail';
import {
  acceptProposal,
  cancelBooking,
  completeBooking,
  confirmBooking,
  declineBooking,
  declineProposal,
  expireDueRequests,
  getBooking,
  listMyBookings,
  proposeTime,
  refundBooking,
  requestBooking,
} from '../../server/services/bookings';
import { listFreeSlots, listServices, setAvailability } from '../../server/services/catalog';
import { issueOffer } from '../../server/services/offers';
import { startSmtpSink } from '../../drivers/smtpSink';
import { eventually } from '../support/eventually';
import { demoStreams } from './support/sse';
import { demoIds, startTestServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';
import { balanceOf, callerOf, contextOf, count, opId, unbalanced } from './support/practice';
import { refusal } from '../support/refusal';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let server: TestServer;
let ids: DemoIds;
let sent: OutgoingMail[];

beforeEach(async () => {
  sent = [];
  server = await startTestServer({
    mail: {
      transport: { kind: 'console', send: async (mail) => void sent.push(mail), close: () => undefined },
    },
  });
  ids = await demoIds(server);
});
afterEach(() => server.close());
const live = demoStreams(() => ({ server, ids }));

const as = (role: 'consultant' | 'member' | 'visitor' | 'admin'): Caller => callerOf(ids, role);
const ctx = () => contextOf(server);

function service(title: string): Service {
  const found = listServices(ctx(), as('consultant'), ids.uid.consultant).find((s) => s.title === title);
  if (!found) throw new Error(`no service ${title}`);
  return found;
}

function freeSlots(title: string, days = 7): Slot[] {
  return listFreeSlots(ctx(), as('member'), {
    serviceId: service(title).id,
    from: server.clock.now(),
    to: server.clock.now() + days * DAY,
  }).slots;
}

function book(over: Partial<Parameters<typeof requestBooking>[2]> = {}, who: Caller = as('member')): Booking {
  return requestBooking(ctx(), who, {
    serviceId: service('Strategy session').id,
    startsAt: freeSlots('Strategy session')[0]?.startsAt ?? 0,
    paymentMethod: 'credits',
    clientTimeZone: 'Europe/Paris',
    operationId: opId(),
    ...over,
  });
}

const act = (bookingId: string) => ({ bookingId, operationId: opId() });
const mailsTo = (email: string) => sent.filter((m) => m.to === email);

/** Everything a refused request must leave as it was. */
function snapshot() {
  return {
    bookings: count(server, 'SELECT COUNT(*) AS n FROM bookings'),
    cells: count(server, 'SELECT COUNT(*) AS n FROM booking_cells'),
    ledger: count(server, 'SELECT COUNT(*) AS n FROM ledger'),
    operations: count(server, 'SELECT COUNT(*) AS n FROM operations'),
    messages: count(server, 'SELECT COUNT(*) AS n FROM messages'),
    mails: count(server, 'SELECT COUNT(*) AS n FROM mail_jobs'),
    usedOffers: count(server, `SELECT COUNT(*) AS n FROM offers WHERE status = 'used'`),
    member: balanceOf(server, ids.uid.member),
  };
}

describe('the whole loop', () => {
  it('holds the price at request, takes it at confirmation, and marks it done; every step a card, a push and mail', async () => {
    // The consultant's device, so that the card's push is queued for it.
    const tokenRes = await server.request('POST', `/api/users/${ids.uid.consultant}/tokens`, {
      token: ids.token.consultant,
      body: {
        token: pushToken('dana-laptop'),
        deviceId: 'dana-laptop',
        platform: 'web',
        userAgent: 'Test/1.0',
      },
    });
    expect(tokenRes.statusCode).toBe(200);
    const consultantStream = await live.open('consultant');

    const booking = book();
    expect(booking).toMatchObject({
      state: 'requested',
      payment: { method: 'credits', amount: 3, status: 'held' },
    });
    expect(balanceOf(server, ids.uid.member)).toEqual({ credits: 0, passes: 1 });

    // The card: in the two people's private consultation, by the member, with a push and a pending count.
    const card = server.query<{
      id: string;
      channel_id: string;
      sender_id: string;
      text: string;
      card: string;
    }>('SELECT id, channel_id, sender_id, text, card FROM messages WHERE card IS NOT NULL');
    expect(card).toHaveLength(1);
    expect(card[0]).toMatchObject({
      channel_id: booking.channelId,
      sender_id: ids.uid.member,
      text: 'Requested a session: “Strategy session”',
    });
    expect(JSON.parse(card[0]?.card ?? '{}')).toEqual({
      kind: 'booking',
      bookingId: booking.id,
      event: 'requested',
      serviceTitle: 'Strategy session',
      startsAt: booking.startsAt,
      endsAt: booking.endsAt,
      state: 'requested',
    });
    expect(server.query('SELECT kind, owner_id FROM channels WHERE id = ?', booking.channelId)).toEqual([
      { kind: 'private', owner_id: ids.uid.consultant },
    ]);
    expect(count(server, 'SELECT COUNT(*) AS n FROM push_jobs WHERE message_id = ?', card[0]?.id)).toBe(1);
    expect(
      count(
        server,
        'SELECT count AS n FROM pending_notifications WHERE uid = ? AND source = ?',
        ids.uid.consultant,
        booking.channelId,
      ),
    ).toBe(1);
    expect((await consultantStream.next('booking')).data).toEqual({ booking });
    await consultantStream.next('message');

    server.clock.advance(MINUTE);
    const confirmed = confirmBooking(ctx(), as('consultant'), act(booking.id));
    expect(confirmed).toMatchObject({ state: 'confirmed', sequence: 1, payment: { status: 'captured' } });
    expect(balanceOf(server, ids.uid.member)).toEqual({ credits: 0, passes: 1 });

    server.clock.value = booking.startsAt + 5 * MINUTE;
    const done = completeBooking(ctx(), as('consultant'), act(booking.id));
    expect(done.state).toBe('done');

    const ledger = server.query<{
      kind: string;
      delta_credits: number;
      amount_credits: number;
      booking_id: string | null;
    }>(
      'SELECT kind, delta_credits, amount_credits, booking_id FROM ledger WHERE uid = ? ORDER BY created_at, kind',
      ids.uid.member,
    );
    expect(ledger.map((e) => [e.kind, e.delta_credits, e.amount_credits])).toEqual([
      ['invitation', 3, 3],
      ['hold', -3, 3],
      ['capture', 0, 3],
    ]);
    expect(unbalanced(server)).toEqual([]);

    await eventually(() => expect(sent.length).toBe(4));
    expect(mailsTo('member@qupm.demo').map((m) => [m.subject, m.calendar?.method])).toEqual([
      ['Session requested: Strategy session', 'REQUEST'],
      ['Session confirmed: Strategy session', 'REQUEST'],
    ]);
    expect(mailsTo('consultant@qupm.demo')).toHaveLength(2);
    expect(
      server
        .query('SELECT text FROM messages WHERE card IS NOT NULL ORDER BY created_at, id')
        .map((r) => (r as { text: string }).text),
    ).toEqual([
      'Requested a session: “Strategy session”',
      'Confirmed the session “Strategy session”',
      'Marked the session “Strategy session” as done',
    ]);
    expect(listMyBookings(ctx(), as('consultant'))).toEqual({ upcoming: [], past: [done] });
  });

  it('pays with a pass, and uses an offer once: the discounted price held, the offer used and given back on decline', () => {
    const offer = issueOffer(ctx(), as('consultant'), {
      channelId: ids.strategy,
      userId: ids.uid.member,
      serviceId: service('Strategy session').id,
      discountPercent: 50,
      source: 'Spring',
      expiresAt: server.clock.now() + 5 * DAY,
    });
    const byPass = book({ paymentMethod: 'pass' });
    expect(byPass.payment).toEqual({ method: 'pass', amount: 1, listPrice: 3, status: 'held' });
    const withOffer = book({
      startsAt: freeSlots('Strategy session')[0]?.startsAt ?? 0,
      offerId: offer.offeringId,
      expectedCredits: 1,
    });
    expect(withOffer.payment).toEqual({
      method: 'credits',
      amount: 1,
      listPrice: 3,
      offerId: offer.offeringId,
      discountPercent: 50,
      status: 'held',
    });
    expect(balanceOf(server, ids.uid.member)).toEqual({ credits: 2, passes: 0 });
    expect(server.query('SELECT status FROM offers WHERE id = ?', offer.offeringId)).toEqual([
      { status: 'used' },
    ]);
    // Used once: a second booking with it is refused.
    expect(
      refusal(() =>
        book({ startsAt: freeSlots('Strategy session')[0]?.startsAt ?? 0, offerId: offer.offeringId }),
      ).reason,
    ).toBe('offer-used');

    declineBooking(ctx(), as('consultant'), act(withOffer.id));
    declineBooking(ctx(), as('consultant'), act(byPass.id));
    expect(server.query('SELECT status FROM offers WHERE id = ?', offer.offeringId)).toEqual([
      { status: 'active' },
    ]);
    expect(balanceOf(server, ids.uid.member)).toEqual({ credits: 3, passes: 1 });
    expect(count(server, 'SELECT COUNT(*) AS n FROM booking_cells')).toBe(0);
    expect(unbalanced(server)).toEqual([]);
  });
});

describe('proposing another time', () => {
  it('holds both times until the client answers; accepting moves and confirms, and the calendar follows', () => {
    const booking = book();
    const later = booking.startsAt + 2 * HOUR;
    const proposed = proposeTime(ctx(), as('consultant'), { ...act(booking.id), startsAt: later });
    expect(proposed.proposal).toEqual({ startsAt: later, endsAt: later + HOUR });
    expect(count(server, 'SELECT COUNT(*) AS n FROM booking_cells WHERE booking_id = ?', booking.id)).toBe(8);
    // Nobody else can take the proposed time meanwhile.
    expect(freeSlots('Strategy session').map((s) => s.startsAt)).not.toContain(later);

    const accepted = acceptProposal(ctx(), as('member'), act(booking.id));
    expect(accepted).toMatchObject({
      state: 'confirmed',
      startsAt: later,
      // The proposal itself changed no calendar; the move did.
      sequence: 1,
      payment: { status: 'captured' },
    });
    expect(accepted.proposal).toBeUndefined();
    expect(count(server, 'SELECT COUNT(*) AS n FROM booking_cells WHERE booking_id = ?', booking.id)).toBe(4);
    expect(freeSlots('Strategy session').map((s) => s.startsAt)).toContain(booking.startsAt);
  });

  it('keeps the first time when the client declines the proposal, and frees the proposed one', () => {
    const booking = book();
    const later = booking.startsAt + 2 * HOUR;
    proposeTime(ctx(), as('consultant'), { ...act(booking.id), startsAt: later });
    const kept = declineProposal(ctx(), as('member'), act(booking.id));
    expect(kept).toMatchObject({ state: 'requested', startsAt: booking.startsAt });
    expect(freeSlots('Strategy session').map((s) => s.startsAt)).toContain(later);
  });

  it('refuses a proposed time another booking holds', () => {
    const first = book();
    const second = book({ startsAt: freeSlots('Strategy session')[0]?.startsAt ?? 0, paymentMethod: 'pass' });
    expect(
      refusal(() => proposeTime(ctx(), as('consultant'), { ...act(first.id), startsAt: second.startsAt }))
        .reason,
    ).toBe('slot-taken');
  });
});

describe('cancelling', () => {
  it('refunds a confirmed session cancelled more than 24 hours ahead, and mails the calendar’s cancellation', async () => {
    const slot = freeSlots('Strategy session', 10).find((s) => s.startsAt > server.clock.now() + 3 * DAY);
    const booking = book({ startsAt: slot?.startsAt ?? 0 });
    confirmBooking(ctx(), as('consultant'), act(booking.id));
    const cancelled = cancelBooking(ctx(), as('member'), act(booking.id));
    expect(cancelled).toMatchObject({ state: 'cancelled', payment: { status: 'refunded' }, sequence: 2 });
    expect(balanceOf(server, ids.uid.member)).toEqual({ credits: 3, passes: 1 });
    await eventually(() => expect(sent).toHaveLength(6));
    expect(mailsTo('member@qupm.demo').at(-1)?.calendar?.method).toBe('CANCEL');
  });

  it('keeps the price of a session cancelled within 24 hours, until the consultant refunds it', () => {
    const booking = book();
    confirmBooking(ctx(), as('consultant'), act(booking.id));
    const late = cancelBooking(ctx(), as('member'), act(booking.id));
    expect(late).toMatchObject({
      state: 'cancelled',
      lateCancellation: true,
      payment: { status: 'captured' },
    });
    expect(balanceOf(server, ids.uid.member)).toEqual({ credits: 0, passes: 1 });
    // Its time is free again all the same.
    expect(freeSlots('Strategy session')[0]?.startsAt).toBe(booking.startsAt);
    refundBooking(ctx(), as('consultant'), act(booking.id));
    expect(balanceOf(server, ids.uid.member)).toEqual({ credits: 3, passes: 1 });
    expect(unbalanced(server)).toEqual([]);
  });
});

describe('requests nobody answers', () => {
  it('are declined once their time comes, the hold given back', () => {
    const booking = book();
    expect(expireDueRequests(ctx())).toBe(0);
    server.clock.value = booking.startsAt;
    expect(expireDueRequests(ctx())).toBe(1);
    expect(getBooking(ctx(), as('member'), booking.id)).toMatchObject({
      state: 'declined',
      closedReason: 'expired',
    });
    expect(balanceOf(server, ids.uid.member)).toEqual({ credits: 3, passes: 1 });
    expect(
      server.query('SELECT id FROM ledger WHERE uid = ? AND kind = ?', ids.uid.member, 'release'),
    ).toEqual([{ id: `expired-${booking.id}` }]);
    expect(expireDueRequests(ctx())).toBe(0);
  });
});

describe('operation ids', () => {
  it('answer the stored booking to a repeat, holding nothing more', () => {
    const operationId = opId();
    const startsAt = freeSlots('Strategy session')[0]?.startsAt ?? 0;
    const first = book({ operationId, startsAt });
    expect(book({ operationId, startsAt })).toEqual(first);
    expect(count(server, 'SELECT COUNT(*) AS n FROM bookings')).toBe(1);
    expect(balanceOf(server, ids.uid.member)).toEqual({ credits: 0, passes: 1 });
    const confirm = act(first.id);
    confirmBooking(ctx(), as('consultant'), confirm);
    expect(confirmBooking(ctx(), as('consultant'), confirm).state).toBe('confirmed');
    expect(count(server, `SELECT COUNT(*) AS n FROM ledger WHERE kind = 'capture'`)).toBe(1);
  });
});

describe('a bad request is refused with why, and nothing is held or taken', () => {
  it.each<[string, () => Parameters<typeof requestBooking>[2] | (() => unknown), string, string | undefined]>(
    [
      [
        'a slot in the past',
        () => ({ ...base(), startsAt: server.clock.now() - HOUR - (server.clock.now() % (15 * MINUTE)) }),
        'INVALID_ARGUMENT',
        'slot-in-past',
      ],
      [
        'a slot outside the consultant’s hours',
        () => ({ ...base(), startsAt: Date.UTC(2026, 0, 17, 10) }),
        'FAILED_PRECONDITION',
        'outside-hours',
      ],
      ['an archived service', () => archived(), 'FAILED_PRECONDITION', 'service-archived'],
      [
        'too few credits',
        () => ({
          ...base(),
          serviceId: service('Strategy session').id,
          expectedCredits: 3,
          startsAt: taken(),
        }),
        'FAILED_PRECONDITION',
        'insufficient-credits',
      ],
      [
        'a price the client made up',
        () => ({ ...base(), expectedCredits: 0 }),
        'FAILED_PRECONDITION',
        'price-changed',
      ],
      [
        'an expired offer',
        () => ({ ...base(), offerId: offerWith({ expiresIn: -HOUR }) }),
        'FAILED_PRECONDITION',
        'offer-expired',
      ],
      [
        'someone else’s offer',
        () => ({ ...base(), offerId: priyasOffer() }),
        'PERMISSION_DENIED',
        'offer-not-yours',
      ],
      [
        'an offer for another service',
        () => ({ ...base(), offerId: offerWith({ service: 'Strategy session' }) }),
        'FAILED_PRECONDITION',
        'offer-other-service',
      ],
      [
        'a service that does not exist',
        () => ({ ...base(), serviceId: 'NoSuchService0000000' }),
        'NOT_FOUND',
        undefined,
      ],
    ],
  )('refuses %s', (_label, make, status, reason) => {
    const input = make();
    const before = snapshot();
    const error = refusal(() =>
      requestBooking(ctx(), as('member'), input as Parameters<typeof requestBooking>[2]),
    );
    expect(error).toMatchObject({ status, ...(reason ? { reason } : {}) });
    expect(error.message.length).toBeGreaterThan(10);
    expect(snapshot()).toEqual(before);
  });

  it('refuses a slot already taken, and someone who is not the consultant’s client', () => {
    const taken = book({ paymentMethod: 'pass' });
    const before = snapshot();
    expect(refusal(() => book({ startsAt: taken.startsAt }))).toMatchObject({
      status: 'FAILED_PRECONDITION',
      reason: 'slot-taken',
    });
    expect(refusal(() => book({}, as('visitor')))).toMatchObject({
      status: 'PERMISSION_DENIED',
      reason: 'not-your-consultant',
    });
    expect(snapshot()).toEqual(before);
  });

  it('refuses an operation id used for a different request, changing nothing', () => {
    const operationId = opId();
    book({ operationId, paymentMethod: 'pass' });
    const before = snapshot();
    expect(
      refusal(() => book({ operationId, startsAt: freeSlots('Strategy session')[0]?.startsAt ?? 0 })),
    ).toMatchObject({
      status: 'ALREADY_EXISTS',
      reason: 'operation-reused',
    });
    expect(snapshot()).toEqual(before);
  });

  it('refuses steps by the wrong person or in the wrong state, changing nothing', () => {
    const booking = book();
    const before = snapshot();
    expect(refusal(() => confirmBooking(ctx(), as('member'), act(booking.id))).status).toBe(
      'PERMISSION_DENIED',
    );
    expect(refusal(() => cancelBooking(ctx(), as('visitor'), act(booking.id))).status).toBe(
      'PERMISSION_DENIED',
    );
    expect(refusal(() => completeBooking(ctx(), as('consultant'), act(booking.id))).reason).toBe(
      'booking-state',
    );
    expect(refusal(() => refundBooking(ctx(), as('consultant'), act(booking.id))).reason).toBe(
      'booking-state',
    );
    expect(refusal(() => acceptProposal(ctx(), as('member'), act(booking.id))).reason).toBe('booking-state');
    expect(refusal(() => getBooking(ctx(), as('visitor'), booking.id)).status).toBe('PERMISSION_DENIED');
    expect(refusal(() => confirmBooking(ctx(), as('consultant'), act('NoSuchBooking0000000'))).status).toBe(
      'NOT_FOUND',
    );
    expect(snapshot()).toEqual(before);
  });

  function base(): Parameters<typeof requestBooking>[2] {
    return {
      serviceId: service('Quick check-in').id,
      startsAt: freeSlots('Quick check-in')[0]?.startsAt ?? 0,
      paymentMethod: 'credits',
      clientTimeZone: 'Europe/Paris',
      operationId: opId(),
    };
  }
  function archived(): Parameters<typeof requestBooking>[2] {
    const input = base();
    ctx().repos.catalog.update({ ...service('Quick check-in'), status: 'archived' });
    return input;
  }
  /** A booking that leaves the member 0 credits, and a free time for the next. */
  function taken(): number {
    book();
    return freeSlots('Strategy session')[0]?.startsAt ?? 0;
  }
  function offerWith(options: { expiresIn?: number; service?: string }): string {
    const row = {
      offeringId: opId(),
      userId: ids.uid.member,
      channelId: ids.strategy,
      serviceId: service(options.service ?? 'Quick check-in').id,
      consultantId: ids.uid.consultant,
      discountPercent: 10,
      source: 'Test',
      status: 'active' as const,
      expiresAt: server.clock.now() + (options.expiresIn ?? DAY),
      createdAt: server.clock.now() - DAY,
    };
    ctx().repos.offers.insert(row);
    return row.offeringId;
  }
  function priyasOffer(): string {
    return (
      server.query<{ id: string }>('SELECT id FROM offers WHERE user_id != ?', ids.uid.member)[0]?.id ?? ''
    );
  }
});

describe('the calendar invitation over SMTP', () => {
  it('parses with an independent parser and opens at the time each person was told, across a daylight-saving change', async () => {
    const sink = await startSmtpSink();
    const smtp = await startTestServer({ mail: { smtpUrl: sink.url, publicUrl: 'http://qupm.test' } });
    try {
      const people = await demoIds(smtp);
      const c = contextOf(smtp);
      const consultant = callerOf(people, 'consultant');
      const member = callerOf(people, 'member');
      // Wednesday 10 March 2027: the United States change on 14 March, Europe on 28 March.
      smtp.clock.value = Date.UTC(2027, 2, 10, 12);
      setAvailability(c, consultant, {
        timeZone: 'Europe/Paris',
        hours: [{ day: 1, start: '09:00', end: '10:00' }],
      });
      const checkIn = listServices(c, member, people.uid.consultant).find(
        (s) => s.title === 'Quick check-in',
      );
      const slots = listFreeSlots(c, member, {
        serviceId: checkIn?.id ?? '',
        from: smtp.clock.now(),
        to: smtp.clock.now() + 21 * DAY,
      }).slots;
      // Mondays 09:00 Paris: 15, 22 March (CET, UTC+1), then 29 March (CEST, UTC+2).
      const firsts = slots.filter((s) => new Date(s.startsAt).getUTCMinutes() === 0);
      expect(firsts.map((s) => new Date(s.startsAt).toISOString())).toEqual([
        '2027-03-15T08:00:00.000Z',
        '2027-03-22T08:00:00.000Z',
        '2027-03-29T07:00:00.000Z',
      ]);
      for (const slot of [firsts[1], firsts[2]]) {
        const booking = requestBooking(c, member, {
          serviceId: checkIn?.id ?? '',
          startsAt: slot?.startsAt ?? 0,
          paymentMethod: 'credits',
          clientTimeZone: 'America/New_York',
          operationId: opId(),
        });
        confirmBooking(c, consultant, act(booking.id));
      }
      const confirmations = async (to: string) => {
        const mails = [];
        for (let i = 0; i < 2; i += 1) {
          mails.push(
            await sink.next((m) => m.envelopeTo.includes(to) && m.subject.startsWith('Session confirmed')),
          );
        }
        return mails;
      };
      for (const [to, zone, clocks] of [
        ['member@qupm.demo', 'America/New_York', ['04:00', '03:00']],
        ['consultant@qupm.demo', 'Europe/Paris', ['09:00', '09:00']],
      ] as const) {
        const mails = await confirmations(to);
        const read = await Promise.all(mails.map((m) => simpleParser(m.raw)));
        const times = read.map((parsed, i) => {
          const ics = parsed.attachments.find(
            (a) => a.contentType.startsWith('text/calendar') || a.filename === 'invite.ics',
          );
          if (!ics) throw new Error('no calendar in the mail');
          const component = new ICAL.Component(ICAL.parse(ics.content.toString('utf8')));
          expect(component.getFirstPropertyValue('method')).toBe('REQUEST');
          const event = new ICAL.Event(component.getFirstSubcomponent('vevent') ?? undefined);
          expect(event.sequence).toBe(1);
          const instant = event.startDate.toJSDate();
          const clock = new Intl.DateTimeFormat('en-GB', {
            timeZone: zone,
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: 'h23',
          }).format(instant);
          // The words of the mail say the same time, in the reader's zone.
          expect(mails[i]?.text).toContain(`, ${clock}–`);
          expect(mails[i]?.text).toContain(`(${zone})`);
          return clock;
        });
        expect(times.sort().reverse()).toEqual([...clocks].sort().reverse());
      }
    } finally {
      await smtp.close();
      await sink.close();
    }
  });
});
