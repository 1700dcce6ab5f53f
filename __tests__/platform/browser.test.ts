/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// The page's side of the app badge (spec §5: "a count above 0 sets the app badge, otherwise it clears it"), at
// the browser's edge: the Badging API on navigator, as the page (not the service worker) calls it.
import { applyAppBadge } from '@/platform/browser';

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
