// The one loader of on-demand sagas: it waits for its trigger, loads the chunk once, starts what the chunk holds
// with the action that asked for it; a chunk that fails to load goes to spec §4's recovery and ends there (a retry
// by the supervisor after the recovery gave up would reload the page again and again); any other failure is
// thrown for the supervisor.
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { call, put } from 'redux-saga/effects';
import type { UnknownAction } from '@reduxjs/toolkit';
import { lazySaga, whenFirstOf, whenSignedIn } from '@/sagas/lazySaga';
import type { LazySaga } from '@/sagas/lazySaga';
import { accountLoaded, selectAuthStatus, signedOut } from '@/store/userSlice';
import { chunkLoadFailed } from '@/store/versionSlice';

const chunkError = Object.assign(new Error('Loading chunk leaving failed.'), { name: 'ChunkLoadError' });

interface Module {
  run: (first: UnknownAction | undefined) => void;
}

/** A spec whose chunk is `module` (or fails to load with `loadError`); `started` records what start was given. */
function specOf(when: LazySaga<Module>['when']) {
  const started: Array<UnknownAction | undefined> = [];
  const module: Module = { run: (first) => started.push(first) };
  const spec: LazySaga<Module> = {
    name: 'test',
    load: () => Promise.resolve(module),
    when,
    *start(loaded, first) {
      yield call(loaded.run, first);
    },
  };
  return { spec, started };
}

/** Runs the loader as the root's supervisor would: what it throws becomes an action a test can expect. */
function* supervised(spec: LazySaga<Module>) {
  try {
    yield* lazySaga(spec);
    yield put({ type: 'test/ended' });
  } catch (error) {
    yield put({ type: 'test/failed', payload: (error as Error).message });
  }
}

describe('lazySaga', () => {
  it('loads the chunk at its trigger and starts it with the action that asked for it', async () => {
    const { spec, started } = specOf(whenFirstOf('admin'));
    const first = { type: 'admin/adminUsersRequested' };
    await expectSaga(supervised, spec)
      .dispatch(signedOut())
      .dispatch(first)
      .put({ type: 'test/ended' })
      .run();
    expect(started).toEqual([first]);
  });

  it('starts without an action when the trigger was a moment, not a request', async () => {
    const { spec, started } = specOf(function* now() {
      yield put({ type: 'test/now' });
      return true;
    });
    await expectSaga(supervised, spec).put({ type: 'test/ended' }).run();
    expect(started).toEqual([undefined]);
  });

  it('never loads when its trigger says never', async () => {
    const { spec, started } = specOf(function* never() {
      yield put({ type: 'test/never' });
      return false;
    });
    await expectSaga(supervised, spec).not.call.fn(spec.load).put({ type: 'test/ended' }).run();
    expect(started).toEqual([]);
  });

  it("hands a chunk that fails to load to spec §4's recovery and ends, started nothing, thrown nothing", async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { spec, started } = specOf(whenSignedIn);
    await expectSaga(supervised, spec)
      .provide([
        [matchers.select(selectAuthStatus), 'signedIn'],
        [matchers.call.fn(spec.load), throwError(chunkError)],
      ])
      .put(chunkLoadFailed())
      .put({ type: 'test/ended' })
      .not.put.like({ action: { type: 'test/failed' } })
      .run();
    expect(started).toEqual([]);
  });

  it('throws any other failure for its supervisor, and asks for no recovery', async () => {
    const { spec } = specOf(whenSignedIn);
    await expectSaga(supervised, spec)
      .provide([
        [matchers.select(selectAuthStatus), 'signedIn'],
        [matchers.call.fn(spec.load), throwError(new Error('boom'))],
      ])
      .not.put(chunkLoadFailed())
      .put({ type: 'test/failed', payload: 'boom' })
      .run();
  });
});

describe('whenSignedIn', () => {
  it('loads nothing before a session starts', async () => {
    const { spec } = specOf(whenSignedIn);
    await expectSaga(supervised, spec)
      .provide([[matchers.select(selectAuthStatus), 'signedOut']])
      .not.call.fn(spec.load)
      .silentRun(20);
  });

  it('loads once the account is loaded', async () => {
    const { spec, started } = specOf(whenSignedIn);
    await expectSaga(supervised, spec)
      .provide([[matchers.select(selectAuthStatus), 'loading']])
      .dispatch({ type: accountLoaded.type })
      .put({ type: 'test/ended' })
      .run();
    expect(started).toEqual([undefined]);
  });
});

describe('whenFirstOf', () => {
  it("answers the slice's first action and no other's", async () => {
    const { spec, started } = specOf(whenFirstOf('emailLinks'));
    await expectSaga(supervised, spec)
      .dispatch({ type: 'emailLinksX/other' })
      .dispatch(signedOut())
      .dispatch({ type: 'emailLinks/emailVerifyRequested', payload: { token: 't' } })
      .put({ type: 'test/ended' })
      .run();
    expect(started).toEqual([{ type: 'emailLinks/emailVerifyRequested', payload: { token: 't' } }]);
  });
});
