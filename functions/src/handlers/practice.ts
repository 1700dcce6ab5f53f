// The consulting practice's callables on Firebase (core/schemas.ts practiceCallablePayloads): services and hours,
// free times, bookings and every step on them, grants and the ledger, a person's offers, and the consultant's
// housekeeping. Decided by core/ exactly as the embedded server's services do (server/services/catalog.ts,
// bookings.ts, ledger.ts, housekeeping.ts), each change one Firestore transaction (practiceRepository.ts): the
// booking and its slot documents, the ledger entry with the balance, the offer, the card (a message, which
// on_message_created counts and pushes as any other) and the mails (Trigger Email documents with the .ics).
import { BOOKING_WINDOW, freeSlots, normalizeHours, AVAILABILITY_MESSAGES } from '../../../core/availability';
import type { BookingChange } from '../../../core/bookings';
import {
  assertCanReadBooking,
  BOOKING_MESSAGES,
  planAcceptProposal,
  planCancel,
  planComplete,
  planConfirm,
  planDecline,
  planDeclineProposal,
  planExpire,
  planPropose,
  planRefund,
  planRequest,
  sortBookings,
} from '../../../core/bookings';
import { bookingNotices } from '../../../core/bookingNotices';
import { CATALOG_MESSAGES, planNewService, planServicePatch, servicesSeenBy } from '../../../core/catalog';
import { QupmError } from '../../../core/errors';
import {
  assertCanDeleteChannel,
  planArchive,
  planHandOver,
  planRemoveMember,
  planRevokeInvitation,
  planUnarchive,
  removalNotice,
} from '../../../core/housekeeping';
import type { ChannelContents } from '../../../core/housekeeping';
import type { Earnings } from '../../../core/ledger';
import {
  assertCanGrant,
  LEDGER_IDS,
  LEDGER_MESSAGES,
  ledgerEntry,
  summarizeEarnings,
} from '../../../core/ledger';
import type { LedgerMove } from '../../../core/ledger';
import type {
  Availability,
  Balance,
  Booking,
  Channel,
  Invitation,
  LedgerEntry,
  Service,
  Slot,
  UserDoc,
} from '../../../core/model';
import { FORMER_MEMBER_ID, FORMER_MEMBER_NAME } from '../../../core/leaving';
import type { OperationKind } from '../../../core/operations';
import { decideOperation, operationFingerprint } from '../../../core/operations';
import type { ReceivedOffer, StoredOffer } from '../../../core/offers';
import { planWithdrawOffer, sortReceivedOffers, toReceivedOffer } from '../../../core/offers';
import { servicesPath } from '../../../core/paths';
import { canReadUser } from '../../../core/permissions';
import type { Caller } from '../../../core/permissions';
import { newPrivateChannel } from '../../../core/privateChannels';
import type { PracticeCallableName, practiceCallablePayloads } from '../../../core/schemas';
import { publicName } from '../../../core/users';
import type { Handler } from '../callable';
import type { PracticeTx } from '../practiceRepository';
import { privateChannelId } from '../privateChannelId';
import type { Deps, TriggerEmailDoc } from '../repository';
import { CHANNEL_MESSAGES } from '../../../core/channels';

interface PracticeResults {
  list_services: { services: Service[] };
  create_service: Service;
  update_service: Service;
  get_availability: { availability: Availability | null };
  set_availability: Availability;
  list_free_slots: { slots: Slot[]; timeZone: string | null; noHours?: string };
  request_booking: Booking;
  confirm_booking: Booking;
  decline_booking: Booking;
  propose_booking_time: Booking;
  accept_proposed_time: Booking;
  decline_proposed_time: Booking;
  cancel_booking: Booking;
  complete_booking: Booking;
  refund_booking: Booking;
  get_booking: Booking;
  list_my_bookings: { upcoming: Booking[]; past: Booking[] };
  grant_balance: LedgerEntry;
  list_my_ledger: { entries: LedgerEntry[]; balance: Balance };
  get_earnings: Earnings;
  list_my_offers: { offers: ReceivedOffer[] };
  withdraw_offer: StoredOffer;
  describe_channel_removal: { contents: ChannelContents; notice: { archive: string; delete: string } };
  archive_channel: Channel;
  unarchive_channel: Channel;
  delete_channel: { success: true };
  remove_member: Channel;
  revoke_invitation: Invitation;
  hand_over_channel: Channel;
}

/** Runs `change` once per operation id inside the transaction (core/operations.ts), as server/operations.ts does. */
async function once<T>(
  tx: PracticeTx,
  operation: { id: string; uid: string; kind: OperationKind; request: unknown; now: number },
  change: () => Promise<{ resultId: string; value: T }>,
  repeat: (resultId: string) => Promise<T>,
): Promise<T> {
  const fingerprint = operationFingerprint(operation.request);
  const decision = decideOperation(await tx.operation(operation.id), {
    uid: operation.uid,
    kind: operation.kind,
    fingerprint,
  });
  if (decision !== 'new') return repeat(decision.repeat);
  const { resultId, value } = await change();
  tx.recordOperation({
    id: operation.id,
    uid: operation.uid,
    kind: operation.kind,
    fingerprint,
    resultId,
    createdAt: operation.now,
  });
  return value;
}

/** The ledger entry `move` makes under `id` on `uid`'s balance; a repeat of `id` writes nothing (server moveBalance). */
async function moveBalance(
  tx: PracticeTx,
  uid: string,
  id: string,
  move: LedgerMove,
  now: number,
): Promise<LedgerEntry> {
  const stored = await tx.ledgerEntry(uid, id);
  if (stored) return stored;
  const before = await tx.balance(uid);
  if (!before) throw new QupmError('NOT_FOUND', LEDGER_MESSAGES.noSuchUser);
  const entry = ledgerEntry({ id, uid, move, before, createdAt: now });
  tx.appendLedger(entry);
  return entry;
}

/** Who may read a consultant's services and hours: the consultant, their clients, admins. */
async function assertCanSee(deps: Deps, caller: Caller, consultantId: string): Promise<void> {
  if (caller.isAdmin || caller.uid === consultantId) return;
  if (!(await deps.practice.isClientOf(consultantId, caller.uid))) {
    throw new QupmError('PERMISSION_DENIED', BOOKING_MESSAGES.notYourConsultant, 'not-your-consultant');
  }
}

/**
 * The two names a booking document keeps (the embedded server joins them at every read): as each person goes by
 * when the step runs, read in its transaction, so a rename (on_user_renamed) either comes before it or after it
 * and rewrites it. Someone who left is the former member; a name that cannot be read now stays as it was.
 */
function partyNames(
  booking: Booking,
  consultant: UserDoc | null,
  client: UserDoc | null,
): Pick<Booking, 'clientName' | 'consultantName'> {
  const nameOf = (uid: string, user: UserDoc | null, before: string | undefined) =>
    uid === FORMER_MEMBER_ID ? FORMER_MEMBER_NAME : user ? publicName(user) || before : before;
  const clientName = nameOf(booking.clientId, client, booking.clientName);
  const consultantName = nameOf(booking.consultantId, consultant, booking.consultantName);
  return {
    ...(clientName ? { clientName } : {}),
    ...(consultantName ? { consultantName } : {}),
  };
}

/** Inside the transaction: applies a booking's plan, with its card and mails (as server/services/bookings.ts). */
async function applyChange(
  deps: Deps,
  tx: PracticeTx,
  change: BookingChange,
  before: Booking | null,
  entryId: string,
  actorUid: string | null,
): Promise<Booking> {
  const now = deps.now();
  const pair = { ownerId: change.booking.consultantId, memberId: change.booking.clientId };
  const [consultant, client] = await Promise.all([tx.user(pair.ownerId), tx.user(pair.memberId)]);
  // The card's conversation: a request opens the pair's private consultation when there is none; a later step
  // posts to the one its booking names unless it was deleted since (as on the embedded server).
  let channel: Channel | null = null;
  if (change.event === 'requested') {
    const id = privateChannelId(pair);
    channel = await tx.channel(id);
    if (!channel) {
      channel = newPrivateChannel({
        id,
        pair,
        names: {
          [pair.ownerId]: consultant ? publicName(consultant) : '',
          [pair.memberId]: client ? publicName(client) : '',
        },
        createdAt: now,
      });
      tx.createPrivateChannel(channel);
    }
  } else if (change.booking.channelId !== '') {
    channel = await tx.channel(change.booking.channelId);
  }
  const booking: Booking = {
    ...change.booking,
    channelId: channel?.id ?? '',
    ...partyNames(change.booking, consultant, client),
  };
  if (change.move) await moveBalance(tx, booking.clientId, entryId, change.move, now);
  tx.saveBooking(booking, before);
  if (change.offer) tx.setOfferStatus(change.offer.offeringId, change.offer.status);

  const origin = deps.appOrigin();
  const notices = bookingNotices({
    change: { ...change, booking },
    consultant: { name: consultant ? publicName(consultant) : '', email: consultant?.email ?? '' },
    client: { name: client ? publicName(client) : '', email: client?.email ?? '' },
    organizer: { name: 'QuPM', email: `no-reply@${new URL(origin).hostname}` },
    url: `${origin}${servicesPath()}`,
    now,
  });
  const actor = actorUid === null ? null : await tx.user(actorUid);
  if (actorUid !== null && channel && notices.card) {
    tx.addMessage({
      id: deps.repo.newId(),
      channelId: channel.id,
      senderId: actorUid,
      senderName: actor ? publicName(actor) : '',
      text: notices.card.text,
      createdAt: now,
      card: notices.card.card,
    });
  }
  for (const mail of notices.mails) {
    if (mail.to === '') continue;
    const doc: TriggerEmailDoc = {
      to: mail.to,
      message: {
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ...(mail.calendar
          ? {
              attachments: [
                {
                  filename: 'invite.ics',
                  content: mail.calendar.content,
                  contentType: `text/calendar; method=${mail.calendar.method}; charset=UTF-8`,
                },
              ],
            }
          : {}),
      },
    };
    tx.addMail(doc);
  }
  return booking;
}

type Action = { bookingId: string; operationId: string; startsAt?: number };

/** One step on an existing booking, once per operation id. */
function step(
  kind: OperationKind,
  plan: (
    booking: Booking | null,
    caller: Caller,
    now: number,
    tx: PracticeTx,
    input: Action,
  ) => BookingChange | Promise<BookingChange>,
): Handler<(typeof practiceCallablePayloads)['confirm_booking'], Booking> {
  return async (deps, caller, input: Action) => {
    const { operationId, ...request } = input;
    return deps.practice.run((tx) =>
      once(
        tx,
        { id: operationId, uid: caller.uid, kind, request, now: deps.now() },
        async () => {
          const before = await tx.booking(input.bookingId);
          const change = await plan(before, caller, deps.now(), tx, input);
          const booking = await applyChange(deps, tx, change, before, operationId, caller.uid);
          return { resultId: booking.id, value: booking };
        },
        async (bookingId) => {
          const booking = await tx.booking(bookingId);
          if (!booking) throw new QupmError('NOT_FOUND', BOOKING_MESSAGES.noSuchBooking);
          return booking;
        },
      ),
    );
  };
}

export const practiceCallables: {
  [N in PracticeCallableName]: Handler<(typeof practiceCallablePayloads)[N], PracticeResults[N]>;
} = {
  async list_services(deps, caller, { consultantId }) {
    await assertCanSee(deps, caller, consultantId);
    return { services: servicesSeenBy(await deps.practice.listServices(consultantId), consultantId, caller) };
  },

  async create_service(deps, caller, input) {
    const { operationId, ...service } = input;
    return deps.practice.run((tx) =>
      once(
        tx,
        { id: operationId, uid: caller.uid, kind: 'create-service', request: service, now: deps.now() },
        async () => {
          const made = planNewService({
            id: deps.repo.newId(),
            consultant: await tx.user(caller.uid),
            existing: await tx.servicesOf(caller.uid),
            service,
            now: deps.now(),
          });
          tx.saveService(made);
          return { resultId: made.id, value: made };
        },
        async (id) => {
          const stored = await tx.service(id);
          if (!stored) throw new QupmError('NOT_FOUND', CATALOG_MESSAGES.noSuchService);
          return stored;
        },
      ),
    );
  },

  async update_service(deps, caller, { serviceId, patch }) {
    return deps.practice.run(async (tx) => {
      const stored = await tx.service(serviceId);
      const next = planServicePatch({
        service: stored,
        callerUid: caller.uid,
        existing: stored ? await tx.servicesOf(stored.consultantId) : [],
        patch,
        now: deps.now(),
      });
      tx.saveService(next);
      return next;
    });
  },

  async get_availability(deps, caller, { consultantId }) {
    await assertCanSee(deps, caller, consultantId);
    return { availability: await deps.practice.getAvailability(consultantId) };
  },

  async set_availability(deps, caller, input) {
    return deps.practice.run(async (tx) => {
      if (!(await tx.user(caller.uid))?.isOwner) {
        throw new QupmError('PERMISSION_DENIED', CATALOG_MESSAGES.notConsultant);
      }
      const availability: Availability = {
        consultantId: caller.uid,
        timeZone: input.timeZone,
        hours: normalizeHours(input.hours),
        updatedAt: deps.now(),
      };
      tx.setAvailability(availability);
      return availability;
    });
  },

  async list_free_slots(deps, caller, query) {
    const service = await deps.practice.getService(query.serviceId);
    if (!service) throw new QupmError('NOT_FOUND', CATALOG_MESSAGES.noSuchService);
    await assertCanSee(deps, caller, service.consultantId);
    if (service.status !== 'active') {
      throw new QupmError('FAILED_PRECONDITION', CATALOG_MESSAGES.archived, 'service-archived');
    }
    const availability = await deps.practice.getAvailability(service.consultantId);
    if (!availability || availability.hours.length === 0) {
      return { slots: [], timeZone: availability?.timeZone ?? null, noHours: AVAILABILITY_MESSAGES.noHours };
    }
    const to = Math.min(query.to, query.from + BOOKING_WINDOW.listMaxMs);
    const busy = await deps.practice.busyBetween(
      service.consultantId,
      query.from,
      to + service.durationMinutes * 60_000,
    );
    return {
      slots: freeSlots({
        availability,
        durationMinutes: service.durationMinutes,
        busy,
        from: query.from,
        to,
        now: deps.now(),
      }),
      timeZone: availability.timeZone,
    };
  },

  async request_booking(deps, caller, input) {
    const { operationId, ...request } = input;
    return deps.practice.run(
      (tx) =>
        once(
          tx,
          { id: operationId, uid: caller.uid, kind: 'request-booking', request, now: deps.now() },
          async () => {
            const now = deps.now();
            const service = await tx.service(request.serviceId);
            const consultantId = service?.consultantId ?? '';
            const offer = request.offerId === undefined ? null : await tx.offer(request.offerId);
            const span = {
              startsAt: request.startsAt,
              endsAt: request.startsAt + (service?.durationMinutes ?? 0) * 60_000,
            };
            const change = planRequest({
              id: deps.repo.newId(),
              clientUid: caller.uid,
              isClient: await tx.isClientOf(consultantId, caller.uid),
              service,
              availability: service ? await tx.availability(consultantId) : null,
              busy: service ? await tx.busy(consultantId, [span]) : [],
              offer,
              offerConsultantId:
                offer?.consultantId ?? (offer ? ((await tx.channel(offer.channelId))?.ownerId ?? '') : ''),
              balance: (await tx.balance(caller.uid)) ?? { credits: 0, passes: 0 },
              request,
              channelId: '',
              now,
            });
            const booking = await applyChange(deps, tx, change, null, operationId, caller.uid);
            return { resultId: booking.id, value: booking };
          },
          async (bookingId) => {
            const booking = await tx.booking(bookingId);
            if (!booking) throw new QupmError('NOT_FOUND', BOOKING_MESSAGES.noSuchBooking);
            return booking;
          },
        ),
      // The client pays: their balance changes one at a time from this instance.
      { serializeOn: caller.uid },
    );
  },

  confirm_booking: step('confirm-booking', (booking, caller, now) => planConfirm(booking, caller, now)),
  decline_booking: step('decline-booking', (booking, caller, now) => planDecline(booking, caller, now)),
  propose_booking_time: step('propose-time', async (booking, caller, now, tx, input) => {
    const startsAt = input.startsAt ?? 0;
    const span = { startsAt, endsAt: startsAt + (booking?.durationMinutes ?? 15) * 60_000 };
    const busy = booking ? await tx.busy(booking.consultantId, [span], booking.id) : [];
    return planPropose(booking, caller, startsAt, busy, now);
  }) as Handler<(typeof practiceCallablePayloads)['propose_booking_time'], Booking>,
  accept_proposed_time: step('accept-proposal', (booking, caller, now) =>
    planAcceptProposal(booking, caller, now),
  ),
  decline_proposed_time: step('decline-proposal', (booking, caller, now) =>
    planDeclineProposal(booking, caller, now),
  ),
  cancel_booking: step('cancel-booking', (booking, caller, now) => planCancel(booking, caller, now)),
  complete_booking: step('complete-booking', (booking, caller, now) => planComplete(booking, caller, now)),
  refund_booking: step('refund-booking', (booking, caller, now) => planRefund(booking, caller, now)),

  async get_booking(deps, caller, { bookingId }) {
    const booking = await deps.practice.getBooking(bookingId);
    assertCanReadBooking(booking, caller);
    return booking;
  },

  async list_my_bookings(deps, caller) {
    const [asClient, asConsultant] = await Promise.all([
      deps.practice.bookingsOfClient(caller.uid),
      deps.practice.bookingsOfConsultant(caller.uid),
    ]);
    const mine = new Map([...asClient, ...asConsultant].map((booking) => [booking.id, booking]));
    return sortBookings([...mine.values()], deps.now());
  },

  async grant_balance(deps, caller, input) {
    const { operationId, ...request } = input;
    return deps.practice.run(
      (tx) =>
        once(
          tx,
          { id: operationId, uid: caller.uid, kind: 'grant', request, now: deps.now() },
          async () => {
            const [granter, target] = await Promise.all([tx.user(caller.uid), tx.user(input.userId)]);
            if (!target) throw new QupmError('NOT_FOUND', LEDGER_MESSAGES.noSuchUser);
            const amount = { credits: input.credits, passes: input.passes };
            assertCanGrant({
              caller: { uid: caller.uid, isAdmin: caller.isAdmin, isOwner: granter?.isOwner === true },
              targetUid: input.userId,
              isClient: await tx.isClientOf(caller.uid, input.userId),
              amount,
            });
            const entry = await moveBalance(
              tx,
              input.userId,
              operationId,
              { kind: 'grant', amount, byUid: caller.uid, ...(input.note ? { note: input.note } : {}) },
              deps.now(),
            );
            return { resultId: input.userId, value: entry };
          },
          async (uid) => {
            const entry = await tx.ledgerEntry(uid, operationId);
            if (!entry) throw new Error('A recorded grant has no ledger entry');
            return entry;
          },
        ),
      { serializeOn: input.userId },
    );
  },

  async list_my_ledger(deps, caller) {
    if (!canReadUser(caller, caller.uid))
      throw new QupmError('PERMISSION_DENIED', 'You can only see your own balance.');
    const [user, entries] = await Promise.all([
      deps.repo.getUser(caller.uid),
      deps.practice.ledgerOf(caller.uid),
    ]);
    if (!user) throw new QupmError('NOT_FOUND', LEDGER_MESSAGES.noSuchUser);
    return { entries, balance: { credits: user.credits, passes: user.passCount } };
  },

  async get_earnings(deps, caller) {
    return summarizeEarnings(await deps.practice.bookingsOfConsultant(caller.uid));
  },

  async list_my_offers(deps, caller) {
    const now = deps.now();
    const offers = await deps.practice.offersOf(caller.uid);
    const received = await Promise.all(
      offers.map(async (offer) => {
        const service =
          offer.serviceId === undefined ? null : await deps.practice.getService(offer.serviceId);
        const consultantId =
          offer.consultantId ?? (await deps.practice.getChannel(offer.channelId))?.ownerId ?? '';
        return toReceivedOffer(
          offer,
          { consultantId, ...(service ? { serviceTitle: service.title } : {}) },
          now,
        );
      }),
    );
    return { offers: sortReceivedOffers(received) };
  },

  async withdraw_offer(deps, caller, { offerId }) {
    return deps.practice.run(async (tx) => {
      const stored = await tx.offer(offerId);
      const issuer = stored
        ? (stored.consultantId ?? (await tx.channel(stored.channelId))?.ownerId ?? '')
        : '';
      const next = planWithdrawOffer(stored, caller.uid, issuer);
      if (next) tx.setOfferStatus(offerId, 'revoked');
      return next ?? (stored as StoredOffer);
    });
  },

  async describe_channel_removal(deps, caller, { channelId }) {
    const channel = await deps.practice.getChannel(channelId);
    if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
    if (channel.ownerId !== caller.uid && !caller.isAdmin) {
      throw new QupmError('PERMISSION_DENIED', CHANNEL_MESSAGES.notOwner);
    }
    const [counted, files] = await Promise.all([
      deps.practice.channelContents(channelId, deps.now()),
      deps.files.list(`channels/${channelId}/`),
    ]);
    const contents: ChannelContents = {
      title: channel.title,
      members: channel.members.length,
      files: files.length,
      ...counted,
    };
    return { contents, notice: removalNotice(contents) };
  },

  async archive_channel(deps, caller, { channelId }) {
    return deps.practice.run(async (tx) => {
      const next = planArchive(await tx.channel(channelId), caller.uid, deps.now());
      tx.updateChannel(channelId, { archivedAt: next.archivedAt });
      return next;
    });
  },

  async unarchive_channel(deps, caller, { channelId }) {
    return deps.practice.run(async (tx) => {
      const next = planUnarchive(await tx.channel(channelId), caller.uid);
      tx.updateChannel(channelId, { archivedAt: null });
      return next;
    });
  },

  async delete_channel(deps, caller, { channelId }) {
    const channel = assertCanDeleteChannel(await deps.practice.getChannel(channelId), caller.uid);
    await deps.practice.deleteChannel(channel);
    for (const file of await deps.files.list(`channels/${channelId}/`)) await deps.files.delete(file.path);
    return { success: true };
  },

  async remove_member(deps, caller, input) {
    return deps.practice.run(async (tx) => {
      const next = planRemoveMember(await tx.channel(input.channelId), caller.uid, input.userId);
      const offers = await tx.activeOffersIn(input.channelId);
      tx.updateChannel(next.id, { members: next.members });
      tx.deleteDocument(`channels/${next.id}/members/${input.userId}`);
      tx.deleteDocument(`users/${input.userId}/pending/${next.id}`);
      for (const offer of offers)
        if (offer.userId === input.userId) tx.setOfferStatus(offer.offeringId, 'revoked');
      return next;
    });
  },

  async revoke_invitation(deps, caller, { invitationId }) {
    return deps.practice.run(async (tx) => {
      const stored = await tx.invitation(invitationId);
      const next = planRevokeInvitation(
        stored,
        stored ? await tx.channel(stored.channelId) : null,
        caller.uid,
        deps.now(),
      );
      if (next) tx.updateInvitation(invitationId, { status: 'revoked', revokedAt: deps.now() });
      return next ?? (stored as Invitation);
    });
  },

  async hand_over_channel(deps, caller, input) {
    return deps.practice.run(async (tx) => {
      const stored = await tx.channel(input.channelId);
      const target = await tx.user(input.toUid);
      const { channel, previousOwnerId } = planHandOver({
        channel: stored,
        caller,
        target: target ? { uid: target.uid, isOwner: target.isOwner } : null,
      });
      const [offers, invitations, members] = await Promise.all([
        tx.activeOffersIn(channel.id),
        tx.openInvitationIdsIn(channel.id),
        Promise.all(channel.members.map((uid) => tx.user(uid))),
      ]);
      tx.updateChannel(channel.id, { ownerId: channel.ownerId, members: channel.members });
      tx.deleteDocument(`channels/${channel.id}/members/${channel.ownerId}`);
      for (const id of invitations) tx.updateInvitation(id, { consultantId: channel.ownerId });
      for (const offer of offers) tx.setOfferStatus(offer.offeringId, 'revoked');
      // effectiveConId is stored on Firestore: the members who had the previous owner as theirs have the new one.
      for (const member of members) {
        if (member && member.effectiveConId === previousOwnerId) {
          tx.updateUser(member.uid, { effectiveConId: channel.ownerId });
        }
      }
      return channel;
    });
  },
};

/** Requests expired in one pass at most (the schedule runs every few minutes). */
const EXPIRY_BATCH = 100;

/**
 * The scheduled sweep: declines the requests whose time has come without an answer, each in its own transaction
 * (core/bookings.ts planExpire), the hold and offer given back. Answers how many.
 */
export async function handleExpireRequests(deps: Deps): Promise<number> {
  let expired = 0;
  for (const due of await deps.practice.dueRequests(deps.now(), EXPIRY_BATCH)) {
    const done = await deps.practice.run(async (tx) => {
      const booking = await tx.booking(due.id);
      const change = booking ? planExpire(booking, deps.now()) : null;
      if (!change) return false;
      await applyChange(deps, tx, change, booking, LEDGER_IDS.expiry(due.id), null);
      return true;
    });
    if (done) expired += 1;
  }
  return expired;
}
