// Bookings on the embedded server (core/bookings.ts decides): each step is one write transaction that reads what
// the decision needs (the service, the hours, the calendar's cells around the time, the offer, the client's
// balance), applies the plan (the booking and the cells it holds, the ledger entry and balance, the offer), posts
// the card in the two people's private consultation with its pending counts and pushes, and queues the mails with
// their calendar invitation; a refusal rolls all of it back, so nothing is held or taken. The operation id makes a
// repeat change nothing. After the commit: the booking, the card and the client's balance are streamed to the two
// people, and the push queue is woken (the mail queue wakes itself).
//
// Each function is what a route calls in one line: the caller, the body its core/schemas.ts schema validated.
import { SLOT_STEP_MS } from '../../core/availability';
import type { BookingChange } from '../../core/bookings';
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
} from '../../core/bookings';
import type { BookingRequest } from '../../core/bookings';
import { bookingNotices } from '../../core/bookingNotices';
import type { BookingNotices } from '../../core/bookingNotices';
import { QupmError } from '../../core/errors';
import { LEDGER_IDS } from '../../core/ledger';
import { FORMER_MEMBER_ID } from '../../core/leaving';
import type { Booking, Channel, ChatMessage } from '../../core/model';
import type { OperationKind } from '../../core/operations';
import { servicesPath } from '../../core/paths';
import type { Caller } from '../../core/permissions';
import type { ServerContext } from '../context';
import { write } from '../db/database';
import { newDocumentId } from '../ids';
import { once } from '../operations';
import { messageAudience, publishChannel, storeMessage } from './channels';
import { enqueueMail, mailLink } from './mail';
import { moveBalance } from './ledger';
import { ensurePrivateChannel } from './privateChannels';
import type { ServiceContext } from '../context';
import { publishUser } from './users';

/** What booking services need of the server: the data, the push queue to wake, and mail. */
export type BookingContext = ServiceContext & Pick<ServerContext, 'pushQueue' | 'mail' | 'mailQueue'>;

/** What a step committed, for the work after the commit. */
interface Applied {
  booking: Booking;
  card: { message: ChatMessage; channel: Channel; opened: boolean } | null;
  queued: boolean;
  balanceMoved: boolean;
}

/**
 * Inside write(): applies a plan. `entryId` keys the client's ledger entry (the operation's id, or one derived for
 * the backend's own steps); `actorUid` posts the card.
 */
function applyChange(
  ctx: BookingContext,
  change: BookingChange,
  entryId: string,
  actorUid: string | null,
): Applied {
  const now = ctx.now();
  const { repos } = ctx;
  // The two people's private consultation carries the cards: a request opens it when there is none; a later step
  // posts to the one its booking names, unless the consultant has deleted it since (it stays deleted; mail goes).
  const stored = change.booking.channelId === '' ? null : repos.channels.get(change.booking.channelId);
  const opened =
    change.event === 'requested'
      ? ensurePrivateChannel(
          ctx,
          { ownerId: change.booking.consultantId, memberId: change.booking.clientId },
          now,
        )
      : stored
        ? { channel: stored, created: false }
        : null;
  repos.bookings.save({ ...change.booking, channelId: opened?.channel.id ?? '' });
  // Read back, so the answer and the live event name the two people as every read does (the repo joins them).
  const booking = mustLoad(ctx, change.booking.id);
  if (change.move) moveBalance(ctx, booking.clientId, entryId, change.move, now);
  if (change.offer) repos.offers.setStatus(change.offer.offeringId, change.offer.status);

  const notices = noticesOf(ctx, { ...change, booking }, now);
  let card: Applied['card'] = null;
  let queued = false;
  if (actorUid !== null && opened && notices.card) {
    const channel = opened.channel;
    const message: ChatMessage = {
      id: newDocumentId(),
      channelId: channel.id,
      senderId: actorUid,
      senderName: repos.users.publicName(actorUid),
      text: notices.card.text,
      // Never before the channel's newest (as sendMessage): a client catching up from it misses nothing.
      createdAt: Math.max(now, repos.messages.latest(channel.id)?.createdAt ?? now),
      card: notices.card.card,
    };
    queued = storeMessage(ctx, channel, message, now).queued;
    card = { message, channel, opened: opened.created };
  }
  for (const mail of notices.mails) enqueueMail(ctx, { kind: `booking-${change.event}`, ...mail });
  return { booking, card, queued, balanceMoved: change.move !== undefined };
}

/** The card and mails of a change (core/bookingNotices.ts), with the two people's names and addresses. */
function noticesOf(ctx: BookingContext, change: BookingChange, now: number): BookingNotices {
  const { booking } = change;
  const person = (uid: string) => ({
    name: ctx.repos.users.publicName(uid),
    email: uid === FORMER_MEMBER_ID ? '' : (ctx.repos.users.findAccount(uid)?.email ?? ''),
  });
  const consultant = person(booking.consultantId);
  const client = person(booking.clientId);
  const notices = bookingNotices({
    change,
    consultant,
    client,
    organizer: { name: ctx.mail.from.name || 'QuPM', email: ctx.mail.from.address },
    url: mailLink(ctx, servicesPath()),
    now,
  });
  // Someone who left QuPM gets no mail (their address is gone).
  return { ...notices, mails: notices.mails.filter((mail) => mail.to !== '') };
}

/** After the commit: the two people see the booking, the card and the client's balance change. */
function publish(ctx: BookingContext, applied: Applied): void {
  const { booking, card } = applied;
  ctx.hub.publish({ uids: [booking.clientId, booking.consultantId] }, { type: 'booking', data: { booking } });
  if (card) {
    if (card.opened) publishChannel(ctx, card.channel);
    ctx.hub.publish(messageAudience(card.channel), { type: 'message', data: { message: card.message } });
  }
  if (applied.balanceMoved) publishUser(ctx, booking.clientId);
  if (applied.queued) ctx.pushQueue.wake();
}

function load(ctx: ServiceContext, id: string): Booking | null {
  return ctx.repos.bookings.get(id);
}

/**
 * A client asks for a session (core/bookings.ts planRequest): the price is held, the time taken on the
 * consultant's calendar, the offer used. Answers the booking (the stored one for a repeat of the operation).
 */
export function requestBooking(
  ctx: BookingContext,
  caller: Caller,
  input: BookingRequest & { operationId: string },
): Booking {
  const { operationId, ...request } = input;
  const { value, repeated } = write(ctx.db, () =>
    once(
      ctx,
      { id: operationId, uid: caller.uid, kind: 'request-booking', request },
      () => {
        const now = ctx.now();
        const { repos } = ctx;
        const service = repos.catalog.get(request.serviceId);
        const consultantId = service?.consultantId ?? '';
        const offer = request.offerId === undefined ? null : repos.offers.get(request.offerId);
        const span = {
          startsAt: request.startsAt,
          endsAt: request.startsAt + (service?.durationMinutes ?? 0) * 60_000,
        };
        const change = planRequest({
          id: newDocumentId(),
          clientUid: caller.uid,
          isClient: repos.channels.isClientOf(consultantId, caller.uid),
          service,
          availability: service ? repos.catalog.availability(consultantId) : null,
          busy: service ? repos.bookings.busy(consultantId, [span]) : [],
          offer,
          offerConsultantId:
            offer?.consultantId ?? (offer ? (repos.channels.get(offer.channelId)?.ownerId ?? '') : ''),
          balance: repos.ledger.balance(caller.uid) ?? { credits: 0, passes: 0 },
          request,
          channelId: '',
          now,
        });
        const applied = applyChange(ctx, change, operationId, caller.uid);
        return { resultId: applied.booking.id, value: applied };
      },
      (bookingId) => ({ booking: mustLoad(ctx, bookingId), card: null, queued: false, balanceMoved: false }),
    ),
  );
  if (!repeated) publish(ctx, value);
  return value.booking;
}

function mustLoad(ctx: ServiceContext, id: string): Booking {
  const booking = load(ctx, id);
  if (!booking) throw new QupmError('NOT_FOUND', BOOKING_MESSAGES.noSuchBooking);
  return booking;
}

/** One step on an existing booking, run once per operation id. */
function step(
  ctx: BookingContext,
  caller: Caller,
  kind: OperationKind,
  input: { bookingId: string; operationId: string; startsAt?: number },
  plan: (booking: Booking | null, now: number) => BookingChange,
): Booking {
  const { operationId, ...request } = input;
  const { value, repeated } = write(ctx.db, () =>
    once(
      ctx,
      { id: operationId, uid: caller.uid, kind, request },
      () => {
        const change = plan(load(ctx, input.bookingId), ctx.now());
        const applied = applyChange(ctx, change, operationId, caller.uid);
        return { resultId: applied.booking.id, value: applied };
      },
      (bookingId) => ({ booking: mustLoad(ctx, bookingId), card: null, queued: false, balanceMoved: false }),
    ),
  );
  if (!repeated) publish(ctx, value);
  return value.booking;
}

type Action = { bookingId: string; operationId: string };

/** The consultant confirms a request: the held price is taken. */
export function confirmBooking(ctx: BookingContext, caller: Caller, input: Action): Booking {
  return step(ctx, caller, 'confirm-booking', input, (booking, now) => planConfirm(booking, caller, now));
}

/** The consultant declines a request: the hold and the offer come back. */
export function declineBooking(ctx: BookingContext, caller: Caller, input: Action): Booking {
  return step(ctx, caller, 'decline-booking', input, (booking, now) => planDecline(booking, caller, now));
}

/** The consultant proposes another time; it is held until the client answers. */
export function proposeTime(
  ctx: BookingContext,
  caller: Caller,
  input: Action & { startsAt: number },
): Booking {
  return step(ctx, caller, 'propose-time', input, (booking, now) => {
    const span = booking
      ? { startsAt: input.startsAt, endsAt: input.startsAt + booking.durationMinutes * 60_000 }
      : { startsAt: input.startsAt, endsAt: input.startsAt + SLOT_STEP_MS };
    const busy = booking ? ctx.repos.bookings.busy(booking.consultantId, [span], booking.id) : [];
    return planPropose(booking, caller, input.startsAt, busy, now);
  });
}

/** The client takes the proposed time: moved, and confirmed. */
export function acceptProposal(ctx: BookingContext, caller: Caller, input: Action): Booking {
  return step(ctx, caller, 'accept-proposal', input, (booking, now) =>
    planAcceptProposal(booking, caller, now),
  );
}

/** The client keeps the time first asked for. */
export function declineProposal(ctx: BookingContext, caller: Caller, input: Action): Booking {
  return step(ctx, caller, 'decline-proposal', input, (booking, now) =>
    planDeclineProposal(booking, caller, now),
  );
}

/** Either of the two cancels (core/bookings.ts planCancel: the 24-hour rule). */
export function cancelBooking(ctx: BookingContext, caller: Caller, input: Action): Booking {
  return step(ctx, caller, 'cancel-booking', input, (booking, now) => planCancel(booking, caller, now));
}

/** The consultant marks a session that has begun as done. */
export function completeBooking(ctx: BookingContext, caller: Caller, input: Action): Booking {
  return step(ctx, caller, 'complete-booking', input, (booking, now) => planComplete(booking, caller, now));
}

/** The consultant gives back the price of a session cancelled late. */
export function refundBooking(ctx: BookingContext, caller: Caller, input: Action): Booking {
  return step(ctx, caller, 'refund-booking', input, (booking, now) => planRefund(booking, caller, now));
}

/** One booking, for its client, its consultant or an admin. */
export function getBooking(ctx: ServiceContext, caller: Caller, bookingId: string): Booking {
  const booking = load(ctx, bookingId);
  assertCanReadBooking(booking, caller);
  return booking;
}

/** The caller's bookings, as a client and as a consultant: upcoming soonest first, then the past. */
export function listMyBookings(
  ctx: ServiceContext,
  caller: Caller,
): { upcoming: Booking[]; past: Booking[] } {
  const mine = new Map<string, Booking>();
  for (const booking of [
    ...ctx.repos.bookings.listForClient(caller.uid),
    ...ctx.repos.bookings.listForConsultant(caller.uid),
  ]) {
    mine.set(booking.id, booking);
  }
  return sortBookings([...mine.values()], ctx.now());
}

/** Requests expired in one pass of the sweep, at most. */
const EXPIRY_BATCH = 100;
/** How often the sweep looks for requests nobody answered before their time. */
export const EXPIRY_SWEEP_MS = 60_000;

/**
 * Declines the requests whose time has come without an answer (core/bookings.ts planExpire), each in its own
 * transaction, the hold and offer given back. Answers how many.
 */
export function expireDueRequests(ctx: BookingContext): number {
  let expired = 0;
  for (const due of ctx.repos.bookings.dueRequests(ctx.now(), EXPIRY_BATCH)) {
    const applied = write(ctx.db, () => {
      const booking = load(ctx, due.id);
      const change = booking ? planExpire(booking, ctx.now()) : null;
      return change ? applyChange(ctx, change, LEDGER_IDS.expiry(due.id), null) : null;
    });
    if (applied) {
      expired += 1;
      publish(ctx, applied);
    }
  }
  return expired;
}
