// The port contract of the consulting practice (issue 25), run by portContract.ts on both adapters: services and
// hours, free times, bookings with their money, the ledger, a person's offers and the consultant's housekeeping,
// with the same answers and the same refusals (status and reason) on the embedded server and on Firebase. What
// core/ decides is tested there; this says the two backends carry it alike through their ports.
import type { Backend } from '@/backend/ports';
import { newDocumentId } from '@core/ids';
import { FORMER_MEMBER_ID, FORMER_MEMBER_NAME } from '@core/leaving';
import type { LedgerEntry, NewOffer, Service } from '@core/model';
import { eventually } from '../support/eventually';
import { failure } from './support/failure';
import type { Harness } from './support/harness';
import { CHANNELS, INVITATIONS, OFFERS, PASSWORD, PEOPLE, START } from './support/world';

const DAY = 86_400_000;
const HOUR = 3_600_000;

const refusal = async (call: Promise<unknown>) => {
  const { status, reason } = await failure(call);
  return reason === undefined ? { status } : { status, reason };
};

/** 10:00 UTC two days after the world's start: inside the hours below, well ahead of the one-hour minimum. */
const SLOT = Math.floor((START + 2 * DAY) / DAY) * DAY + 10 * HOUR;
/** Every day 08:00 to 18:00 in UTC (no daylight saving to reason about here; core/availability.ts has its tests). */
const HOURS = {
  timeZone: 'UTC',
  hours: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, start: '08:00', end: '18:00' })),
};

const op = () => ({ operationId: newDocumentId() });
const sumOf = (entries: LedgerEntry[]) =>
  entries.reduce(
    (sum, entry) => ({ credits: sum.credits + entry.delta.credits, passes: sum.passes + entry.delta.passes }),
    { credits: 0, passes: 0 },
  );

export function describePracticeContract(harness: () => Harness): void {
  const h = harness;
  describe('the consulting practice (issue 25)', () => {
    /** The consultant with hours and one service: 60 minutes for 2 credits. */
    async function practice(): Promise<{ consultant: Backend; member: Backend; service: Service }> {
      const h = harness();
      const consultant = await h.as('consultant');
      await consultant.services.setHours(HOURS);
      const service = await consultant.services.createService({
        title: 'Strategy session',
        description: 'An hour on your plan',
        durationMinutes: 60,
        priceCredits: 2,
        ...op(),
      });
      return { consultant, member: await h.as('member'), service };
    }

    const book = (member: Backend, service: Service, startsAt = SLOT, more: object = {}) =>
      member.bookings.requestBooking({
        serviceId: service.id,
        startsAt,
        paymentMethod: 'credits',
        clientTimeZone: 'Europe/Paris',
        ...op(),
        ...more,
      });

    describe('services and hours', () => {
      it("shows a consultant's services to their clients, and a repeat of the operation makes no second one", async () => {
        const h = harness();
        const consultant = await h.as('consultant');
        const input = { title: 'Review', description: '', durationMinutes: 30, priceCredits: 1, ...op() };
        const made = await consultant.services.createService(input);
        expect(made).toMatchObject({
          consultantId: PEOPLE.consultant.uid,
          title: 'Review',
          durationMinutes: 30,
          priceCredits: 1,
          status: 'active',
        });
        expect(await consultant.services.createService(input)).toStrictEqual(made);
        const member = await h.as('member');
        expect(await member.services.listServices(PEOPLE.consultant.uid)).toStrictEqual([made]);

        const archived = await consultant.services.updateService(made.id, { status: 'archived' });
        expect(archived.status).toBe('archived');
        expect(await member.services.listServices(PEOPLE.consultant.uid)).toStrictEqual([]);
        expect(await consultant.services.listServices(PEOPLE.consultant.uid)).toStrictEqual([archived]);
      });

      it('keeps them from someone who is not a client, and lets no client make one', async () => {
        const h = harness();
        expect(await refusal((await h.as('visitor')).services.listServices(PEOPLE.consultant.uid))).toEqual({
          status: 'PERMISSION_DENIED',
          reason: 'not-your-consultant',
        });
        const member = await h.as('member');
        expect(
          await refusal(
            member.services.createService({
              title: 'Mine',
              description: '',
              durationMinutes: 30,
              priceCredits: 1,
              ...op(),
            }),
          ),
        ).toEqual({ status: 'PERMISSION_DENIED' });
        expect(await refusal(member.services.setHours(HOURS))).toEqual({ status: 'PERMISSION_DENIED' });
      });

      it('keeps the hours in their zone and answers the free times inside them', async () => {
        const h = harness();
        const consultant = await h.as('consultant');
        const member = await h.as('member');
        expect(await member.services.getHours(PEOPLE.consultant.uid)).toBeNull();
        const set = await consultant.services.setHours({
          timeZone: 'Europe/Paris',
          hours: [{ day: 5, start: '09:00', end: '10:30' }],
        });
        expect(set).toMatchObject({ consultantId: PEOPLE.consultant.uid, timeZone: 'Europe/Paris' });
        expect(await member.services.getHours(PEOPLE.consultant.uid)).toStrictEqual(set);

        const service = await consultant.services.createService({
          title: 'Call',
          description: '',
          durationMinutes: 60,
          priceCredits: 0,
          ...op(),
        });
        const { slots, timeZone } = await member.services.listFreeSlots({
          serviceId: service.id,
          from: START,
          to: START + 21 * DAY,
        });
        expect(timeZone).toBe('Europe/Paris');
        // At least two whole Fridays in three weeks, each 09:00-10:30 in Paris: an hour starts at 09:00, 09:15 or
        // 09:30 there, whatever the offset from UTC that day.
        expect(slots.length).toBeGreaterThanOrEqual(6);
        const paris = new Intl.DateTimeFormat('en-GB', {
          timeZone: 'Europe/Paris',
          weekday: 'short',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        });
        for (const slot of slots) {
          expect(['Fri 09:00', 'Fri 09:15', 'Fri 09:30']).toContain(
            paris.format(slot.startsAt).replace(',', ''),
          );
          expect(slot.endsAt - slot.startsAt).toBe(HOUR);
        }
        expect(await refusal(member.services.setHours({ timeZone: 'Mars/Olympus', hours: [] }))).toEqual({
          status: 'INVALID_ARGUMENT',
        });
      });
    });

    describe('bookings', () => {
      it('holds the price at request, takes it at confirmation, and both read the booking', async () => {
        const { consultant, member, service } = await practice();
        const requested = await book(member, service);
        expect(requested).toMatchObject({
          consultantId: PEOPLE.consultant.uid,
          clientId: PEOPLE.member.uid,
          serviceId: service.id,
          serviceTitle: 'Strategy session',
          startsAt: SLOT,
          endsAt: SLOT + HOUR,
          state: 'requested',
          payment: { method: 'credits', amount: 2, listPrice: 2, status: 'held' },
          clientTimeZone: 'Europe/Paris',
          consultantTimeZone: 'UTC',
        });
        const held = await member.ledger.listMyLedger();
        expect(held.balance).toEqual({ credits: PEOPLE.member.credits - 2, passes: PEOPLE.member.passCount });
        expect(sumOf(held.entries)).toEqual(held.balance);
        expect(held.entries[0]).toMatchObject({ kind: 'hold', delta: { credits: -2, passes: 0 } });

        // Its card, in the pair's private consultation, reads alike on both backends.
        await h().settle();
        const cards = (await member.messages.listMessages(requested.channelId)).filter((m) => m.card);
        expect(cards.at(-1)).toMatchObject({
          senderId: PEOPLE.member.uid,
          card: {
            kind: 'booking',
            bookingId: requested.id,
            event: 'requested',
            state: 'requested',
            startsAt: SLOT,
          },
        });

        const confirmed = await consultant.bookings.confirmBooking(requested.id, op());
        expect(confirmed).toMatchObject({
          id: requested.id,
          state: 'confirmed',
          payment: { status: 'captured' },
        });
        expect(await member.bookings.getBooking(requested.id)).toStrictEqual(confirmed);
        expect((await member.bookings.listMyBookings()).upcoming).toStrictEqual([confirmed]);
        expect((await consultant.bookings.listMyBookings()).upcoming).toStrictEqual([confirmed]);
        const earned = await consultant.ledger.getEarnings();
        expect(earned.total).toEqual({ credits: 2, passes: 0, sessions: 1 });
        const after = await member.ledger.listMyLedger();
        expect(after.balance).toEqual(held.balance);
        expect(sumOf(after.entries)).toEqual(after.balance);
      });

      it('gives the hold back on decline, and the time is free again', async () => {
        const { consultant, member, service } = await practice();
        const requested = await book(member, service);
        const declined = await consultant.bookings.declineBooking(requested.id, op());
        expect(declined).toMatchObject({ state: 'declined', payment: { status: 'released' } });
        const { balance, entries } = await member.ledger.listMyLedger();
        expect(balance).toEqual({ credits: PEOPLE.member.credits, passes: PEOPLE.member.passCount });
        expect(sumOf(entries)).toEqual(balance);
        expect((await book(member, service)).state).toBe('requested');
      });

      it('answers a repeated request with the first booking, and an id reused for another as reused', async () => {
        const { member, service } = await practice();
        const request = {
          serviceId: service.id,
          startsAt: SLOT,
          paymentMethod: 'credits' as const,
          clientTimeZone: 'UTC',
          ...op(),
        };
        const first = await member.bookings.requestBooking(request);
        expect(await member.bookings.requestBooking(request)).toStrictEqual(first);
        expect((await member.ledger.listMyLedger()).balance.credits).toBe(PEOPLE.member.credits - 2);
        expect(
          await refusal(member.bookings.requestBooking({ ...request, startsAt: SLOT + 2 * HOUR })),
        ).toEqual({ status: 'ALREADY_EXISTS', reason: 'operation-reused' });
      });

      it('refuses a taken time, one outside the hours, a made-up price and too few credits, holding nothing', async () => {
        const { consultant, member, service } = await practice();
        await book(member, service, SLOT, { paymentMethod: 'pass' });
        const balance = (await member.ledger.listMyLedger()).balance;
        expect(balance).toEqual({ credits: PEOPLE.member.credits, passes: PEOPLE.member.passCount - 1 });
        // The consultant's own calendar: a second booking of that hour (by a pass, which is gone) is refused
        // for the time first.
        expect(await refusal(book(member, service, SLOT + 30 * 60_000))).toEqual({
          status: 'FAILED_PRECONDITION',
          reason: 'slot-taken',
        });
        expect(await refusal(book(member, service, SLOT + 10 * HOUR))).toEqual({
          status: 'FAILED_PRECONDITION',
          reason: 'outside-hours',
        });
        expect(await refusal(book(member, service, SLOT - 3 * DAY))).toEqual({
          status: 'INVALID_ARGUMENT',
          reason: 'slot-in-past',
        });
        expect(await refusal(book(member, service, SLOT + 2 * HOUR, { expectedCredits: 0 }))).toEqual({
          status: 'FAILED_PRECONDITION',
          reason: 'price-changed',
        });
        await book(member, service, SLOT + 2 * HOUR);
        expect(await refusal(book(member, service, SLOT + 4 * HOUR))).toEqual({
          status: 'FAILED_PRECONDITION',
          reason: 'insufficient-credits',
        });
        const archived = await consultant.services.updateService(service.id, { status: 'archived' });
        expect(await refusal(book(member, archived, SLOT + 6 * HOUR))).toEqual({
          status: 'FAILED_PRECONDITION',
          reason: 'service-archived',
        });
        const { balance: last, entries } = await member.ledger.listMyLedger();
        expect(last).toEqual({ credits: PEOPLE.member.credits - 2, passes: PEOPLE.member.passCount - 1 });
        expect(sumOf(entries)).toEqual(last);
        expect(await refusal(book(await harness().as('visitor'), service, SLOT + 6 * HOUR))).toMatchObject({
          status: expect.stringMatching(/PERMISSION_DENIED|FAILED_PRECONDITION/),
        });
      });

      it('lets only its consultant confirm, and only its two read it', async () => {
        const { member, service } = await practice();
        const requested = await book(member, service);
        expect(await refusal(member.bookings.confirmBooking(requested.id, op()))).toEqual({
          status: 'PERMISSION_DENIED',
        });
        expect(await refusal((await harness().as('visitor')).bookings.getBooking(requested.id))).toEqual({
          status: 'PERMISSION_DENIED',
        });
        expect(await refusal(member.bookings.getBooking(newDocumentId()))).toEqual({ status: 'NOT_FOUND' });
      });

      it('moves a booking to the time the consultant proposes once the client accepts', async () => {
        const { consultant, member, service } = await practice();
        const requested = await book(member, service);
        const proposed = await consultant.bookings.proposeTime(requested.id, {
          ...op(),
          startsAt: SLOT + 3 * HOUR,
        });
        expect(proposed.proposal).toEqual({ startsAt: SLOT + 3 * HOUR, endsAt: SLOT + 4 * HOUR });
        const accepted = await member.bookings.acceptProposal(requested.id, op());
        expect(accepted).toMatchObject({ startsAt: SLOT + 3 * HOUR, endsAt: SLOT + 4 * HOUR });
        expect(accepted.proposal).toBeUndefined();
        expect(await refusal(consultant.bookings.completeBooking(requested.id, op()))).toEqual({
          status: 'FAILED_PRECONDITION',
          reason: 'booking-state',
        });
      });

      it('names the client on the consultant’s list and the consultant on the client’s, and follows a rename', async () => {
        const { consultant, member, service } = await practice();
        const requested = await book(member, service);
        expect(requested).toMatchObject({ clientName: 'Morgan', consultantName: 'Dana' });
        const [listed] = (await consultant.bookings.listMyBookings()).upcoming;
        expect(listed).toMatchObject({ id: requested.id, clientName: 'Morgan', consultantName: 'Dana' });

        await member.users.updateProfile(PEOPLE.member.uid, { nickname: 'Morgana' });
        await h().settle();
        // On Firebase a trigger writes it after the profile: the check waits for it.
        await eventually(
          async () => {
            const [renamed] = (await consultant.bookings.listMyBookings()).upcoming;
            expect(renamed).toMatchObject({
              id: requested.id,
              clientName: 'Morgana',
              consultantName: 'Dana',
            });
            expect(await member.bookings.getBooking(requested.id)).toStrictEqual(renamed);
          },
          { timeoutMs: 10_000 },
        );
        // A step after the rename keeps the name the client goes by now.
        expect(await consultant.bookings.confirmBooking(requested.id, op())).toMatchObject({
          clientName: 'Morgana',
        });
      });

      it('names a client who left QuPM as the former member on the consultant’s list, never by an id', async () => {
        const { consultant, member, service } = await practice();
        const requested = await book(member, service);
        await member.users.deleteMyAccount(PEOPLE.member.uid, PASSWORD);
        await h().settle();
        const { past } = await consultant.bookings.listMyBookings();
        expect(past.find((b) => b.id === requested.id)).toMatchObject({
          clientId: FORMER_MEMBER_ID,
          clientName: FORMER_MEMBER_NAME,
          consultantName: 'Dana',
          state: 'cancelled',
        });
      });

      it('gives the price back when the client cancels more than 24 h ahead', async () => {
        const { consultant, member, service } = await practice();
        const requested = await book(member, service);
        await consultant.bookings.confirmBooking(requested.id, op());
        const cancelled = await member.bookings.cancelBooking(requested.id, op());
        expect(cancelled).toMatchObject({ state: 'cancelled', closedReason: 'cancelled-by-client' });
        expect(cancelled.payment.status).toBe('refunded');
        const { balance, entries } = await member.ledger.listMyLedger();
        expect(balance.credits).toBe(PEOPLE.member.credits);
        expect(sumOf(entries)).toEqual(balance);
      });
    });

    describe('the ledger and offers', () => {
      it("writes a consultant's grant to their client, and refuses one to a stranger or by a client", async () => {
        const h = harness();
        const consultant = await h.as('consultant');
        const request = { userId: PEOPLE.member.uid, credits: 5, note: 'Welcome back', ...op() };
        const entry = await consultant.ledger.grant(request);
        expect(entry).toMatchObject({
          uid: PEOPLE.member.uid,
          kind: 'grant',
          delta: { credits: 5, passes: 0 },
          balanceAfter: { credits: PEOPLE.member.credits + 5, passes: PEOPLE.member.passCount },
          byUid: PEOPLE.consultant.uid,
          note: 'Welcome back',
        });
        expect(await consultant.ledger.grant(request)).toStrictEqual(entry);
        const member = await h.as('member');
        const { balance, entries } = await member.ledger.listMyLedger();
        expect(balance.credits).toBe(PEOPLE.member.credits + 5);
        expect(entries[0]).toStrictEqual(entry);
        expect(sumOf(entries)).toEqual(balance);
        expect(
          await refusal(consultant.ledger.grant({ userId: PEOPLE.visitor.uid, credits: 1, ...op() })),
        ).toEqual({ status: 'PERMISSION_DENIED' });
        expect(
          await refusal(member.ledger.grant({ userId: PEOPLE.member.uid, credits: 1, ...op() })),
        ).toEqual({
          status: 'PERMISSION_DENIED',
        });
      });

      it("lists a person's offers with their state, and lets their consultant alone withdraw one", async () => {
        const h = harness();
        const member = await h.as('member');
        const offers = await member.offers.listMyOffers();
        const [active, expired, used] = OFFERS;
        expect(offers.map((offer) => [offer.offeringId, offer.state])).toEqual(
          expect.arrayContaining([
            [active?.offeringId, 'active'],
            [expired?.offeringId, 'expired'],
            [used?.offeringId, 'used'],
          ]),
        );
        expect(offers[0]).toMatchObject({
          offeringId: active?.offeringId,
          consultantId: PEOPLE.consultant.uid,
        });
        expect(await refusal(member.offers.withdrawOffer(active?.offeringId ?? ''))).toEqual({
          status: 'PERMISSION_DENIED',
        });
        const consultant = await h.as('consultant');
        const withdrawn = await consultant.offers.withdrawOffer(active?.offeringId ?? '');
        expect(withdrawn).toMatchObject({ offeringId: active?.offeringId, status: 'revoked' });
        expect(await consultant.offers.withdrawOffer(active?.offeringId ?? '')).toStrictEqual(withdrawn);
        expect(
          (await member.offers.listMyOffers()).find((offer) => offer.offeringId === active?.offeringId)
            ?.state,
        ).toBe('revoked');
        expect(await refusal(consultant.offers.withdrawOffer(used?.offeringId ?? ''))).toEqual({
          status: 'FAILED_PRECONDITION',
          reason: 'offer-used',
        });
      });
    });

    describe('offers name their service', () => {
      it('refuses a new offer naming no service, or a service not the active one of its consultant', async () => {
        const { consultant, service } = await practice();
        const offer = {
          channelId: CHANNELS.studio.id,
          userId: PEOPLE.member.uid,
          discountPercent: 20,
          expiresAt: START + 2 * DAY,
        };
        // An older client may still send none: the port's type requires it, the wire refuses it with words.
        const withoutService = failure(consultant.offers.issueOffer(offer as unknown as NewOffer));
        expect(await withoutService).toMatchObject({
          status: 'INVALID_ARGUMENT',
          message: expect.stringContaining('choose the service this offer is for'),
        });
        const issue = (serviceId: string) => refusal(consultant.offers.issueOffer({ ...offer, serviceId }));
        expect(await issue(newDocumentId())).toEqual({ status: 'FAILED_PRECONDITION' });
        await consultant.services.updateService(service.id, { status: 'archived' });
        expect(await issue(service.id)).toEqual({ status: 'FAILED_PRECONDITION' });
        expect(await (await h().as('member')).offers.listMyOffers()).toHaveLength(OFFERS.length);
      });

      it('still reads an offer stored before offers named a service, with no service on it', async () => {
        const member = await h().as('member');
        const [stored] = OFFERS;
        const mine = (await member.offers.listMyOffers()).find((o) => o.offeringId === stored?.offeringId);
        expect(mine).toMatchObject({ offeringId: stored?.offeringId, state: 'active' });
        expect(mine?.serviceId).toBeUndefined();
      });
    });

    describe('housekeeping', () => {
      it('says what a removal would touch, archives and reopens a channel for its owner alone', async () => {
        const h = harness();
        const consultant = await h.as('consultant');
        const { contents, notice } = await consultant.housekeeping.describeChannelRemoval(CHANNELS.studio.id);
        expect(contents).toMatchObject({ title: CHANNELS.studio.title, members: 1 });
        expect(contents.messages).toBeGreaterThan(0);
        expect(notice.delete.length).toBeGreaterThan(0);
        const member = await h.as('member');
        expect(await refusal(member.housekeeping.archiveChannel(CHANNELS.studio.id))).toEqual({
          status: 'PERMISSION_DENIED',
        });
        const archived = await consultant.housekeeping.archiveChannel(CHANNELS.studio.id);
        expect(archived.archivedAt).toEqual(expect.any(Number));
        expect((await member.channels.getChannel(CHANNELS.studio.id))?.archivedAt).toBe(archived.archivedAt);
        const reopened = await consultant.housekeeping.unarchiveChannel(CHANNELS.studio.id);
        expect(reopened.archivedAt).toBeUndefined();
      });

      it('removes a member, revokes an invitation, and deletes a channel for good', async () => {
        const h = harness();
        const consultant = await h.as('consultant');
        const member = await h.as('member');
        const left = await consultant.housekeeping.removeMember(CHANNELS.studio.id, PEOPLE.member.uid);
        expect(left.members).toEqual([]);
        expect(await refusal(member.channels.getChannel(CHANNELS.studio.id))).toEqual({
          status: 'PERMISSION_DENIED',
        });
        expect(
          await refusal(consultant.housekeeping.removeMember(CHANNELS.studio.id, PEOPLE.member.uid)),
        ).toEqual({ status: 'NOT_FOUND' });

        const revoked = await consultant.housekeeping.revokeInvitation(INVITATIONS.pending.id);
        expect(revoked).toMatchObject({ id: INVITATIONS.pending.id, status: 'revoked' });
        expect(
          await refusal((await h.as('visitor')).invitations.acceptInvitation(INVITATIONS.pending.id)),
        ).toMatchObject({ status: 'FAILED_PRECONDITION' });

        expect(await refusal(member.housekeeping.deleteChannel(CHANNELS.clinic.id))).toEqual({
          status: 'PERMISSION_DENIED',
        });
        await consultant.housekeeping.deleteChannel(CHANNELS.clinic.id);
        expect(await consultant.channels.getChannel(CHANNELS.clinic.id)).toBeNull();
      });

      it('hands a channel to another consultant, whom only a consultant can be', async () => {
        const h = harness();
        const consultant = await h.as('consultant');
        expect(
          await refusal(consultant.housekeeping.handOverChannel(CHANNELS.studio.id, PEOPLE.visitor.uid)),
        ).toEqual({ status: 'FAILED_PRECONDITION' });
        await (await h.as('admin')).admin.setConsultant(PEOPLE.visitor.uid, true);
        await h.settle();
        const handed = await consultant.housekeeping.handOverChannel(CHANNELS.studio.id, PEOPLE.visitor.uid);
        expect(handed.ownerId).toBe(PEOPLE.visitor.uid);
        expect(handed.members).toEqual(expect.arrayContaining([PEOPLE.member.uid]));
        expect((await (await h.as('visitor')).channels.getChannel(CHANNELS.studio.id))?.ownerId).toBe(
          PEOPLE.visitor.uid,
        );
      });
    });
  });
}
