// Whether an upward scroll of the conversation list is the person leaving its bottom (MessageList.tsx).

/**
 * How long after the list is taken to its newest its own scrolling may go on: virtuoso corrects a scroll to a row
 * as rows are measured (in a burst, up by a row or more), and the browser moves a shrinking list up itself.
 */
export const FOLLOW_SETTLE_MS = 400;
/** How long a person's touch, wheel, key or press on the list makes its next scroll theirs. */
export const TOUCH_MS = 1_000;
/** What the person does to move a list (ends holding it in place: Pin, a search hit's focus, a quote's jump). */
export const PERSON_MOVES = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;
/**
 * How long the list holds something in place, in frames (its bottom as it opens, a row's place as a page lands
 * above, a search hit or a quote's original in view), and how many still frames end the hold sooner.
 */
export const HOLD_FRAMES = 90;
export const HOLD_STILL_FRAMES = 10;

export interface ScrollStep {
  /** scrollTop before and after the scroll. */
  from: number;
  to: number;
  /** The largest scrollTop after it (scrollHeight - clientHeight). */
  max: number;
  /** How far within the bottom still counts as at it. */
  threshold: number;
  /** Milliseconds since the list was last taken to its newest, and since the person last touched it. */
  sinceFollow: number;
  sinceTouch: number;
}

/**
 * An upward scroll that ends away from the bottom is the person's, unless the list was just taken to its newest and
 * they have not touched it since (virtuoso still settling), or the browser moved it up because the rows under the
 * view shrank (it was further down than the list now reaches).
 */
export function leavesBottom(step: ScrollStep): boolean {
  if (step.to >= step.from || step.max - step.to <= step.threshold) return false;
  if (step.from > step.max) return false;
  return step.sinceTouch < TOUCH_MS || step.sinceFollow >= FOLLOW_SETTLE_MS;
}
