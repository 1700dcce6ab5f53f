// Times as people read them, and a clock that ticks for countdowns. Everything takes `now` so it can be tested.
import { useEffect, useState } from 'react';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// Formatters made once: `toLocale…String` builds a new one on every call, which a long list pays per row.
const CLOCK = new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' });
const WEEKDAY = new Intl.DateTimeFormat([], { weekday: 'short' });
const DAY_MONTH = new Intl.DateTimeFormat([], { day: 'numeric', month: 'short' });
const FULL = new Intl.DateTimeFormat([], { dateStyle: 'medium', timeStyle: 'short' });
const DATE = new Intl.DateTimeFormat([], { dateStyle: 'medium' });

/** The current time, updated every `everyMs` while the component is shown. */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** A message's time: the clock time today, the weekday within a week, else the date. */
export function formatMessageTime(at: number, now: number): string {
  const date = new Date(at);
  const today = new Date(now);
  if (date.toDateString() === today.toDateString()) return CLOCK.format(date);
  if (now - at < 6 * DAY && at < now) return WEEKDAY.format(date);
  return DAY_MONTH.format(date);
}

/** The clock time alone: a bubble's time, under the day separator that already says which day. */
export function formatClockTime(at: number): string {
  return CLOCK.format(at);
}

/** The full date and time, for a timestamp's title and datetime. */
export function formatFullTime(at: number): string {
  return FULL.format(at);
}

/** The date alone, in the one style of every screen (the browser's locale): "27 Nov 2026", "Nov 27, 2026". */
export function formatDate(at: number): string {
  return DATE.format(at);
}

/** What is left until `until`: "2 d 4 h", "3 h 12 min", "4 min 05 s", or null once it has passed. */
export function formatRemaining(until: number, now: number): string | null {
  const left = until - now;
  if (left <= 0) return null;
  if (left >= DAY) return `${Math.floor(left / DAY)} d ${Math.floor((left % DAY) / HOUR)} h`;
  if (left >= HOUR) return `${Math.floor(left / HOUR)} h ${Math.floor((left % HOUR) / MINUTE)} min`;
  const seconds = Math.floor((left % MINUTE) / 1000);
  return `${Math.floor(left / MINUTE)} min ${String(seconds).padStart(2, '0')} s`;
}
