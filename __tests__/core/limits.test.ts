// The numeric limits of core/limits.ts and the one predicate they share, at their boundaries.
import fc from 'fast-check';
import { CHANNEL_HANDLE_PATTERN, LIMITS, isWholeNumberIn } from '@core/limits';
import { channelHandleSchema } from '@core/schemas';

describe('isWholeNumberIn', () => {
  it.each([
    [0, true],
    [10, true],
    [-1, false],
    [11, false],
    [2.5, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
    ['5', false],
    [null, false],
  ])('%p in [0, 10] → %s', (value, expected) => {
    expect(isWholeNumberIn(value, 0, 10)).toBe(expected);
  });

  it('refuses integers past the safe range, which lose their exactness', () => {
    expect(isWholeNumberIn(2 ** 53, 0, Number.POSITIVE_INFINITY)).toBe(false);
    expect(isWholeNumberIn(2 ** 53 - 1, 0, Number.POSITIVE_INFINITY)).toBe(true);
  });

  it('accepts exactly the whole numbers from min to max', () => {
    fc.assert(
      fc.property(fc.integer({ min: -50, max: 50 }), fc.integer({ min: -20, max: 20 }), (n, min) => {
        expect(isWholeNumberIn(n, min, min + 10)).toBe(n >= min && n <= min + 10);
      }),
    );
  });
});

describe('validity', () => {
  it('the forms offer 1 to 365 days; the backends accept a day more', () => {
    expect([LIMITS.validityDaysMin, LIMITS.validityDaysMax]).toEqual([1, 365]);
    expect(LIMITS.maxValidityMs).toBe(366 * 24 * 60 * 60 * 1000);
  });
});

describe('CHANNEL_HANDLE_PATTERN', () => {
  it.each([
    ['growth-clinic', true],
    ['a1-b2-c3', true],
    ['Growth', false],
    ['-lead', false],
    ['trail-', false],
    ['two--dashes', false],
    ['under_score', false],
  ])('%s → %s', (handle, expected) => {
    expect(CHANNEL_HANDLE_PATTERN.test(handle)).toBe(expected);
    // The schema adds only the length bounds (3 to 40, all these are within).
    expect(channelHandleSchema.safeParse(handle).success).toBe(expected);
  });
});
