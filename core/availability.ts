// A consultant's weekly hours in their own IANA time zone, and the free slots they leave (ARCHITECTURE.md
// "Service", "Booking"): the hours minus every time a booking holds (requested or confirmed, and a proposed time
// waiting for its answer), on a 15-minute grid, from a little after now up to a horizon. Both backends and the
// booking decisions (core/bookings.ts) use these; wall-clock times become instants with the zone's rules of the
// day, daylight saving included (luxon's IANA zone data, which is the runtime's Intl).
//
// A wall-clock time that a daylight-saving change skips (02:30 on a spring-forward night) is taken as the instant
// the clocks jumped to (03:30 summer time: RFC 5545 §3.3.5 and Temporal's 'compatible'); one that happens twice
// (02:30 on a fall-back night) is its first occurrence.
import { IANAZone } from 'luxon';
import { QupmError } from './errors';
import type { ErrorReason } from './errors';
import type { Availability, HoursInterval, Slot } from './model';

const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** Every booking starts and ends on this grid (UTC-aligned; every time zone's offset today is a multiple of it). */
export const SLOT_STEP_MINUTES = 15;
export const SLOT_STEP_MS = SLOT_STEP_MINUTES * MINUTE_MS;

/**
 * When a session may be booked: at least an hour ahead (a consultant needs a moment to see a request) and at most
 * 90 days ahead; a list of free slots covers at most 31 days at once.
 */
export const BOOKING_WINDOW = {
  minNoticeMs: 60 * MINUTE_MS,
  horizonMs: 90 * DAY_MS,
  listMaxMs: 31 * DAY_MS,
} as const;

/** Weekly hours: at most 6 intervals a day. */
export const HOURS_LIMITS = { intervalsMax: 42, timeZoneMax: 64 } as const;

export const AVAILABILITY_MESSAGES = {
  badZone: 'timeZone: not a time zone this system knows (use an IANA name such as Europe/Paris)',
  badClock: 'hours: times are HH:MM on the quarter hour, from 00:00 to 24:00',
  emptyInterval: 'hours: each interval must end after it starts',
  past: 'That time has passed. Choose a time in the future.',
  tooSoon: 'That time is too soon: sessions are booked at least an hour ahead.',
  beyondHorizon: 'That time is too far ahead: sessions are booked at most 90 days ahead.',
  offGrid: 'startsAt: sessions start on the quarter hour',
  noHours: 'This consultant has not set their hours yet, so nothing can be booked.',
  outsideHours: 'That time is outside the consultant’s hours. Choose one of the free times.',
  taken: 'That time is no longer free. Choose another one of the free times.',
} as const;

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

const CLOCK = /^(?:([01]\d|2[0-3]):(00|15|30|45)|(24):(00))$/;

/** Minutes after midnight of an 'HH:MM' on the quarter hour (24:00 is 1440), or null. */
export function clockMinutes(clock: string): number | null {
  const match = CLOCK.exec(clock);
  if (!match) return null;
  const hours = Number(match[1] ?? match[3]);
  const minutes = Number(match[2] ?? match[4]);
  return hours * 60 + minutes;
}

function clockOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** An IANA time zone the runtime knows, in its canonical spelling ('utc' → 'UTC'), or null. */
export function canonicalTimeZone(zone: unknown): string | null {
  if (typeof zone !== 'string' || zone === '' || zone.length > HOURS_LIMITS.timeZoneMax) return null;
  if (!IANAZone.isValidZone(zone)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/**
 * Weekly hours as the backends keep them: sorted by day and start, touching intervals of one day joined, and
 * refused (INVALID_ARGUMENT, naming the day) when an interval is empty or two overlap.
 */
export function normalizeHours(hours: readonly HoursInterval[]): HoursInterval[] {
  if (hours.length > HOURS_LIMITS.intervalsMax) {
    throw new QupmError('INVALID_ARGUMENT', `hours: at most ${HOURS_LIMITS.intervalsMax} intervals`);
  }
  const parsed = hours.map((interval) => {
    const start = clockMinutes(interval.start);
    const end = clockMinutes(interval.end);
    if (!Number.isInteger(interval.day) || interval.day < 1 || interval.day > 7) {
      throw new QupmError('INVALID_ARGUMENT', 'hours: day is 1 (Monday) to 7 (Sunday)');
    }
    if (start === null || end === null || start === 1440) {
      throw new QupmError('INVALID_ARGUMENT', AVAILABILITY_MESSAGES.badClock);
    }
    if (end <= start) throw new QupmError('INVALID_ARGUMENT', AVAILABILITY_MESSAGES.emptyInterval);
    return { day: interval.day, start, end };
  });
  parsed.sort((a, b) => a.day - b.day || a.start - b.start);
  const joined: Array<{ day: number; start: number; end: number }> = [];
  for (const interval of parsed) {
    const last = joined.at(-1);
    if (last && last.day === interval.day && interval.start < last.end) {
      const name = WEEKDAYS[interval.day - 1] ?? '';
      throw new QupmError(
        'INVALID_ARGUMENT',
        `hours: on ${name}, ${clockOf(last.start)}–${clockOf(last.end)} overlaps ${clockOf(interval.start)}–${clockOf(interval.end)}`,
      );
    }
    if (last && last.day === interval.day && interval.start === last.end) last.end = interval.end;
    else joined.push({ ...interval });
  }
  return joined.map(({ day, start, end }) => ({ day, start: clockOf(start), end: clockOf(end) }));
}

// ---- wall clock ↔ instants ------------------------------------------------------------------------------------

const zones = new Map<string, IANAZone>();
function zoneOf(timeZone: string): IANAZone {
  let zone = zones.get(timeZone);
  if (!zone) {
    zone = IANAZone.create(timeZone);
    if (!zone.isValid) throw new QupmError('INVALID_ARGUMENT', AVAILABILITY_MESSAGES.badZone);
    zones.set(timeZone, zone);
  }
  return zone;
}

/** The zone's offset from UTC at `instant`, in minutes. */
export function offsetMinutes(timeZone: string, instant: number): number {
  return zoneOf(timeZone).offset(instant);
}

/** A calendar date. */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

/** The date `instant` falls on in `timeZone`. */
export function localDateOf(instant: number, timeZone: string): LocalDate {
  const shifted = new Date(instant + offsetMinutes(timeZone, instant) * MINUTE_MS);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** ISO weekday of a date: 1 Monday … 7 Sunday. */
export function isoWeekday(date: LocalDate): number {
  const weekday = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

function addDays(date: LocalDate, days: number): LocalDate {
  const next = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
}

/**
 * The instant of wall-clock `minutes` after midnight of `date` in `timeZone` (1440: the next midnight). A time a
 * change skips is the instant the clocks jumped to; a time that happens twice is its first occurrence.
 */
export function wallClockInstant(date: LocalDate, minutes: number, timeZone: string): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day) + minutes * MINUTE_MS;
  // Offsets are at most 14 hours either way: a change that matters lies within 18 hours of `wall` read as UTC.
  const before = offsetMinutes(timeZone, wall - 18 * 60 * MINUTE_MS);
  const candidates = new Set([
    before,
    offsetMinutes(timeZone, wall),
    offsetMinutes(timeZone, wall + 18 * 60 * MINUTE_MS),
  ]);
  let earliest: number | null = null;
  for (const offset of candidates) {
    const instant = wall - offset * MINUTE_MS;
    if (offsetMinutes(timeZone, instant) === offset && (earliest === null || instant < earliest)) {
      earliest = instant;
    }
  }
  // Skipped: read with the offset in force before the jump, which lands after it.
  return earliest ?? wall - before * MINUTE_MS;
}

/** The cells of the slot grid a span covers (their start instants). */
export function slotCells(span: Slot): number[] {
  const cells: number[] = [];
  for (let cell = span.startsAt; cell < span.endsAt; cell += SLOT_STEP_MS) cells.push(cell);
  return cells;
}

export function overlaps(a: Slot, b: Slot): boolean {
  return a.startsAt < b.endsAt && b.startsAt < a.endsAt;
}

/** The spans of the consultant's hours on `date` (their zone's date), as instants. */
function hoursOn(availability: Pick<Availability, 'timeZone' | 'hours'>, date: LocalDate): Slot[] {
  const weekday = isoWeekday(date);
  return availability.hours
    .filter((interval) => interval.day === weekday)
    .flatMap((interval) => {
      const start = clockMinutes(interval.start);
      const end = clockMinutes(interval.end);
      if (start === null || end === null) return [];
      const span = {
        startsAt: wallClockInstant(date, start, availability.timeZone),
        endsAt: wallClockInstant(date, end, availability.timeZone),
      };
      return span.endsAt > span.startsAt ? [span] : [];
    });
}

/** Whether [startsAt, endsAt) lies within one interval of the consultant's hours. */
export function isWithinHours(availability: Pick<Availability, 'timeZone' | 'hours'>, span: Slot): boolean {
  const date = localDateOf(span.startsAt, availability.timeZone);
  return hoursOn(availability, date).some(
    (hours) => hours.startsAt <= span.startsAt && span.endsAt <= hours.endsAt,
  );
}

/**
 * The free slots of a service `durationMinutes` long between `from` and `to` (its start in [from, to)): every
 * quarter-hour start within the consultant's hours whose whole span is free of `busy`, at least the minimum notice
 * after `now` and within the horizon. Oldest first.
 */
export function freeSlots(input: {
  availability: Pick<Availability, 'timeZone' | 'hours'> | null;
  durationMinutes: number;
  busy: readonly Slot[];
  from: number;
  to: number;
  now: number;
}): Slot[] {
  const { availability, durationMinutes, busy, now } = input;
  if (!availability || availability.hours.length === 0) return [];
  const from = Math.max(input.from, now + BOOKING_WINDOW.minNoticeMs);
  const to = Math.min(input.to, now + BOOKING_WINDOW.horizonMs + 1, input.from + BOOKING_WINDOW.listMaxMs);
  if (to <= from) return [];
  const duration = durationMinutes * MINUTE_MS;
  const taken = new Set(busy.flatMap(slotCells));
  const slots: Slot[] = [];
  const last = localDateOf(to, availability.timeZone);
  // A day's hours reach at most into the next day's instants; start a day early for zones behind UTC.
  for (
    let date = addDays(localDateOf(from, availability.timeZone), -1);
    compareDates(date, last) <= 0;
    date = addDays(date, 1)
  ) {
    for (const hours of hoursOn(availability, date)) {
      for (let start = alignUp(hours.startsAt); start + duration <= hours.endsAt; start += SLOT_STEP_MS) {
        if (start < from || start >= to) continue;
        const slot = { startsAt: start, endsAt: start + duration };
        if (slotCells(slot).some((cell) => taken.has(cell))) continue;
        slots.push(slot);
      }
    }
  }
  return slots
    .sort((a, b) => a.startsAt - b.startsAt)
    .filter((slot, i, all) => slot.startsAt !== all[i - 1]?.startsAt);
}

function alignUp(instant: number): number {
  return Math.ceil(instant / SLOT_STEP_MS) * SLOT_STEP_MS;
}

function compareDates(a: LocalDate, b: LocalDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

function refuse(
  status: 'INVALID_ARGUMENT' | 'FAILED_PRECONDITION',
  message: string,
  reason: ErrorReason,
): never {
  throw new QupmError(status, message, reason);
}

/**
 * A time someone asks for, checked against the clock only: on the grid, in the future by the minimum notice,
 * within the horizon. The consultant's own proposals need no more than this and a free calendar.
 */
export function assertBookableTime(startsAt: number, now: number): void {
  if (startsAt % SLOT_STEP_MS !== 0) refuse('INVALID_ARGUMENT', AVAILABILITY_MESSAGES.offGrid, 'off-grid');
  if (startsAt <= now) refuse('INVALID_ARGUMENT', AVAILABILITY_MESSAGES.past, 'slot-in-past');
  if (startsAt < now + BOOKING_WINDOW.minNoticeMs) {
    refuse('FAILED_PRECONDITION', AVAILABILITY_MESSAGES.tooSoon, 'too-soon');
  }
  if (startsAt > now + BOOKING_WINDOW.horizonMs) {
    refuse('INVALID_ARGUMENT', AVAILABILITY_MESSAGES.beyondHorizon, 'beyond-horizon');
  }
}

/** A span free of every one of `busy` (the calendar's other holds); refused as taken otherwise. */
export function assertFree(span: Slot, busy: readonly Slot[]): void {
  if (busy.some((other) => overlaps(span, other))) {
    refuse('FAILED_PRECONDITION', AVAILABILITY_MESSAGES.taken, 'slot-taken');
  }
}

/** A client's time: bookable by the clock, within the consultant's hours, and free. */
export function assertFreeSlot(input: {
  availability: Pick<Availability, 'timeZone' | 'hours'> | null;
  span: Slot;
  busy: readonly Slot[];
  now: number;
}): void {
  const { availability, span, busy, now } = input;
  assertBookableTime(span.startsAt, now);
  if (!availability || availability.hours.length === 0) {
    refuse('FAILED_PRECONDITION', AVAILABILITY_MESSAGES.noHours, 'outside-hours');
  }
  if (!isWithinHours(availability, span)) {
    refuse('FAILED_PRECONDITION', AVAILABILITY_MESSAGES.outsideHours, 'outside-hours');
  }
  assertFree(span, busy);
}
