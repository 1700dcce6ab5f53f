// The lazily loaded mute and attention sagas (issue #13 part 6): once a session starts their chunk is loaded and
// they run; a chunk that cannot be loaded runs spec §4's recovery (chunkLoadFailed), as every lazy chunk does.
import { expectSaga } from 'redux-saga-test-plan';
import { call, put } from 'redux-saga/effects';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import type { Backend } from '@/backend/ports';
import { lazyAttentionSaga, loadAttentionSagas } from '@/app/lazyAttention';
import { selectAuthStatus } from '@/store/userSlice';
import { chunkLoadFailed } from '@/store/versionSlice';
import { createFakeBackend } from '../support/fakeBackend';

const backend = createFakeBackend() as unknown as Backend;

/** Runs the saga as its supervisor would, its failure turned into an action the test can expect. */
function* supervised() {
  try {
    yield call(lazyAttentionSaga, backend);
  } catch (error) {
    yield put({ type: 'test/failed', payload: (error as Error).message });
  }
}

describe('lazyAttentionSaga', () => {
  it('runs the chunk recovery of spec §4 when its chunk cannot be loaded, and fails for its supervisor', async () => {
    const chunkError = Object.assign(new Error('Loading chunk attention failed.'), {
      name: 'ChunkLoadError',
    });
    await expectSaga(supervised)
      .provide([
        [matchers.select(selectAuthStatus), 'signedIn'],
        [matchers.call.fn(loadAttentionSagas), throwError(chunkError)],
      ])
      .put(chunkLoadFailed())
      .put({ type: 'test/failed', payload: 'Loading chunk attention failed.' })
      .run();
  });

  it('asks for no recovery when something else went wrong', async () => {
    await expectSaga(supervised)
      .provide([
        [matchers.select(selectAuthStatus), 'signedIn'],
        [matchers.call.fn(loadAttentionSagas), throwError(new Error('boom'))],
      ])
      .not.put(chunkLoadFailed())
      .put({ type: 'test/failed', payload: 'boom' })
      .run();
  });

  it('loads nothing before a session starts', async () => {
    await expectSaga(lazyAttentionSaga, backend)
      .provide([[matchers.select(selectAuthStatus), 'signedOut']])
      .not.call.fn(loadAttentionSagas)
      .silentRun(20);
  });
});
