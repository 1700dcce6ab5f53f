// The predicate the numeric limits share (core/wholeNumber.ts), at its boundaries.
import fc from 'fast-check';
import { isWholeNumberIn } from '@core/wholeNumber';

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
