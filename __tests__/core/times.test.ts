// Times as a person reads them (core/times.ts), in their own zone.
import { formatClock, formatDay, formatSession, groupByLocalDay, localDayKey } from '@core/times';

const AT = Date.parse('2026-03-29T22:30:00Z');

describe('formatDay and formatClock', () => {
  it('writes the day and the 24-hour time in the zone asked for', () => {
    expect(formatDay(AT, 'UTC')).toBe('Sun 29 Mar');
    expect(formatDay(AT, 'Asia/Tokyo')).toBe('Mon 30 Mar');
    expect(formatClock(AT, 'Asia/Tokyo')).toBe('07:30');
    expect(formatClock(AT, 'America/New_York')).toBe('18:30');
  });

  it('adds the year when it is not the current one', () => {
    expect(formatDay(AT, 'UTC', Date.parse('2025-12-01T00:00:00Z'))).toBe('Sun 29 Mar 2026');
  });
});

describe('formatSession', () => {
  it('names the day, the span and the zone', () => {
    expect(formatSession({ startsAt: AT, endsAt: AT + 45 * 60_000 }, 'Europe/Paris')).toBe(
      'Monday 30 March 2026, 00:30–01:15 (Europe/Paris)',
    );
  });
});

describe('localDayKey and groupByLocalDay', () => {
  it('groups spans by the day they start on in the reader’s zone', () => {
    const spans = [{ startsAt: AT + 7200_000 }, { startsAt: AT - 3600_000 }, { startsAt: AT }];
    expect(localDayKey(AT, 'UTC')).toBe('2026-03-29');
    expect(groupByLocalDay(spans, 'UTC').map((g) => [g.day, g.spans.length])).toEqual([
      ['2026-03-29', 2],
      ['2026-03-30', 1],
    ]);
    expect(groupByLocalDay(spans, 'Asia/Tokyo').map((g) => [g.day, g.spans.length])).toEqual([
      ['2026-03-30', 3],
    ]);
  });
});
