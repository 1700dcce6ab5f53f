// The consulting practice's callables (functions/src/handlers/practice.ts), wrapped with firebase-functions-test
// (offline) over the real Firestore repositories on the in-memory Admin SDK fake: the session and payload checks
// of every one of them, services and hours, a booking's loop with its ledger, slot, card and mail documents, the
// bad requests refused as on the embedded server, grants, activation's ledger entry, housekeeping and the expiry
// sweep. Real Firestore transactions racing are the emulator's (__tests__/rules/emulator/practiceBars.emulator.ts).
import { HttpsError } from 'firebase-functions/v2/https';
import { practiceCallablePayloads } from '../../core/schemas';
import type { PracticeCallableName } from '../../core/schemas';
import type { Booking, LedgerEntry, Service, Slot } from '../../core/model';
import { newDocumentId } from '../../core/ids';
import { handleExpireRequests } from '../src/handlers/practice';
import { functionsTest } from './support/functionsTest';
import { putOffer } from './support/seed';
import type { TestBackend } from './support/functionsTest';
import { CHANNEL, INVITATION, NOW, UID, requestAs, seededBackend } from './support/world';
import type { Who } from './support/world';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let backend: TestBackend;
beforeEach(() => {
  backend = seededBackend();
});
afterAll(() => functionsTest.cleanup());

type Name = PracticeCallableName | 'activate_invitation' | 'accept_invitation';

function call<T = unknown>(name: Name, who: Who | null, data: unknown): Promise<T> {
  const fn = backend.fns[name] as (typeof backend.fns)['list_services'];
  return Promise.resolve(functionsTest.wrap(fn)(requestAs(who, data))) as Promise<T>;
}

async function failure(
  name: Name,
  who: Who | null,
  data: unknown,
): Promise<{ code: string; reason?: string; message: string }> {
  const error = await call(name, who, data).then(
    (result) => {
      throw new Error(`expected ${name} to fail, it answered ${JSON.stringify(result)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpsError);
  const { code, message, details } = error as HttpsError;
  expect(message).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  const reason = (details as { reason?: string } | undefined)?.reason;
  return { code, message, ...(reason ? { reason } : {}) };
}

const op = () => newDocumentId();
const doc = (path: string) => backend.store.get(path);
const docsUnder = (prefix: string) =>
  backend.store.paths().filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/'));

async function practiceWorld(): Promise<{ service: Service; slots: Slot[] }> {
  await call('set_availability', 'consultant', {
    timeZone: 'Europe/London',
    hours: [1, 2, 3, 4, 5].map((day) => ({ day, start: '09:00', end: '17:00' })),
  });
  const service = await call<Service>('create_service', 'consultant', {
    title: 'Strategy session',
    description: 'An hour',
    durationMinutes: 60,
    priceCredits: 3,
    operationId: op(),
  });
  await call('grant_balance', 'admin', { userId: UID.member, credits: 5, passes: 1, operationId: op() });
  const { slots } = await call<{ slots: Slot[] }>('list_free_slots', 'member', {
    serviceId: service.id,
    from: NOW,
    to: NOW + 7 * DAY,
  });
  return { service, slots };
}

describe('every practice callable', () => {
  const NAMES = Object.keys(practiceCallablePayloads) as PracticeCallableName[];

  it.each(NAMES)('%s refuses a caller without a session', async (name) => {
    expect((await failure(name, null, {})).code).toBe('unauthenticated');
  });

  it.each(NAMES)('%s refuses a malformed payload as invalid-argument, naming what is wrong', async (name) => {
    const { code, message } = await failure(name, 'member', { unexpected: 'field' });
    expect(code).toBe('invalid-argument');
    expect(message.length).toBeGreaterThan(3);
  });
});

describe('services and hours', () => {
  it('lists a consultant’s active services to a client, all to the consultant, and refuses a stranger', async () => {
    const { service } = await practiceWorld();
    await call('update_service', 'consultant', { serviceId: service.id, patch: { status: 'archived' } });
    expect(
      (await call<{ services: Service[] }>('list_services', 'member', { consultantId: UID.consultant }))
        .services,
    ).toEqual([]);
    expect(
      (await call<{ services: Service[] }>('list_services', 'consultant', { consultantId: UID.consultant }))
        .services,
    ).toHaveLength(1);
    expect(await failure('list_services', 'stranger', { consultantId: UID.consultant })).toMatchObject({
      code: 'permission-denied',
      reason: 'not-your-consultant',
    });
    expect(
      (
        await failure('create_service', 'member', {
          title: 'x',
          durationMinutes: 30,
          priceCredits: 1,
          operationId: op(),
        })
      ).code,
    ).toBe('permission-denied');
  });

  it('offers the hours minus what bookings hold', async () => {
    const { service, slots } = await practiceWorld();
    const first = slots[0] as Slot;
    await call('request_booking', 'member', {
      serviceId: service.id,
      startsAt: first.startsAt,
      paymentMethod: 'pass',
      clientTimeZone: 'UTC',
      operationId: op(),
    });
    const after = await call<{ slots: Slot[] }>('list_free_slots', 'member', {
      serviceId: service.id,
      from: NOW,
      to: NOW + 7 * DAY,
    });
    expect(after.slots.map((s) => s.startsAt)).not.toContain(first.startsAt);
    expect(after.slots.map((s) => s.startsAt)).not.toContain(first.startsAt + 45 * MINUTE);
    expect(after.slots.map((s) => s.startsAt)).toContain(first.startsAt + HOUR);
  });
});

describe('a booking', () => {
  it('holds, takes, and writes its ledger entries, slots, card and calendar mail, as the embedded server does', async () => {
    const { service, slots } = await practiceWorld();
    const operationId = op();
    const booking = await call<Booking>('request_booking', 'member', {
      serviceId: service.id,
      startsAt: slots[0]?.startsAt,
      paymentMethod: 'credits',
      clientTimeZone: 'Europe/Paris',
      operationId,
    });
    expect(booking).toMatchObject({
      state: 'requested',
      payment: { method: 'credits', amount: 3, status: 'held' },
    });
    expect(doc(`users/${UID.member}`)).toMatchObject({ credits: 2, passCount: 1, ledgerOpened: true });
    expect(doc(`users/${UID.member}/ledger/${operationId}`)).toMatchObject({
      kind: 'hold',
      delta: { credits: -3, passes: 0 },
      balanceAfter: { credits: 2, passes: 1 },
    });
    expect(docsUnder('slots/')).toHaveLength(4);
    const cards = docsUnder(`channels/${booking.channelId}/messages/`).map((p) => doc(p));
    expect(cards).toEqual([
      expect.objectContaining({
        senderId: UID.member,
        text: 'Requested a session: “Strategy session”',
        card: expect.objectContaining({ event: 'requested' }),
      }),
    ]);
    const mails = docsUnder('mail/').map(
      (p) => doc(p) as { to: string; message: { attachments: Array<{ content: string }> } },
    );
    expect(mails.map((m) => m.to).sort()).toEqual(['dana@example.com', 'morgan@example.com']);
    // In UTC: every calendar shows it in its reader's zone (the .ics itself is read by ical.js in core's tests).
    const stamp = new Date(booking.startsAt).toISOString().replace(/[-:]|\.\d{3}/g, '');
    expect(mails[0]?.message.attachments[0]?.content).toContain(`DTSTART:${stamp}`);

    // A repeat of the operation answers the booking and writes nothing.
    expect(
      await call('request_booking', 'member', {
        serviceId: service.id,
        startsAt: slots[0]?.startsAt,
        paymentMethod: 'credits',
        clientTimeZone: 'Europe/Paris',
        operationId,
      }),
    ).toEqual(booking);
    expect(docsUnder('bookings/')).toHaveLength(1);

    const confirmed = await call<Booking>('confirm_booking', 'consultant', {
      bookingId: booking.id,
      operationId: op(),
    });
    expect(confirmed).toMatchObject({ state: 'confirmed', sequence: 1, payment: { status: 'captured' } });
    const ledger = await call<{ entries: LedgerEntry[]; balance: unknown }>('list_my_ledger', 'member', null);
    expect(ledger.entries.map((e) => e.kind).sort()).toEqual(['capture', 'grant', 'hold']);
    expect(ledger.entries.reduce((sum, e) => sum + e.delta.credits, 0)).toBe(2);
    expect(ledger.balance).toEqual({ credits: 2, passes: 1 });
    const earnings = await call<{ total: unknown }>('get_earnings', 'consultant', null);
    expect(earnings.total).toEqual({ sessions: 1, credits: 3, passes: 0 });
  });

  it('refuses every bad request with the embedded server’s reasons, holding nothing', async () => {
    const { service, slots } = await practiceWorld();
    const base = {
      serviceId: service.id,
      startsAt: slots[0]?.startsAt,
      paymentMethod: 'credits',
      clientTimeZone: 'UTC',
    };
    const passBooking = op();
    await call('request_booking', 'member', {
      ...base,
      startsAt: slots[8]?.startsAt,
      paymentMethod: 'pass',
      operationId: passBooking,
    });
    putOffer(backend.store, {
      offeringId: 'OfferOtherService001',
      userId: UID.member,
      channelId: CHANNEL,
      source: 'consultant',
      discountPercent: 25,
      status: 'active',
      expiresAt: NOW + DAY,
      createdAt: NOW - DAY,
      serviceId: 'AnotherService000001',
      consultantId: UID.consultant,
    });
    const pricey = await call<Service>('create_service', 'consultant', {
      title: 'Full-day workshop',
      description: 'More than the member has',
      durationMinutes: 60,
      priceCredits: 9,
      operationId: op(),
    });
    const before = backend.store.paths().length;
    for (const [who, change, code, reason] of [
      ['member', { serviceId: pricey.id }, 'failed-precondition', 'insufficient-credits'],
      ['member', { startsAt: NOW - HOUR - (NOW % (15 * MINUTE)) }, 'invalid-argument', 'slot-in-past'],
      ['member', { startsAt: Date.UTC(2026, 0, 17, 10) }, 'failed-precondition', 'outside-hours'],
      ['member', { startsAt: slots[8]?.startsAt }, 'failed-precondition', 'slot-taken'],
      ['member', { expectedCredits: 1 }, 'failed-precondition', 'price-changed'],
      ['member', { offerId: 'OfferExpired00000001' }, 'failed-precondition', 'offer-expired'],
      ['member', { offerId: 'OfferOfOther00000001' }, 'permission-denied', 'offer-not-yours'],
      ['member', { offerId: 'OfferOtherService001' }, 'failed-precondition', 'offer-other-service'],
      ['member', { paymentMethod: 'pass' }, 'failed-precondition', 'no-pass'],
      ['stranger', {}, 'permission-denied', 'not-your-consultant'],
    ] as const) {
      expect(await failure('request_booking', who, { ...base, ...change, operationId: op() })).toMatchObject({
        code,
        reason,
      });
    }
    expect(
      await failure('request_booking', 'member', {
        ...base,
        serviceId: 'NoSuchService0000000',
        operationId: op(),
      }),
    ).toMatchObject({ code: 'not-found' });
    // The pass booking's operation id, for another request.
    expect(await failure('request_booking', 'member', { ...base, operationId: passBooking })).toMatchObject({
      code: 'already-exists',
      reason: 'operation-reused',
    });
    await call('update_service', 'consultant', { serviceId: service.id, patch: { status: 'archived' } });
    expect(await failure('request_booking', 'member', { ...base, operationId: op() })).toMatchObject({
      code: 'failed-precondition',
      reason: 'service-archived',
    });
    expect(backend.store.paths().length).toBe(before);
    expect(doc(`users/${UID.member}`)).toMatchObject({ credits: 5, passCount: 0 });
  });

  it('follows a proposal, the 24-hour rule and a refund', async () => {
    const { service, slots } = await practiceWorld();
    const booking = await call<Booking>('request_booking', 'member', {
      serviceId: service.id,
      startsAt: slots[0]?.startsAt,
      paymentMethod: 'credits',
      clientTimeZone: 'UTC',
      operationId: op(),
    });
    const later = booking.startsAt + 2 * HOUR;
    expect(
      await call('propose_booking_time', 'consultant', {
        bookingId: booking.id,
        startsAt: later,
        operationId: op(),
      }),
    ).toMatchObject({ proposal: { startsAt: later } });
    expect(docsUnder('slots/')).toHaveLength(8);
    expect(
      await call('accept_proposed_time', 'member', { bookingId: booking.id, operationId: op() }),
    ).toMatchObject({ state: 'confirmed', startsAt: later });
    expect(docsUnder('slots/')).toHaveLength(4);
    const late = await call<Booking>('cancel_booking', 'member', {
      bookingId: booking.id,
      operationId: op(),
    });
    expect(late).toMatchObject({
      state: 'cancelled',
      lateCancellation: true,
      payment: { status: 'captured' },
    });
    expect(docsUnder('slots/')).toHaveLength(0);
    await call('refund_booking', 'consultant', { bookingId: booking.id, operationId: op() });
    expect(doc(`users/${UID.member}`)).toMatchObject({ credits: 5 });
    expect(
      await failure('refund_booking', 'consultant', { bookingId: booking.id, operationId: op() }),
    ).toMatchObject({ reason: 'booking-state' });
  });

  it('expires a request nobody answered, giving its hold back', async () => {
    const { service, slots } = await practiceWorld();
    const booking = await call<Booking>('request_booking', 'member', {
      serviceId: service.id,
      startsAt: slots[0]?.startsAt,
      paymentMethod: 'credits',
      clientTimeZone: 'UTC',
      operationId: op(),
    });
    expect(await handleExpireRequests(backend.deps)).toBe(0);
    backend.clock.now = booking.startsAt;
    expect(await handleExpireRequests(backend.deps)).toBe(1);
    expect(doc(`bookings/${booking.id}`)).toMatchObject({ state: 'declined', closedReason: 'expired' });
    expect(doc(`users/${UID.member}/ledger/expired-${booking.id}`)).toMatchObject({ kind: 'release' });
    expect(doc(`users/${UID.member}`)).toMatchObject({ credits: 5 });
  });
});

describe('the ledger', () => {
  it('writes an activation’s grant as an entry, after an opening entry for a balance from before the ledger', async () => {
    backend.store.set(`users/${UID.stranger}`, { ...doc(`users/${UID.stranger}`), credits: 4, passCount: 0 });
    await call('activate_invitation', 'stranger', { invitationId: INVITATION.accepted });
    expect(doc(`users/${UID.stranger}`)).toMatchObject({ credits: 9, passCount: 2, ledgerOpened: true });
    expect(doc(`users/${UID.stranger}/ledger/opening`)).toMatchObject({
      kind: 'opening',
      delta: { credits: 4, passes: 0 },
    });
    expect(doc(`users/${UID.stranger}/ledger/invitation-${INVITATION.accepted}`)).toMatchObject({
      kind: 'invitation',
      delta: { credits: 5, passes: 2 },
      balanceAfter: { credits: 9, passes: 2 },
    });
  });

  it('lets a consultant grant to a client of theirs once per operation, and refuses the rest', async () => {
    const operationId = op();
    const input = { userId: UID.member, credits: 2, passes: 0, operationId };
    await call('grant_balance', 'consultant', input);
    await call('grant_balance', 'consultant', input);
    expect(doc(`users/${UID.member}`)).toMatchObject({ credits: 2 });
    expect(
      (await failure('grant_balance', 'consultant', { ...input, userId: UID.stranger, operationId: op() }))
        .code,
    ).toBe('permission-denied');
    expect(
      (await failure('grant_balance', 'member', { ...input, userId: UID.stranger, operationId: op() })).code,
    ).toBe('permission-denied');
    expect((await failure('grant_balance', 'consultant', { ...input, credits: 9 })).reason).toBe(
      'operation-reused',
    );
  });
});

describe('housekeeping', () => {
  it('archives and reopens, revokes an invitation, withdraws an offer, removes a member', async () => {
    expect(await call('archive_channel', 'consultant', { channelId: CHANNEL })).toMatchObject({
      archivedAt: NOW,
    });
    expect(doc(`channels/${CHANNEL}`)).toMatchObject({ archivedAt: NOW });
    await call('unarchive_channel', 'consultant', { channelId: CHANNEL });
    expect(doc(`channels/${CHANNEL}`)?.archivedAt).toBeNull();
    expect(await call('revoke_invitation', 'consultant', { invitationId: INVITATION.pending })).toMatchObject(
      { status: 'revoked' },
    );
    expect(
      await failure('accept_invitation', 'stranger', { invitationId: INVITATION.pending }),
    ).toMatchObject({ reason: 'invitation-revoked' });
    expect(await call('withdraw_offer', 'consultant', { offerId: 'OfferLater0000000001' })).toMatchObject({
      status: 'revoked',
    });
    expect((await failure('withdraw_offer', 'consultant', { offerId: 'OfferUsed00000000001' })).reason).toBe(
      'offer-used',
    );
    const after = await call<{ members: string[] }>('remove_member', 'consultant', {
      channelId: CHANNEL,
      userId: UID.member,
    });
    expect(after.members).toEqual([]);
    expect(doc(`channels/${CHANNEL}`)?.members).toEqual([]);
    expect(doc('offers/OfferSooner000000001')).toMatchObject({ status: 'revoked' });
    expect((await failure('archive_channel', 'member', { channelId: CHANNEL })).code).toBe(
      'permission-denied',
    );
  });

  it('hands a channel to another consultant, its members following them; then deletes a channel', async () => {
    backend.store.set(`users/${UID.stranger}`, {
      ...doc(`users/${UID.stranger}`),
      isOwner: true,
      effectiveConId: UID.stranger,
    });
    expect(
      await call('hand_over_channel', 'admin', { channelId: CHANNEL, toUid: UID.stranger }),
    ).toMatchObject({ ownerId: UID.stranger });
    expect(doc(`users/${UID.member}`)).toMatchObject({ effectiveConId: UID.stranger });
    expect(doc(`invitations/${INVITATION.pending}`)).toMatchObject({ consultantId: UID.stranger });
    const { notice } = await call<{ notice: { delete: string } }>('describe_channel_removal', 'stranger', {
      channelId: CHANNEL,
    });
    expect(notice.delete).toMatch(
      /^Deleting “Strategy Studio” removes its 0 messages and 0 files for everyone/,
    );
    expect(await call('delete_channel', 'stranger', { channelId: CHANNEL })).toEqual({ success: true });
    expect(doc(`channels/${CHANNEL}`)).toBeUndefined();
    expect(doc('channelHandles/strategy-studio')).toBeUndefined();
    expect(docsUnder('invitations/').filter((p) => doc(p)?.channelId === CHANNEL)).toEqual([]);
  });
});

describe('leaving with bookings', () => {
  const leave = (who: Who) =>
    Promise.resolve(
      functionsTest.wrap(backend.fns.delete_my_account)(
        requestAs(who, null, { auth_time: Math.floor(NOW / 1000) }),
      ),
    );

  it('keeps a consultant with an open session; a client who leaves has their open bookings cancelled and their ledger gone', async () => {
    const { service, slots } = await practiceWorld();
    const booking = await call<Booking>('request_booking', 'member', {
      serviceId: service.id,
      startsAt: slots[0]?.startsAt,
      paymentMethod: 'credits',
      clientTimeZone: 'UTC',
      operationId: op(),
    });
    await call('delete_channel', 'consultant', { channelId: CHANNEL });
    await call('delete_channel', 'consultant', { channelId: booking.channelId });
    await expect(leave('consultant')).rejects.toMatchObject({ code: 'failed-precondition' });
    expect(doc(`users/${UID.consultant}`)).toBeDefined();

    await leave('member');
    expect(doc(`users/${UID.member}`)).toBeUndefined();
    expect(docsUnder(`users/${UID.member}/ledger/`)).toEqual([]);
    expect(doc(`bookings/${booking.id}`)).toMatchObject({
      state: 'cancelled',
      clientId: 'formerMember00000000',
    });
    expect(docsUnder('slots/')).toEqual([]);
    // With no open session left, the consultant may go; their service stays for the booking that names it.
    await leave('consultant');
    expect(doc(`services/${service.id}`)).toMatchObject({
      consultantId: 'formerMember00000000',
      status: 'archived',
    });
  });
});
