// How long invitations and offers run (core/expiry.ts): the forms' whole days, and the backends' check.
import { QupmError } from '@core/errors';
import { MAX_VALIDITY_MS, VALIDITY_DAYS, assertExpiry, expiresAfterDays, isValidityDays } from '@core/expiry';

const NOW = 1_767_225_600_000;
const DAY = 24 * 60 * 60 * 1000;

describe('the limits', () => {
  it('the forms offer 1 to 365 days; the backends accept a day more', () => {
    expect(VALIDITY_DAYS).toEqual({ min: 1, max: 365 });
    expect(MAX_VALIDITY_MS).toBe(366 * DAY);
  });
});

describe('isValidityDays', () => {
  it.each([
    [1, true],
    [365, true],
    [0, false],
    [366, false],
    [1.5, false],
    [null, false],
  ])('%p → %s', (days, expected) => {
    expect(isValidityDays(days)).toBe(expected);
  });
});

describe('expiresAfterDays', () => {
  it('counts whole days from now', () => {
    expect(expiresAfterDays(1, NOW)).toBe(NOW + DAY);
    expect(expiresAfterDays(365, NOW)).toBe(NOW + 365 * DAY);
  });
});

describe('assertExpiry', () => {
  const refusal = (expiresAt: number): string | null => {
    try {
      assertExpiry(expiresAt, NOW);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(QupmError);
      expect((error as QupmError).status).toBe('INVALID_ARGUMENT');
      return (error as QupmError).message;
    }
  };

  it.each([
    ['now', NOW, 'expiresAt: must be in the future'],
    ['a moment ago', NOW - 1, 'expiresAt: must be in the future'],
    ['a moment from now', NOW + 1, null],
    ['exactly the limit ahead', NOW + MAX_VALIDITY_MS, null],
    ['a millisecond past the limit', NOW + MAX_VALIDITY_MS + 1, 'expiresAt: at most a year ahead'],
  ])('%s', (_label, expiresAt, expected) => {
    expect(refusal(expiresAt)).toBe(expected);
  });

  it('accepts every validity the forms offer, also from a browser clock up to a day ahead', () => {
    for (const days of [VALIDITY_DAYS.min, VALIDITY_DAYS.max]) {
      for (const skew of [0, DAY - 1]) expect(refusal(expiresAfterDays(days, NOW + skew))).toBeNull();
    }
  });

  it('names the field it checks', () => {
    expect(() => assertExpiry(NOW, NOW, 'until')).toThrow('until: must be in the future');
  });
});
