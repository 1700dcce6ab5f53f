// Times as a person reads them, in their own IANA time zone (the browser's, or the one a consultant set): the
// words of cards, mails and the booking screens. Intl only (no zone arithmetic here: core/availability.ts does
// that), so a screen can use it without carrying a time-zone library. English words, 24-hour clock, as the
// rest of QuPM writes times.

const LOCALE = 'en-GB';
const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let formatter = formats.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(LOCALE, { timeZone, ...options });
    formats.set(key, formatter);
  }
  return formatter;
}

interface DayParts {
  weekdayShort: string;
  weekdayLong: string;
  day: string;
  monthShort: string;
  monthLong: string;
  year: string;
}

// Put together from the parts rather than ICU's own patterns, whose commas differ between versions.
function dayParts(instant: number, timeZone: string): DayParts {
  const part = (options: Intl.DateTimeFormatOptions, type: Intl.DateTimeFormatPartTypes): string =>
    format(timeZone, options)
      .formatToParts(instant)
      .find((p) => p.type === type)?.value ?? '';
  return {
    weekdayShort: part({ weekday: 'short' }, 'weekday'),
    weekdayLong: part({ weekday: 'long' }, 'weekday'),
    day: part({ day: 'numeric' }, 'day'),
    monthShort: part({ month: 'short' }, 'month'),
    monthLong: part({ month: 'long' }, 'month'),
    year: part({ year: 'numeric' }, 'year'),
  };
}

/** "Fri 4 Dec" (with the year when it is not the year of `now`, which defaults to the instant's own). */
export function formatDay(instant: number, timeZone: string, now: number = instant): string {
  const day = dayParts(instant, timeZone);
  const short = `${day.weekdayShort} ${day.day} ${day.monthShort}`;
  return day.year === dayParts(now, timeZone).year ? short : `${short} ${day.year}`;
}

/** "09:00" in `timeZone`. */
export function formatClock(instant: number, timeZone: string): string {
  const parts = format(timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(
    instant,
  );
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('hour')}:${part('minute')}`;
}

/** "Sunday 29 March 2026, 09:00–10:00 (Europe/Paris)": a session's time, with the zone named. */
export function formatSession(span: { startsAt: number; endsAt: number }, timeZone: string): string {
  const day = dayParts(span.startsAt, timeZone);
  return (
    `${day.weekdayLong} ${day.day} ${day.monthLong} ${day.year}, ` +
    `${formatClock(span.startsAt, timeZone)}–${formatClock(span.endsAt, timeZone)} (${timeZone})`
  );
}

/** The date of `instant` in `timeZone` as 'YYYY-MM-DD' (free times are grouped by it). */
export function localDayKey(instant: number, timeZone: string): string {
  const parts = format(timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(
    instant,
  );
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Spans grouped by the day each starts on in `timeZone`, days in order. */
export function groupByLocalDay<T extends { startsAt: number }>(
  spans: readonly T[],
  timeZone: string,
): Array<{ day: string; spans: T[] }> {
  const days = new Map<string, T[]>();
  for (const span of [...spans].sort((a, b) => a.startsAt - b.startsAt)) {
    const day = localDayKey(span.startsAt, timeZone);
    days.set(day, [...(days.get(day) ?? []), span]);
  }
  return [...days.entries()].map(([day, grouped]) => ({ day, spans: grouped }));
}
