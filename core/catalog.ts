// A consultant's services (ARCHITECTURE.md "Service"): what they offer, for how long, at what price in credits,
// active or archived. Who creates, edits and sees them, for both backends. A service is never deleted: the
// bookings that name it keep pointing at it; archiving takes it off the list and out of booking.
import { QupmError } from './errors';
import type { Service, ServiceStatus } from './model';
import { isWholeNumberIn } from './wholeNumber';

export const SERVICE_LIMITS = {
  titleMax: 80,
  descriptionMax: 1000,
  /** A quarter of an hour to eight hours, on the slot grid (core/availability.ts SLOT_STEP_MINUTES). */
  durationMin: 15,
  durationMax: 480,
  durationStep: 15,
  priceMax: 1000,
  /** Active services one consultant keeps at once (archived ones do not count). */
  activeMax: 50,
} as const;

export const CATALOG_MESSAGES = {
  notConsultant: 'Only consultants offer services.',
  notYours: 'Only the consultant who offers this service can change it.',
  noSuchService: 'There is no such service.',
  tooMany: `You have ${SERVICE_LIMITS.activeMax} active services, the most one consultant keeps. Archive one first.`,
  archived: 'This service is archived and can no longer be booked.',
  duplicateTitle: 'You already offer an active service with this title. Give this one another title.',
} as const;

/** A service's length: whole minutes from 15 to 480 on the quarter hour. */
export function isServiceDuration(value: unknown): value is number {
  return (
    isWholeNumberIn(value, SERVICE_LIMITS.durationMin, SERVICE_LIMITS.durationMax) &&
    value % SERVICE_LIMITS.durationStep === 0
  );
}

/** A price in whole credits, 0 (a free session) to 1,000. */
export function isServicePrice(value: unknown): value is number {
  return isWholeNumberIn(value, 0, SERVICE_LIMITS.priceMax);
}

/** What a consultant sends to create a service (core/schemas.ts serviceCreateBody). */
export interface NewService {
  title: string;
  description: string;
  durationMinutes: number;
  priceCredits: number;
}

/** What may change on a service; `status` archives or restores it. */
export interface ServicePatch {
  title?: string;
  description?: string;
  durationMinutes?: number;
  priceCredits?: number;
  status?: ServiceStatus;
}

const sameTitle = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Two active services of one consultant never share a title (issue: "two offers carry the same title"): a client
 * choosing between them could not tell them apart.
 */
function assertTitleFree(title: string, others: readonly Service[], exceptId?: string): void {
  if (
    others.some(
      (other) => other.id !== exceptId && other.status === 'active' && sameTitle(other.title, title),
    )
  ) {
    throw new QupmError('FAILED_PRECONDITION', CATALOG_MESSAGES.duplicateTitle);
  }
}

/**
 * A new service of the caller, a consultant (users/{uid}.isOwner), given their services so far. Answers the
 * document to store.
 */
export function planNewService(input: {
  id: string;
  consultant: { uid: string; isOwner: boolean } | null;
  existing: readonly Service[];
  service: NewService;
  now: number;
}): Service {
  const { consultant, existing, service, now } = input;
  if (!consultant?.isOwner) throw new QupmError('PERMISSION_DENIED', CATALOG_MESSAGES.notConsultant);
  if (existing.filter((s) => s.status === 'active').length >= SERVICE_LIMITS.activeMax) {
    throw new QupmError('FAILED_PRECONDITION', CATALOG_MESSAGES.tooMany);
  }
  assertTitleFree(service.title, existing);
  return {
    id: input.id,
    consultantId: consultant.uid,
    title: service.title,
    description: service.description,
    durationMinutes: service.durationMinutes,
    priceCredits: service.priceCredits,
    status: 'active',
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * A change of one of the caller's services (`existing`: all of theirs, to keep active titles apart and count
 * them when one is restored). A booking already made keeps the title, length and price it was made with.
 */
export function planServicePatch(input: {
  service: Service | null;
  callerUid: string;
  existing: readonly Service[];
  patch: ServicePatch;
  now: number;
}): Service {
  const { service, callerUid, existing, patch, now } = input;
  if (!service) throw new QupmError('NOT_FOUND', CATALOG_MESSAGES.noSuchService);
  if (service.consultantId !== callerUid) throw new QupmError('PERMISSION_DENIED', CATALOG_MESSAGES.notYours);
  const next: Service = { ...service, ...definedOnly(patch), updatedAt: now };
  if (next.status === 'active') {
    if (
      service.status !== 'active' &&
      existing.filter((s) => s.status === 'active').length >= SERVICE_LIMITS.activeMax
    ) {
      throw new QupmError('FAILED_PRECONDITION', CATALOG_MESSAGES.tooMany);
    }
    assertTitleFree(next.title, existing, service.id);
  }
  return next;
}

function definedOnly(patch: ServicePatch): ServicePatch {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as ServicePatch;
}

/** A service can be booked only while it is active. */
export function assertBookableService(service: Service | null): asserts service is Service {
  if (!service) throw new QupmError('NOT_FOUND', CATALOG_MESSAGES.noSuchService);
  if (service.status !== 'active') {
    throw new QupmError('FAILED_PRECONDITION', CATALOG_MESSAGES.archived, 'service-archived');
  }
}

/**
 * A consultant's services as `viewer` sees them: the consultant (and an admin) all of them, anyone else the
 * active ones only; active first, then by title, then id.
 */
export function servicesSeenBy(
  services: readonly Service[],
  consultantId: string,
  viewer: { uid: string; isAdmin: boolean },
): Service[] {
  const all = viewer.uid === consultantId || viewer.isAdmin;
  return services
    .filter((service) => service.consultantId === consultantId && (all || service.status === 'active'))
    .sort(
      (a, b) =>
        (a.status === b.status ? 0 : a.status === 'active' ? -1 : 1) ||
        a.title.localeCompare(b.title, 'en') ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
}
