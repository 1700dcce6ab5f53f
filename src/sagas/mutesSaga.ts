// The person's channel mutes for as long as they are signed in: read when the session starts,
// kept live (a mute or unmute in another window of the same person arrives as it happens: MutesPort
// subscribeMutes), read again when live data flows after an interruption (a mute changed meanwhile), and each
// change the person asks for sent to the backend, which answers until when (its clock) or refuses in words for a
// person. The control offers no second change of a channel while one is under way (selectMuteSaving).
import type { EventChannel } from 'redux-saga';
import { call, fork, put, take, takeEvery } from 'redux-saga/effects';
import type { Backend, MutesPort } from '@/backend/ports';
import { toFailure } from '@/backend/errors';
import type { ChannelMute } from '@core/model';
import type { ChannelMutes } from '@core/mutes';
import { liveResumed } from '@/store/liveSlice';
import {
  muteFailed,
  muteRequested,
  muteSaved,
  mutesFailed,
  mutesLoaded,
  mutesRequested,
  unmuteRequested,
  unmuteSaved,
} from '@/store/mutesSlice';
import { forEachSession, keepingChannel } from './session';
import { supervise } from './supervise';

export function* handleMutesRequested(backend: Backend) {
  try {
    const mutes: ChannelMutes = yield call([backend.mutes, backend.mutes.listMutes]);
    yield put(mutesLoaded({ mutes }));
  } catch (error) {
    console.warn('Reading the muted channels failed', error);
    yield put(mutesFailed());
  }
}

export function* handleMuteRequested(backend: Backend, action: ReturnType<typeof muteRequested>) {
  const { channelId, duration } = action.payload;
  try {
    const mute: ChannelMute = yield call([backend.mutes, backend.mutes.muteChannel], channelId, duration);
    yield put(muteSaved(mute));
  } catch (error) {
    yield put(muteFailed({ channelId, message: toFailure(error).message }));
  }
}

export function* handleUnmuteRequested(backend: Backend, action: ReturnType<typeof unmuteRequested>) {
  const { channelId } = action.payload;
  try {
    yield call([backend.mutes, backend.mutes.unmuteChannel], channelId);
    yield put(unmuteSaved({ channelId }));
  } catch (error) {
    yield put(muteFailed({ channelId, message: toFailure(error).message }));
  }
}

export function createMutesChannel(mutes: MutesPort): EventChannel<{ mutes: ChannelMutes }> {
  return keepingChannel((emit) => mutes.subscribeMutes((value) => emit({ mutes: value })));
}

/** The person's mutes as the backend streams them, from this window or another, into the store. */
export function* watchMutes(backend: Backend) {
  const channel: EventChannel<{ mutes: ChannelMutes }> = yield call(createMutesChannel, backend.mutes);
  try {
    while (true) {
      const { mutes }: { mutes: ChannelMutes } = yield take(channel);
      yield put(mutesLoaded({ mutes }));
    }
  } finally {
    channel.close();
  }
}

/** Everything of one signed-in session; cancelled by the next session change. */
export function* runMutesSession(_uid: string, backend: Backend) {
  yield fork(supervise, 'live mutes', watchMutes, backend);
  yield takeEvery(mutesRequested.type, handleMutesRequested, backend);
  yield takeEvery(muteRequested.type, handleMuteRequested, backend);
  yield takeEvery(unmuteRequested.type, handleUnmuteRequested, backend);
  yield takeEvery(liveResumed.type, function* () {
    yield put(mutesRequested());
  });
  yield put(mutesRequested());
}

export function* mutesSaga(backend: Backend) {
  yield call(forEachSession, runMutesSession, backend);
}
