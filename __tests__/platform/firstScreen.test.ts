// The signal that the first screen is drawn (src/platform/firstScreen.ts): what waits for it starts after the
// next paint once it comes, and after FIRST_SCREEN_WAIT_MS at most when it never does. Each test loads the module
// afresh: the signal is once a page.
import type * as FirstScreen from '@/platform/firstScreen';
import { FIRST_SCREEN_WAIT_MS } from '@/timings';

let firstScreen: typeof FirstScreen;
beforeEach(() => {
  jest.useFakeTimers();
  jest.isolateModules(() => {
    firstScreen = jest.requireActual<typeof FirstScreen>('@/platform/firstScreen');
  });
});
afterEach(() => jest.useRealTimers());

/** Whether `promise` has settled once the timers due by now have run. */
async function settledAfter(ms: number, promise: Promise<void>): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await jest.advanceTimersByTimeAsync(ms);
  return settled;
}

describe('the first screen drawn', () => {
  it('holds what waits for it until the signal, then lets it go after the next frame', async () => {
    const waiting = firstScreen.whenFirstScreenDrawn();
    expect(await settledAfter(FIRST_SCREEN_WAIT_MS / 2, waiting)).toBe(false);
    firstScreen.firstScreenDrawn();
    // A frame (jsdom's requestAnimationFrame runs on a 16 ms timer) and a task after it.
    expect(await settledAfter(50, waiting)).toBe(true);
  });

  it('lets what asks after the signal go at once (after the frame the signal waited for)', async () => {
    firstScreen.firstScreenDrawn();
    await jest.advanceTimersByTimeAsync(50);
    expect(await settledAfter(0, firstScreen.whenFirstScreenDrawn())).toBe(true);
  });

  it('waits FIRST_SCREEN_WAIT_MS at most when the signal never comes', async () => {
    const waiting = firstScreen.whenFirstScreenDrawn();
    expect(await settledAfter(FIRST_SCREEN_WAIT_MS - 1, waiting)).toBe(false);
    expect(await settledAfter(1, waiting)).toBe(true);
  });
});
