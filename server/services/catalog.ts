// A consultant's services and weekly hours on the embedded server (core/catalog.ts, core/availability.ts
// decide): created, edited and archived by the consultant, seen by them, their clients and admins; and the free
// times of a service, their hours minus what the calendar's cells hold. A change is streamed to the consultant and
// their clients ('services'), who read the list again.
import { AVAILABILITY_MESSAGES, BOOKING_WINDOW, freeSlots, normalizeHours } from '../../core/availability';
import { CATALOG_MESSAGES, planNewService, planServicePatch, servicesSeenBy } from '../../core/catalog';
import type { NewService, ServicePatch } from '../../core/catalog';
import { BOOKING_MESSAGES } from '../../core/bookings';
import { QupmError } from '../../core/errors';
import type { Availability, HoursInterval, Service, Slot } from '../../core/model';
import type { Caller } from '../../core/permissions';
import { write } from '../db/database';
import { newDocumentId } from '../ids';
import { once } from '../operations';
import type { ServiceContext } from '../context';

/** Who may read a consultant's services and hours: the consultant, their clients, admins. */
function assertCanSee(ctx: ServiceContext, caller: Caller, consultantId: string): void {
  if (caller.isAdmin || caller.uid === consultantId) return;
  if (!ctx.repos.channels.isClientOf(consultantId, caller.uid)) {
    throw new QupmError('PERMISSION_DENIED', BOOKING_MESSAGES.notYourConsultant, 'not-your-consultant');
  }
}

/** Tells a consultant and their clients that the consultant's services or hours changed. */
function publishServices(ctx: ServiceContext, consultantId: string): void {
  ctx.hub.publish(
    { uids: [consultantId, ...ctx.repos.channels.clientsOf(consultantId)] },
    { type: 'services', data: { consultantId } },
  );
}

/** A consultant's services as the caller sees them (core/catalog.ts servicesSeenBy). */
export function listServices(ctx: ServiceContext, caller: Caller, consultantId: string): Service[] {
  assertCanSee(ctx, caller, consultantId);
  return servicesSeenBy(ctx.repos.catalog.listFor(consultantId), consultantId, caller);
}

/** The caller, a consultant, offers a new service; the operation id makes a repeat change nothing. */
export function createService(
  ctx: ServiceContext,
  caller: Caller,
  input: NewService & { operationId: string },
): Service {
  const { operationId, ...service } = input;
  const { value, repeated } = write(ctx.db, () =>
    once(
      ctx,
      { id: operationId, uid: caller.uid, kind: 'create-service', request: service },
      () => {
        const made = planNewService({
          id: newDocumentId(),
          consultant: ctx.repos.users.getDoc(caller.uid),
          existing: ctx.repos.catalog.listFor(caller.uid),
          service,
          now: ctx.now(),
        });
        ctx.repos.catalog.insert(made);
        return { resultId: made.id, value: made };
      },
      (id) => {
        const stored = ctx.repos.catalog.get(id);
        if (!stored) throw new QupmError('NOT_FOUND', CATALOG_MESSAGES.noSuchService);
        return stored;
      },
    ),
  );
  if (!repeated) publishServices(ctx, caller.uid);
  return value;
}

/** The consultant edits, archives or restores one of their services (bookings already made keep theirs). */
export function updateService(
  ctx: ServiceContext,
  caller: Caller,
  serviceId: string,
  patch: ServicePatch,
): Service {
  const service = write(ctx.db, () => {
    const stored = ctx.repos.catalog.get(serviceId);
    const next = planServicePatch({
      service: stored,
      callerUid: caller.uid,
      existing: stored ? ctx.repos.catalog.listFor(stored.consultantId) : [],
      patch,
      now: ctx.now(),
    });
    ctx.repos.catalog.update(next);
    return next;
  });
  publishServices(ctx, service.consultantId);
  return service;
}

/** A consultant's weekly hours and time zone (null: not set yet), for them, their clients and admins. */
export function getAvailability(
  ctx: ServiceContext,
  caller: Caller,
  consultantId: string,
): Availability | null {
  assertCanSee(ctx, caller, consultantId);
  return ctx.repos.catalog.availability(consultantId);
}

/** The caller, a consultant, sets their weekly hours in their time zone. Bookings already made stay. */
export function setAvailability(
  ctx: ServiceContext,
  caller: Caller,
  input: { timeZone: string; hours: HoursInterval[] },
): Availability {
  const availability = write(ctx.db, () => {
    if (!ctx.repos.users.getDoc(caller.uid)?.isOwner) {
      throw new QupmError('PERMISSION_DENIED', CATALOG_MESSAGES.notConsultant);
    }
    const next: Availability = {
      consultantId: caller.uid,
      timeZone: input.timeZone,
      hours: normalizeHours(input.hours),
      updatedAt: ctx.now(),
    };
    ctx.repos.catalog.setAvailability(next);
    return next;
  });
  publishServices(ctx, caller.uid);
  return availability;
}

/**
 * The free times of one of a consultant's services between `from` and `to`, for whoever may book it (and the
 * consultant). Empty when the consultant has no hours; the reason is said by `noHours`.
 */
export function listFreeSlots(
  ctx: ServiceContext,
  caller: Caller,
  query: { serviceId: string; from: number; to: number },
): { slots: Slot[]; timeZone: string | null; noHours?: string } {
  const service = ctx.repos.catalog.get(query.serviceId);
  if (!service) throw new QupmError('NOT_FOUND', CATALOG_MESSAGES.noSuchService);
  assertCanSee(ctx, caller, service.consultantId);
  if (service.status !== 'active') {
    throw new QupmError('FAILED_PRECONDITION', CATALOG_MESSAGES.archived, 'service-archived');
  }
  const availability = ctx.repos.catalog.availability(service.consultantId);
  if (!availability || availability.hours.length === 0) {
    return { slots: [], timeZone: availability?.timeZone ?? null, noHours: AVAILABILITY_MESSAGES.noHours };
  }
  const duration = service.durationMinutes * 60_000;
  const to = Math.min(query.to, query.from + BOOKING_WINDOW.listMaxMs);
  const busy = ctx.repos.bookings.busy(service.consultantId, [
    { startsAt: query.from, endsAt: to + duration },
  ]);
  return {
    slots: freeSlots({
      availability,
      durationMinutes: service.durationMinutes,
      busy,
      from: query.from,
      to,
      now: ctx.now(),
    }),
    timeZone: availability.timeZone,
  };
}
