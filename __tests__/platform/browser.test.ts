/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// The page's side of the app badge (spec §5: "a count above 0 sets the app badge, otherwise it clears it"), at
// the browser's edge: the Badging API on navigator, as the page (not the service worker) calls it.
import { applyAppBadge, yieldToMain } from '@/platform/browser';

type BadgeNavigator = Navigator & {
  setAppBadge?: (count?: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
};

const nav = navigator as BadgeNavigator;
let setAppBadge: jest.Mock;
let clearAppBadge: jest.Mock;

beforeEach(() => {
  setAppBadge = jest.fn(async () => undefined);
  clearAppBadge = jest.fn(async () => undefined);
  Object.assign(nav, { setAppBadge, clearAppBadge });
});
const removeBadging = (): void => {
  Reflect.deleteProperty(nav, 'setAppBadge');
  Reflect.deleteProperty(nav, 'clearAppBadge');
};
afterEach(removeBadging);

describe('applyAppBadge (the page)', () => {
  it.each([1, 4, 120])('sets the badge to a count above 0 (%d)', async (count) => {
    await applyAppBadge(count);
    expect(setAppBadge).toHaveBeenCalledWith(count);
    expect(clearAppBadge).not.toHaveBeenCalled();
  });

  it.each([0, -1])('clears the badge for a count of %d', async (count) => {
    await applyAppBadge(count);
    expect(clearAppBadge).toHaveBeenCalledTimes(1);
    expect(setAppBadge).not.toHaveBeenCalled();
  });

  it('does nothing where the browser has no badge, and never fails where it refuses one', async () => {
    removeBadging();
    await expect(applyAppBadge(3)).resolves.toBeUndefined();
    Object.assign(nav, { setAppBadge: jest.fn(async () => Promise.reject(new Error('NotAllowedError'))) });
    await expect(applyAppBadge(3)).resolves.toBeUndefined();
  });
});

describe('yieldToMain', () => {
  const global = globalThis as { scheduler?: unknown };
  afterEach(() => {
    Reflect.deleteProperty(global, 'scheduler');
    jest.useRealTimers();
  });

  it("uses the browser's scheduler.yield where there is one, called on the scheduler", async () => {
    const scheduler: { yield: jest.Mock<Promise<void>, []> } = {
      yield: jest.fn(function (this: unknown): Promise<void> {
        return this === scheduler ? Promise.resolve() : Promise.reject(new Error('unbound'));
      }),
    };
    global.scheduler = scheduler;
    await yieldToMain();
    expect(scheduler.yield).toHaveBeenCalledTimes(1);
  });

  it('goes on in a task of its own where there is none, not in a microtask of the caller', async () => {
    jest.useFakeTimers();
    let done = false;
    const yielded = yieldToMain().then(() => (done = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(done).toBe(false);
    jest.runOnlyPendingTimers();
    await yielded;
    expect(done).toBe(true);
  });
});
