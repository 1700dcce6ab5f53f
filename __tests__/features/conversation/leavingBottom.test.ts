import { FOLLOW_SETTLE_MS, leavesBottom } from '@/features/conversation/leavingBottom';
import type { ScrollStep } from '@/features/conversation/leavingBottom';

/** A list 5,000 px tall in a 600 px view, at its bottom and scrolled up 400 px, long after it last followed. */
const step = (change: Partial<ScrollStep> = {}): ScrollStep => ({
  from: 4_400,
  to: 4_000,
  max: 4_400,
  threshold: 48,
  sinceFollow: 10_000,
  sinceTouch: Infinity,
  ...change,
});

describe('leavesBottom', () => {
  it('takes a scroll up away from the bottom as the person leaving it', () => {
    expect(leavesBottom(step())).toBe(true);
  });

  it('does not for a scroll down, or one that stays within the bottom', () => {
    expect(leavesBottom(step({ from: 4_000, to: 4_400 }))).toBe(false);
    expect(leavesBottom(step({ to: 4_360 }))).toBe(false);
  });

  it('does not while the list settles after it was taken to its newest (virtuoso correcting its scroll to a row)', () => {
    expect(leavesBottom(step({ to: 4_115, sinceFollow: 16 }))).toBe(false);
    expect(leavesBottom(step({ to: 4_115, sinceFollow: FOLLOW_SETTLE_MS }))).toBe(true);
  });

  it('does at once when the person touched the list, however recently it followed', () => {
    expect(leavesBottom(step({ sinceFollow: 16, sinceTouch: 30 }))).toBe(true);
  });

  it('does not when the browser moved the list up because it shrank under the view while rows were arriving', () => {
    // Rows drawn smaller than guessed: the bottom came up 106 px, and a new row made it 83 px from the bottom.
    expect(leavesBottom(step({ from: 3_290, to: 3_184, max: 3_267 }))).toBe(false);
  });
});
