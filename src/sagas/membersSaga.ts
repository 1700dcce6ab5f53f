// A channel's people (src/store/membersSlice.ts): reading who is in a channel, and opening a private consultation
// with one of them. Each worker catches its own failure and puts it as plain words. Loaded with the conversation
// view at the slice's first action (src/app/lazySagas.ts).
import { call, fork, put, takeLatest, takeLeading } from 'redux-saga/effects';
import type { UnknownAction } from '@reduxjs/toolkit';
import type { Backend } from '@/backend/ports';
import type { Channel, ChannelMember } from '@core/model';
import { toFailure } from '@/backend/errors';
import { latestOf, leadingOf } from './lazySaga';
import { channelChanged } from '@/store/channelsSlice';
import {
  membersFailed,
  membersLoaded,
  membersRequested,
  privateChannelFailed,
  privateChannelOpened,
  privateChannelRequested,
} from '@/store/membersSlice';

export function* handleMembersRequested(backend: Backend, action: ReturnType<typeof membersRequested>) {
  const { channelId } = action.payload;
  try {
    const items: ChannelMember[] = yield call([backend.channels, backend.channels.listMembers], channelId);
    yield put(membersLoaded({ channelId, items }));
  } catch (error) {
    yield put(membersFailed({ channelId, message: toFailure(error).message }));
  }
}

/**
 * Opens (or finds) a private consultation; the channel joins the list at once (its live event may come later),
 * and the screen opens it. takeLeading: a double press asks once (the backend makes one per pair anyway).
 */
export function* handlePrivateChannelRequested(
  backend: Backend,
  action: ReturnType<typeof privateChannelRequested>,
) {
  try {
    const channel: Channel = yield call(
      [backend.channels, backend.channels.openPrivateChannel],
      action.payload,
    );
    yield put(channelChanged({ channel }));
    yield put(privateChannelOpened({ channelId: channel.id }));
  } catch (error) {
    yield put(privateChannelFailed({ message: toFailure(error).message }));
  }
}

/**
 * `early`: the requests that came while this saga's chunk loaded, the one that loaded it first, handled as the
 * watchers would have before the next ones are awaited.
 */
export function* membersSaga(backend: Backend, early: readonly UnknownAction[] = []) {
  const members = latestOf(early, membersRequested);
  if (members) yield fork(handleMembersRequested, backend, members);
  const privateChat = leadingOf(early, privateChannelRequested);
  if (privateChat) yield fork(handlePrivateChannelRequested, backend, privateChat);
  yield takeLatest(membersRequested.type, handleMembersRequested, backend);
  yield takeLeading(privateChannelRequested.type, handlePrivateChannelRequested, backend);
}
