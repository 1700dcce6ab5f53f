import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { browserLocalStorage, browserSessionStorage } from '@/platform';
import { rootReducer } from '@/app/rootReducer';
import type { RootState } from '@/app/rootReducer';
import { chunkLoadFailed, chunkRetryRequested } from '@/store/versionSlice';
import { clearAllCaches, reloadPage } from '@/platform/browser';
import { chunkRecoverySaga } from '@/sagas/chunkRecoverySaga';
import { reportChunkLoadFailure } from '@/platform/chunks';
import { createFakeStore } from '../platform/fakes';
import type { FakeStore } from '../platform/fakes';

function run(
  session: FakeStore,
  local: FakeStore,
  options: { clear?: unknown; action?: { type: string } } = {},
) {
  return expectSaga(chunkRecoverySaga)
    .withReducer(rootReducer)
    .provide([
      [matchers.call.fn(browserSessionStorage), session],
      [matchers.call.fn(browserLocalStorage), local],
      [matchers.call.fn(clearAllCaches), options.clear ?? undefined],
      [matchers.call.fn(reloadPage), undefined],
    ])
    .dispatch(options.action ?? chunkLoadFailed())
    .run({ timeout: 50, silenceTimeout: true });
}

const called = (result: Awaited<ReturnType<typeof run>>, fn: unknown) =>
  result.effects.call?.filter((e) => e.payload.fn === fn).length ?? 0;

describe('chunk load failure (spec §4)', () => {
  it('first failure: clears the caches and the two version flags, sets the session flag, reloads once', async () => {
    const session = createFakeStore();
    const local = createFakeStore({
      version_update_pending: 'true',
      force_version_check: 'true',
      device_id: 'd',
    });
    const result = await run(session, local);
    expect(session.contents()).toEqual({ chunk_error_reloaded: 'true' });
    expect(local.contents()).toEqual({ device_id: 'd' });
    expect([called(result, clearAllCaches), called(result, reloadPage)]).toEqual([1, 1]);
    expect((result.storeState as RootState).version.chunkRecovery).toBe('reloading');
  });

  it('a failure after that reload only removes the flag and shows the error screen: no second reload', async () => {
    const session = createFakeStore({ chunk_error_reloaded: 'true' });
    const local = createFakeStore({ version_update_pending: 'true' });
    const result = await run(session, local);
    expect(session.contents()).toEqual({});
    expect(local.contents()).toEqual({ version_update_pending: 'true' });
    expect([called(result, clearAllCaches), called(result, reloadPage)]).toEqual([0, 0]);
    expect((result.storeState as RootState).version.chunkRecovery).toBe('failed');
  });

  it('never reloads when session storage cannot hold the flag (it could not stop a loop)', async () => {
    const result = await run(createFakeStore({}, ['set']), createFakeStore());
    expect(called(result, reloadPage)).toBe(0);
    expect((result.storeState as RootState).version.chunkRecovery).toBe('failed');
  });

  it('still reloads when clearing the caches fails', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const result = await run(createFakeStore(), createFakeStore(), {
      clear: throwError(new Error('denied')),
    });
    expect(called(result, reloadPage)).toBe(1);
  });

  it("reloads when the person presses the error screen's Try again", async () => {
    const result = await run(createFakeStore(), createFakeStore(), { action: chunkRetryRequested() });
    expect(called(result, reloadPage)).toBe(1);
  });

  it("a chunk failure reported from outside the sagas (the Firebase SDK's own chunks) runs the same recovery", async () => {
    const session = createFakeStore();
    const local = createFakeStore({ version_update_pending: 'true' });
    const running = expectSaga(chunkRecoverySaga)
      .withReducer(rootReducer)
      .provide([
        [matchers.call.fn(browserSessionStorage), session],
        [matchers.call.fn(browserLocalStorage), local],
        [matchers.call.fn(clearAllCaches), undefined],
        [matchers.call.fn(reloadPage), undefined],
      ])
      .run({ timeout: 1_000, silenceTimeout: true });
    // Once the saga is listening (expectSaga starts it on a later tick).
    await new Promise((resolve) => setTimeout(resolve, 10));
    reportChunkLoadFailure();
    reportChunkLoadFailure();
    const result = await running;
    expect(session.contents()).toEqual({ chunk_error_reloaded: 'true' });
    expect(local.contents()).toEqual({});
    expect(called(result, reloadPage)).toBe(1);
  });
});
