import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { browserLocalStorage } from '@/platform';
import { rootReducer } from '@/app/rootReducer';
import type { RootState } from '@/app/rootReducer';
import { serviceWorkerTookControl } from '@/store/appSlice';
import { updateNotificationsToggled, updateRestartRequested, updateInstalled } from '@/store/versionSlice';
import { reloadPage } from '@/platform/browser';
import { activateWaitingWorker, checkForNewVersion } from '@/platform/serviceWorker';
import { updateSaga } from '@/sagas/updateSaga';
import { SW_MESSAGE_TIMEOUT_MS, UPDATE_BANNER_MS, UPDATE_CHECK_INTERVAL_MS } from '@/timings';
import { createVirtualTime, endRun, untilEnded, UNTIL_ENDED } from '../support/virtualTime';
import { createFakeStore } from '../platform/fakes';
import type { FakeStore } from '../platform/fakes';

// The saga never ends by itself: a run that moves virtual time goes on until the test has done so and ends it
// (`endRun`; a loaded CI machine ended a 300 ms real-time run before the test had advanced it).
function start(store: FakeStore, options: { waiting?: boolean } = {}) {
  const time = createVirtualTime();
  const saga = expectSaga(untilEnded, updateSaga, true)
    .withReducer(rootReducer)
    .provide([
      [matchers.call.fn(browserLocalStorage), store],
      [matchers.call.fn(activateWaitingWorker), options.waiting ?? true],
      [matchers.call.fn(reloadPage), undefined],
      [matchers.call.fn(checkForNewVersion), undefined],
      time.provider,
    ]);
  return { saga, time };
}

const state = (result: { storeState: unknown }) => (result.storeState as RootState).version;
const reloads = (result: { effects: { call?: Array<{ payload: { fn: unknown } }> } }) =>
  result.effects.call?.filter((e) => e.payload.fn === reloadPage).length ?? 0;

describe('the update banner (spec §2)', () => {
  it("shows for 5 s when a new worker waits and enable_update_notifications is 'true'", async () => {
    const store = createFakeStore({ enable_update_notifications: 'true' });
    const { saga, time } = start(store);
    const running = saga.dispatch(updateInstalled()).run(UNTIL_ENDED);
    await time.flush();
    expect(time.live()).toContain(UPDATE_BANNER_MS);
    await time.advance(UPDATE_BANNER_MS - 1);
    expect(time.live()).toContain(UPDATE_BANNER_MS);
    await time.advance(1);
    expect(time.live()).not.toContain(UPDATE_BANNER_MS);
    const result = await endRun(saga, running);
    const shown = result.effects.put?.map((e) => e.payload.action.type) ?? [];
    expect(shown).toEqual(
      expect.arrayContaining(['version/updateBannerShown', 'version/updateBannerHidden']),
    );
    expect(state(result)).toMatchObject({ update: 'waiting', bannerVisible: false });
    expect(store.contents().version_update_pending).toBe('true');
  });

  // spec §2 and §9: "It shows for 5 s", in the spec's number (not the constant the code names it with).
  it.each([
    [4_999, true],
    [5_000, false],
  ])('after %d ms is visible: %p', async (ms, visible) => {
    const { saga, time } = start(createFakeStore({ enable_update_notifications: 'true' }));
    const running = saga.dispatch(updateInstalled()).run(UNTIL_ENDED);
    await time.flush();
    await time.advance(ms);
    expect(state(await endRun(saga, running)).bannerVisible).toBe(visible);
  });

  it.each([
    ['missing', {}],
    ["'false'", { enable_update_notifications: 'false' }],
    ["'TRUE'", { enable_update_notifications: 'TRUE' }],
    ["'1'", { enable_update_notifications: '1' }],
  ])('does not show when the setting is %s', async (_label, initial: Record<string, string>) => {
    const store = createFakeStore(initial);
    const { saga } = start(store);
    const result = await saga.dispatch(updateInstalled()).run({ timeout: 50, silenceTimeout: true });
    expect(result.effects.put?.map((e) => e.payload.action.type)).not.toContain('version/updateBannerShown');
    expect(store.contents().version_update_pending).toBe('true');
  });

  it('reads and writes the setting exactly as the string true', async () => {
    const store = createFakeStore();
    const { saga } = start(store);
    const on = await saga
      .dispatch(updateNotificationsToggled({ enabled: true }))
      .run({ timeout: 50, silenceTimeout: true });
    expect(store.contents().enable_update_notifications).toBe('true');
    expect(state(on).bannerEnabled).toBe(true);
    const off = start(store);
    await off.saga
      .dispatch(updateNotificationsToggled({ enabled: false }))
      .run({ timeout: 50, silenceTimeout: true });
    expect(store.contents().enable_update_notifications).toBeUndefined();
  });
});

describe('restarting into the new version', () => {
  it('sends SKIP_WAITING and reloads once the new worker controls the page', async () => {
    const store = createFakeStore({ version_update_pending: 'true' });
    const { saga, time } = start(store);
    const running = saga.dispatch(updateRestartRequested()).run(UNTIL_ENDED);
    await time.flush();
    expect(time.live()).toContain(SW_MESSAGE_TIMEOUT_MS);
    saga.dispatch(serviceWorkerTookControl({ isUpdate: true }));
    const result = await endRun(saga, running);
    expect(reloads(result)).toBe(1);
    expect(result.effects.call?.some((e) => e.payload.fn === activateWaitingWorker)).toBe(true);
    expect(store.contents().version_update_pending).toBeUndefined();
  });

  it('reloads after 5 s when the new worker never takes control', async () => {
    const { saga, time } = start(createFakeStore());
    const running = saga.dispatch(updateRestartRequested()).run(UNTIL_ENDED);
    await time.advance(SW_MESSAGE_TIMEOUT_MS - 1);
    await time.advance(1);
    expect(reloads(await endRun(saga, running))).toBe(1);
  });

  it('reloads at once when no worker waits any more (another tab applied it)', async () => {
    const { saga, time } = start(createFakeStore(), { waiting: false });
    const result = await saga.dispatch(updateRestartRequested()).run({ timeout: 50, silenceTimeout: true });
    expect(time.requested).not.toContain(SW_MESSAGE_TIMEOUT_MS);
    expect(reloads(result)).toBe(1);
  });
});

it('asks the browser for a new worker every hour while the app is open', async () => {
  const { saga, time } = start(createFakeStore());
  const running = saga.run(UNTIL_ENDED);
  await time.advance(UPDATE_CHECK_INTERVAL_MS);
  await time.advance(UPDATE_CHECK_INTERVAL_MS);
  const result = await endRun(saga, running);
  expect(result.effects.call?.filter((e) => e.payload.fn === checkForNewVersion)).toHaveLength(2);
});
