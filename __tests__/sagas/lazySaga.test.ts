// The one loader of on-demand sagas: it waits for its trigger, loads the chunk once, starts what the chunk holds
// with the action that asked for it and the slice's actions that came while it loaded; a chunk that fails to load
// goes to spec §4's recovery and ends there (a retry by the supervisor after the recovery gave up would reload the
// page again and again); any other failure is thrown for the supervisor.
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { call, put } from 'redux-saga/effects';
import type { UnknownAction } from '@reduxjs/toolkit';
import { everyOf, latestOf, lazySaga, leadingOf, whenFirstOf, whenSignedIn } from '@/sagas/lazySaga';
import type { LazySaga } from '@/sagas/lazySaga';
import { accountLoaded, selectAuthStatus, signedOut } from '@/store/userSlice';
import { chunkLoadFailed } from '@/store/versionSlice';

const chunkError = Object.assign(new Error('Loading chunk leaving failed.'), { name: 'ChunkLoadError' });

interface Module {
  run: (early: readonly UnknownAction[]) => void;
}

/** A spec whose chunk is `module`, loaded by `load`; `started` records what start was given. */
function specOf(when: LazySaga<Module>['when'], load?: (module: Module) => Promise<Module>) {
  const started: Array<readonly UnknownAction[]> = [];
  const module: Module = { run: (early) => started.push(early) };
  const spec: LazySaga<Module> = {
    name: 'test',
    load: () => (load ? load(module) : Promise.resolve(module)),
    when,
    *start(loaded, early) {
      yield call(loaded.run, early);
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
    expect(started).toEqual([[first]]);
  });

  it("hands over the slice's actions that came while the chunk loaded, in order, and no other's", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { spec, started } = specOf(whenFirstOf('admin'), (module) => released.then(() => module));
    const first = { type: 'admin/adminUsersRequested' };
    const second = { type: 'admin/adminChannelsRequested' };
    const third = { type: 'admin/roleChangeRequested', payload: { uid: 'u', isOwner: true } };
    const saga = expectSaga(supervised, spec);
    const run = saga.silentRun(50);
    saga.dispatch(first);
    saga.dispatch(second);
    saga.dispatch(signedOut());
    saga.dispatch(third);
    release();
    await run;
    expect(started).toEqual([[first, second, third]]);
  });

  it('starts without an action when the trigger was a moment, not a request', async () => {
    const { spec, started } = specOf(function* now() {
      yield put({ type: 'test/now' });
      return true;
    });
    await expectSaga(supervised, spec).put({ type: 'test/ended' }).run();
    expect(started).toEqual([[]]);
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
    expect(started).toEqual([[]]);
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
    expect(started).toEqual([[{ type: 'emailLinks/emailVerifyRequested', payload: { token: 't' } }]]);
  });
});

describe('what a watcher would have handled of the early actions', () => {
  const creator = {
    match: (action: unknown): action is UnknownAction & { payload: number } =>
      (action as UnknownAction).type === 'x/asked',
  };
  const early: UnknownAction[] = [
    { type: 'x/asked', payload: 1 },
    { type: 'x/other' },
    { type: 'x/asked', payload: 2 },
    { type: 'x/asked', payload: 3 },
  ];

  it('takeLeading: the first it matches (the rest came while it was busy)', () => {
    expect(leadingOf(early, creator)).toEqual({ type: 'x/asked', payload: 1 });
    expect(leadingOf([{ type: 'x/other' }], creator)).toBeUndefined();
  });

  it('takeLatest: the last it matches (it cancels the ones before)', () => {
    expect(latestOf(early, creator)).toEqual({ type: 'x/asked', payload: 3 });
    expect(latestOf([], creator)).toBeUndefined();
  });

  it('takeEvery: each it matches, in order', () => {
    expect(everyOf(early, creator).map((action) => action.payload)).toEqual([1, 2, 3]);
  });
});
