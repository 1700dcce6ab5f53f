// A consultant's tools: creating a channel and editing one. The answer joins the channel list at once (its live
// event may come later) and the form learns it was saved; a refusal is put as the backend's plain words.
import { call, fork, put, take } from 'redux-saga/effects';
import type { UnknownAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import type { Backend } from '@/backend/ports';
import type { Channel } from '@core/model';
import { toFailure } from '@/backend/errors';
import { channelChanged } from '@/store/channelsSlice';
import {
  channelCreateRequested,
  channelSaveFailed,
  channelSaved,
  channelUpdateRequested,
} from './manageSlice';

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
 * takeLeading, with the request that loaded this chunk (src/app/lazySagas.ts) counted as the first: a second press
 * while a save is on its way asks nothing more.
 */
function* leading<A extends UnknownAction>(
  creator: { type: string; match: (action: unknown) => action is A },
  handle: (backend: Backend, action: A) => Generator,
  backend: Backend,
  first?: UnknownAction,
): SagaIterator<void> {
  if (first && creator.match(first)) yield call(handle, backend, first);
  while (true) {
    const action: A = yield take(creator.type);
    yield call(handle, backend, action);
  }
}

export function* consultantToolsSaga(backend: Backend, first?: UnknownAction) {
  yield fork(
    leading<ReturnType<typeof channelCreateRequested>>,
    channelCreateRequested,
    handleChannelCreate,
    backend,
    first,
  );
  yield fork(
    leading<ReturnType<typeof channelUpdateRequested>>,
    channelUpdateRequested,
    handleChannelUpdate,
    backend,
    first,
  );
}
