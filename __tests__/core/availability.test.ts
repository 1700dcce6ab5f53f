// Weekly hours and free slots (core/availability.ts): wall-clock hours in the consultant's zone, daylight saving
// included, minus what bookings hold, on a 15-minute grid; and the checks a requested time meets.
import fc from 'fast-check';
import {
  assertBookableTime,
  assertFreeSlot,
  BOOKING_WINDOW,
  canonicalTimeZone,
  clockMinutes,
  freeSlots,
  isWithinHours,
  localDateOf,
  normalizeHours,
  offsetMinutes,
  SLOT_STEP_MS,
  slotCells,
  wallClockInstant,
} from '@core/availability';
import type { Availability, Slot } from '@core/model';
import { refusal } from '../support/refusal';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const utc = (iso: string): number => Date.parse(iso);

describe('clockMinutes', () => {
  it.each([
    ['00:00', 0],
    ['09:15', 555],
    ['23:45', 1425],
    ['24:00', 1440],
  ])('reads %s as %i minutes', (clock, minutes) => {
    expect(clockMinutes(clock)).toBe(minutes);
  });

  it.each(['9:00', '09:10', '24:15', '25:00', '12:60', '', 'noon'])('refuses %p', (clock) => {
    expect(clockMinutes(clock)).toBeNull();
  });
});

describe('canonicalTimeZone', () => {
  it('answers the canonical name of a zone the runtime knows', () => {
    expect(canonicalTimeZone('Europe/Paris')).toBe('Europe/Paris');
    expect(canonicalTimeZone('America/New_York')).toBe('America/New_York');
  });

  it.each(['Mars/Olympus', '', 'Europe/Paris; DROP', 'x'.repeat(65), 42, null])('refuses %p', (zone) => {
    expect(canonicalTimeZone(zone)).toBeNull();
  });
});

describe('normalizeHours', () => {
  it('sorts by day and time and joins touching intervals of one day', () => {
    expect(
      normalizeHours([
        { day: 3, start: '14:00', end: '17:00' },
        { day: 1, start: '12:00', end: '13:00' },
        { day: 1, start: '09:00', end: '12:00' },
      ]),
    ).toEqual([
      { day: 1, start: '09:00', end: '13:00' },
      { day: 3, start: '14:00', end: '17:00' },
    ]);
  });

  it('refuses overlapping intervals, naming the day and both', () => {
    const error = refusal(() =>
      normalizeHours([
        { day: 2, start: '09:00', end: '12:00' },
        { day: 2, start: '11:00', end: '13:00' },
      ]),
    );
    expect(error).toEqual({
      status: 'INVALID_ARGUMENT',
      message: 'hours: on Tuesday, 09:00–12:00 overlaps 11:00–13:00',
    });
  });

  it.each([
    ['an empty interval', { day: 1, start: '10:00', end: '10:00' }],
    ['an interval ending before it starts', { day: 1, start: '11:00', end: '10:00' }],
    ['a time off the quarter hour', { day: 1, start: '10:10', end: '11:00' }],
    ['a start at 24:00', { day: 1, start: '24:00', end: '24:00' }],
    ['day 0', { day: 0, start: '10:00', end: '11:00' }],
    ['day 8', { day: 8, start: '10:00', end: '11:00' }],
  ])('refuses %s', (_label, interval) => {
    expect(refusal(() => normalizeHours([interval])).status).toBe('INVALID_ARGUMENT');
  });

  it('refuses more than 42 intervals', () => {
    const many = Array.from({ length: 43 }, (_, i) => ({
      day: (i % 7) + 1,
      start: `${String(Math.floor(i / 7) * 2).padStart(2, '0')}:00`,
      end: `${String(Math.floor(i / 7) * 2 + 1).padStart(2, '0')}:00`,
    }));
    expect(refusal(() => normalizeHours(many)).status).toBe('INVALID_ARGUMENT');
  });
});

describe('wallClockInstant', () => {
  it('reads a wall-clock time with the offset of that day (summer and winter in Paris)', () => {
    expect(wallClockInstant({ year: 2026, month: 1, day: 15 }, 9 * 60, 'Europe/Paris')).toBe(
      utc('2026-01-15T08:00:00Z'),
    );
    expect(wallClockInstant({ year: 2026, month: 7, day: 15 }, 9 * 60, 'Europe/Paris')).toBe(
      utc('2026-07-15T07:00:00Z'),
    );
  });

  it('takes a time the spring change skips as the instant the clocks jumped to', () => {
    // 29 March 2026, Paris: 02:00 CET becomes 03:00 CEST; 02:30 never happens.
    expect(wallClockInstant({ year: 2026, month: 3, day: 29 }, 150, 'Europe/Paris')).toBe(
      utc('2026-03-29T01:30:00Z'),
    );
  });

  it('takes a time the autumn change repeats as its first occurrence', () => {
    // 25 October 2026, Paris: 03:00 CEST becomes 02:00 CET; 02:30 happens at 00:30Z and again at 01:30Z.
    expect(wallClockInstant({ year: 2026, month: 10, day: 25 }, 150, 'Europe/Paris')).toBe(
      utc('2026-10-25T00:30:00Z'),
    );
  });

  it('reads 24:00 as the next midnight', () => {
    expect(wallClockInstant({ year: 2026, month: 1, day: 15 }, 1440, 'America/New_York')).toBe(
      utc('2026-01-16T05:00:00Z'),
    );
  });

  it('lands on the wall-clock time asked for, in any zone, whenever that time exists (property)', () => {
    const zones = [
      'Europe/Paris',
      'America/New_York',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'Pacific/Chatham',
      'UTC',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2030, 0, 1) }),
        fc.integer({ min: 0, max: 95 }),
        (zone, day, quarter) => {
          const date = localDateOf(day, zone);
          const minutes = quarter * 15;
          const instant = wallClockInstant(date, minutes, zone);
          const back = new Date(instant + offsetMinutes(zone, instant) * 60_000);
          const wall = Date.UTC(date.year, date.month - 1, date.day) + minutes * 60_000;
          // Existing times come back exactly; a skipped one lands after it, by the size of the skip (≤ 1 h).
          expect(back.getTime() - wall).toBeGreaterThanOrEqual(0);
          expect(back.getTime() - wall).toBeLessThanOrEqual(HOUR);
          // And no earlier instant reads as the same wall-clock time (the first occurrence).
          const earlier = instant - 30 * 60_000;
          expect(earlier + offsetMinutes(zone, earlier) * 60_000).not.toBe(back.getTime());
        },
      ),
    );
  });
});

const PARIS_WEEKDAYS: Availability = {
  consultantId: 'c',
  timeZone: 'Europe/Paris',
  hours: [1, 2, 3, 4, 5].map((day) => ({ day, start: '09:00', end: '12:00' })),
  updatedAt: 0,
};

describe('freeSlots', () => {
  // Monday 12 January 2026, 06:00 UTC (07:00 in Paris).
  const now = utc('2026-01-12T06:00:00Z');

  it('offers every quarter-hour start of the hours that fits the service, in the consultant’s zone', () => {
    const slots = freeSlots({
      availability: PARIS_WEEKDAYS,
      durationMinutes: 60,
      busy: [],
      from: utc('2026-01-12T00:00:00Z'),
      to: utc('2026-01-13T00:00:00Z'),
      now,
    });
    // 09:00 to 11:00 Paris (08:00Z to 10:00Z), every 15 minutes: 9 starts.
    expect(slots.map((s) => new Date(s.startsAt).toISOString().slice(11, 16))).toEqual([
      '08:00',
      '08:15',
      '08:30',
      '08:45',
      '09:00',
      '09:15',
      '09:30',
      '09:45',
      '10:00',
    ]);
    expect(slots.every((s) => s.endsAt - s.startsAt === HOUR)).toBe(true);
  });

  it('leaves out every start whose span touches a held time', () => {
    const busy: Slot[] = [{ startsAt: utc('2026-01-12T09:00:00Z'), endsAt: utc('2026-01-12T09:30:00Z') }];
    const slots = freeSlots({
      availability: PARIS_WEEKDAYS,
      durationMinutes: 60,
      busy,
      from: utc('2026-01-12T00:00:00Z'),
      to: utc('2026-01-13T00:00:00Z'),
      now,
    });
    expect(slots.map((s) => new Date(s.startsAt).toISOString().slice(11, 16))).toEqual([
      '08:00',
      '09:30',
      '09:45',
      '10:00',
    ]);
  });

  it('follows the consultant’s zone across the spring change: 09:00 Paris is 08:00Z before, 07:00Z after', () => {
    const slots = freeSlots({
      availability: {
        ...PARIS_WEEKDAYS,
        hours: [
          { day: 5, start: '09:00', end: '09:15' },
          { day: 1, start: '09:00', end: '09:15' },
        ],
      },
      durationMinutes: 15,
      busy: [],
      from: utc('2026-03-27T00:00:00Z'),
      to: utc('2026-03-31T00:00:00Z'),
      now: utc('2026-03-20T00:00:00Z'),
    });
    expect(slots.map((s) => new Date(s.startsAt).toISOString())).toEqual([
      '2026-03-27T08:00:00.000Z', // Friday, CET
      '2026-03-30T07:00:00.000Z', // Monday, CEST
    ]);
  });

  it('gives the wall-clock hours their real length on the night of a change', () => {
    const night = { ...PARIS_WEEKDAYS, hours: [{ day: 7, start: '01:00', end: '04:00' }] };
    const count = (from: string) =>
      freeSlots({
        availability: night,
        durationMinutes: 15,
        busy: [],
        from: utc(from),
        to: utc(from) + DAY,
        now: utc(from) - 7 * DAY,
      }).length;
    // Spring: 01:00–04:00 wall clock is two real hours; autumn: four.
    expect(count('2026-03-28T12:00:00Z')).toBe(8);
    expect(count('2026-10-24T12:00:00Z')).toBe(16);
  });

  it('starts no sooner than the minimum notice and ends at the horizon', () => {
    const every = {
      ...PARIS_WEEKDAYS,
      timeZone: 'UTC',
      hours: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, start: '00:00', end: '24:00' })),
    };
    const first = freeSlots({
      availability: every,
      durationMinutes: 15,
      busy: [],
      from: now - DAY,
      to: now + DAY,
      now,
    })[0];
    expect(first?.startsAt).toBe(now + BOOKING_WINDOW.minNoticeMs);
    const late = freeSlots({
      availability: every,
      durationMinutes: 15,
      busy: [],
      from: now + BOOKING_WINDOW.horizonMs - HOUR,
      to: now + BOOKING_WINDOW.horizonMs + DAY,
      now,
    });
    expect(late.at(-1)?.startsAt).toBe(now + BOOKING_WINDOW.horizonMs);
  });

  it('offers nothing without hours', () => {
    expect(
      freeSlots({ availability: null, durationMinutes: 15, busy: [], from: now, to: now + DAY, now }),
    ).toEqual([]);
  });

  it('never offers a slot outside the hours, off the grid, overlapping a held time or too soon (property)', () => {
    const zones = ['Europe/Paris', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe'];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.array(
          fc.record({
            day: fc.integer({ min: 1, max: 7 }),
            start: fc.integer({ min: 0, max: 90 }),
            len: fc.integer({ min: 1, max: 24 }),
          }),
          { maxLength: 6 },
        ),
        fc.constantFrom(15, 30, 45, 60, 90),
        fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) }),
        fc.array(
          fc.record({ at: fc.integer({ min: 0, max: 14 * 96 }), len: fc.integer({ min: 1, max: 8 }) }),
          { maxLength: 6 },
        ),
        (zone, raw, duration, nowRaw, rawBusy) => {
          const clock = (q: number) =>
            `${String(Math.floor(q / 4)).padStart(2, '0')}:${String((q % 4) * 15).padStart(2, '0')}`;
          let hours: Availability['hours'];
          try {
            hours = normalizeHours(
              raw.map((h) => ({
                day: h.day,
                start: clock(h.start),
                end: clock(Math.min(96, h.start + h.len)),
              })),
            );
          } catch {
            return; // overlapping draws are refused by normalizeHours, tested above
          }
          const now = nowRaw - (nowRaw % SLOT_STEP_MS);
          const busy = rawBusy.map((b) => ({
            startsAt: now + b.at * SLOT_STEP_MS,
            endsAt: now + (b.at + b.len) * SLOT_STEP_MS,
          }));
          const availability = { timeZone: zone, hours };
          const slots = freeSlots({
            availability,
            durationMinutes: duration,
            busy,
            from: now,
            to: now + 14 * DAY,
            now,
          });
          const taken = new Set(busy.flatMap(slotCells));
          for (const slot of slots) {
            expect(slot.startsAt % SLOT_STEP_MS).toBe(0);
            expect(slot.endsAt - slot.startsAt).toBe(duration * 60_000);
            expect(slot.startsAt).toBeGreaterThanOrEqual(now + BOOKING_WINDOW.minNoticeMs);
            expect(isWithinHours(availability, slot)).toBe(true);
            expect(slotCells(slot).some((cell) => taken.has(cell))).toBe(false);
            expect(() => assertFreeSlot({ availability, span: slot, busy, now })).not.toThrow();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('assertBookableTime and assertFreeSlot', () => {
  const now = utc('2026-01-12T06:00:00Z');
  const at = (iso: string) => ({ startsAt: utc(iso), endsAt: utc(iso) + HOUR });

  it.each<[string, number, string, string]>([
    ['a time in the past', now - HOUR, 'INVALID_ARGUMENT', 'slot-in-past'],
    ['now itself', now, 'INVALID_ARGUMENT', 'slot-in-past'],
    ['a time within the hour', now + 45 * 60_000, 'FAILED_PRECONDITION', 'too-soon'],
    ['a time off the quarter hour', now + 2 * HOUR + 60_000, 'INVALID_ARGUMENT', 'off-grid'],
    [
      'a time past the horizon',
      now + BOOKING_WINDOW.horizonMs + SLOT_STEP_MS,
      'INVALID_ARGUMENT',
      'beyond-horizon',
    ],
  ])('refuses %s', (_label, startsAt, status, reason) => {
    expect(refusal(() => assertBookableTime(startsAt, now))).toMatchObject({ status, reason });
  });

  it('refuses a time outside the hours, and one in the hours that is held', () => {
    expect(
      refusal(() =>
        assertFreeSlot({ availability: PARIS_WEEKDAYS, span: at('2026-01-12T13:00:00Z'), busy: [], now }),
      ),
    ).toMatchObject({
      status: 'FAILED_PRECONDITION',
      reason: 'outside-hours',
    });
    // A slot running past the end of the hours is outside them too.
    expect(
      refusal(() =>
        assertFreeSlot({ availability: PARIS_WEEKDAYS, span: at('2026-01-12T10:30:00Z'), busy: [], now }),
      ).reason,
    ).toBe('outside-hours');
    const busy = [at('2026-01-12T08:30:00Z')];
    expect(
      refusal(() =>
        assertFreeSlot({ availability: PARIS_WEEKDAYS, span: at('2026-01-12T09:00:00Z'), busy, now }),
      ),
    ).toMatchObject({
      status: 'FAILED_PRECONDITION',
      reason: 'slot-taken',
    });
    expect(() =>
      assertFreeSlot({ availability: PARIS_WEEKDAYS, span: at('2026-01-12T09:30:00Z'), busy, now }),
    ).not.toThrow();
  });

  it('refuses any time of a consultant without hours, saying so', () => {
    expect(
      refusal(() => assertFreeSlot({ availability: null, span: at('2026-01-12T09:00:00Z'), busy: [], now }))
        .message,
    ).toMatch(/not set their hours/);
  });
});
