// A consultant's tools: creating a channel and editing one. The answer joins the channel list at once (its live
// event may come later) and the form learns it was saved; a refusal is put as the backend's plain words.
import { call, fork, put, take } from 'redux-saga/effects';
import type { UnknownAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import type { Backend } from '@/backend/ports';
import type { Channel } from '@core/model';
import { toFailure } from '@/backend/errors';
import { leadingOf } from '@/sagas/lazySaga';
import { channelChanged } from '@/store/channelsSlice';
import {
  channelCreateRequested,
  channelSaveFailed,
  channelSaved,
  channelUpdateRequested,
} from './manageSlice';
import { housekeepingSaga } from './housekeepingSaga';

export function* handleChannelCreate(backend: Backend, action: ReturnType<typeof channelCreateRequested>) {
  try {
    const channel: Channel = yield call([backend.channels, backend.channels.createChannel], action.payload);
    yield put(channelChanged({ channel }));
    yield put(channelSaved({ channelId: channel.id }));
  } catch (error) {
    yield put(channelSaveFailed({ message: toFailure(error).message }));
  }
}

export function* handleChannelUpdate(backend: Backend, action: ReturnType<typeof channelUpdateRequested>) {
  try {
    const channel: Channel = yield call(
      [backend.channels, backend.channels.updateChannel],
      action.payload.id,
      action.payload.patch,
    );
    yield put(channelChanged({ channel }));
    yield put(channelSaved({ channelId: channel.id }));
  } catch (error) {
    yield put(channelSaveFailed({ message: toFailure(error).message }));
  }
}

/**
 * takeLeading, with the requests that came while this chunk loaded (src/app/lazySagas.ts) counted first: a second
 * press while a save is on its way asks nothing more.
 */
function* leading<A extends UnknownAction>(
  creator: { type: string; match: (action: unknown) => action is A },
  handle: (backend: Backend, action: A) => Generator,
  backend: Backend,
  early: readonly UnknownAction[],
): SagaIterator<void> {
  const first = leadingOf(early, creator);
  if (first) yield call(handle, backend, first);
  while (true) {
    const action: A = yield take(creator.type);
    yield call(handle, backend, action);
  }
}

export function* consultantToolsSaga(backend: Backend, early: readonly UnknownAction[] = []) {
  yield fork(
    leading<ReturnType<typeof channelCreateRequested>>,
    channelCreateRequested,
    handleChannelCreate,
    backend,
    early,
  );
  yield fork(
    leading<ReturnType<typeof channelUpdateRequested>>,
    channelUpdateRequested,
    handleChannelUpdate,
    backend,
    early,
  );
  // Archive, delete, hand over, remove a member, revoke, withdraw: `manage/` actions too (./housekeepingSlice.ts).
  yield fork(housekeepingSaga, backend, early);
}
