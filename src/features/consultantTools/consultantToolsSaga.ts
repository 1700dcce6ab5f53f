// A consultant's tools: creating a channel and editing one. The answer joins the channel list at once (its live
// event may come later) and the form learns it was saved; a refusal is put as the backend's plain words.
import { call, put, takeLeading } from 'redux-saga/effects';
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

export function* consultantToolsSaga(backend: Backend) {
  yield takeLeading(channelCreateRequested.type, handleChannelCreate, backend);
  yield takeLeading(channelUpdateRequested.type, handleChannelUpdate, backend);
}
