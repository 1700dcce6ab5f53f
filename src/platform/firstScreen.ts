// The first screen a signed-in person sees, drawn: a signal for work that loads a lot and draws nothing of it
// (Firestore's SDK, the conversation's chunk) to start after it rather than compete with it. The signed-in home
// gives the signal as it is drawn (from what the device kept, or live), and the last known state's saga when the
// device kept nothing (the home then waits for live data). The wait is bounded: a signal that never comes holds
// nothing up for long.
import { FIRST_SCREEN_WAIT_MS } from '@/timings';

let markDrawn: (() => void) | null = null;
const drawn = new Promise<void>((resolve) => {
  markDrawn = resolve;
});

/** After the browser has painted what is in the page now: the next frame, then a task after it. */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const later = () => setTimeout(resolve, 0);
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(later);
    else later();
  });
}

/** The first screen is in the page; what waits for it starts once it is painted. Later calls change nothing. */
export function firstScreenDrawn(): void {
  const mark = markDrawn;
  markDrawn = null;
  if (mark) void afterNextPaint().then(mark);
}

/** Resolves once the first screen is drawn and painted, or FIRST_SCREEN_WAIT_MS after this call at most. */
export function whenFirstScreenDrawn(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FIRST_SCREEN_WAIT_MS);
    void drawn.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
