// Dates in one style on every screen: through Intl, in the browser's locale (here the test's, en-US in Node's ICU).
import { formatDate, formatFullTime } from '@/ui/time';

const AT = Date.UTC(2026, 10, 27, 12, 30);

describe('formatDate and formatFullTime', () => {
  it('say the date as the browser’s locale writes it, the full time with the same date', () => {
    const date = new Intl.DateTimeFormat([], { dateStyle: 'medium' }).format(AT);
    expect(formatDate(AT)).toBe(date);
    expect(formatFullTime(AT).startsWith(date)).toBe(true);
    expect(formatFullTime(AT)).not.toBe(date);
  });

  it('never falls back to the numeric default of toLocaleDateString', () => {
    expect(formatDate(AT)).not.toBe(new Date(AT).toLocaleDateString());
    expect(formatDate(AT)).toMatch(/2026/);
  });
});
