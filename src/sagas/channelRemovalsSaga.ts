// A channel gone for this person, live: deleted by its consultant, or they were taken out of it (removed as a
// member, or it was handed over from them). It leaves the channel list at once, an open conversation says so, and a
// member who did not do it themselves is told why, once. Loaded with the other sagas of a session
// (src/app/lazySagas.ts), so the shell carries none of it.
import type { EventChannel } from 'redux-saga';
import { call, cancelled, delay, fork, put, select, take, takeEvery } from 'redux-saga/effects';
import type { Backend } from '@/backend/ports';
import type { Channel, ChannelOverview } from '@core/model';
import { channelChanged, overviewLoaded, selectOverview } from '@/store/channelsSlice';
import { liveMessageNoticed, noticeExpired } from '@/store/inboxSlice';
import { channelRemoved, selectStep, stepKey } from '@/store/housekeepingSlice';
import type { Step } from '@/store/housekeepingSlice';
import { NOTICE_DURATION_MS } from '@/timings';
import { forEachSession, keepingChannel } from './session';

/** The words a member is told when a channel is gone for them. */
export function goneNotice(title: string): { title: string; body: string } {
  return {
    title: `You are no longer in “${title}”`,
    body: 'Its consultant took you out of it or deleted it. Your other channels are as they were.',
  };
}

/** A channel that names neither the person as its owner nor as a member is not theirs to list. */
export function isStillIn(channel: Channel, uid: string): boolean {
  return channel.ownerId === uid || channel.members.includes(uid);
}

/**
 * Takes a channel out of the list. The list is put whole (the overview's own "loaded" answer) rather than through
 * a reducer of its own, so the shell's channels slice stays as it is; select and put run in one step, so no live
 * change comes between them.
 */
export function* dropChannel(channelId: string) {
  const overview: ChannelOverview[] = yield select(selectOverview);
  if (!overview.some((item) => item.channel.id === channelId)) return;
  yield put(overviewLoaded({ items: overview.filter((item) => item.channel.id !== channelId) }));
}

function* expire(id: string) {
  yield delay(NOTICE_DURATION_MS);
  yield put(noticeExpired({ id }));
}

/**
 * A channel gone for `uid`: out of the list; told once, unless it went by their own hand (they deleted it or
 * handed it over in this window: the live change may come before the answer, naming the new owner already).
 */
export function* handleChannelGone(uid: string, channelId: string) {
  const overview: ChannelOverview[] = yield select(selectOverview);
  const known = overview.find((item) => item.channel.id === channelId)?.channel;
  yield call(dropChannel, channelId);
  yield put(channelRemoved({ channelId }));
  const deleting: Step | undefined = yield select(selectStep, stepKey('delete', channelId));
  const handing: Step | undefined = yield select(selectStep, stepKey('handOver', channelId));
  const own = [deleting, handing].some((step) => step !== undefined && step.status !== 'failed');
  if (!known || known.ownerId === uid || own) return;
  const id = `channel-gone:${channelId}`;
  yield put(liveMessageNoticed({ notice: { id, ...goneNotice(known.title), path: '/' } }));
  yield fork(expire, id);
}

export function createRemovalsChannel(backend: Backend): EventChannel<{ channelId: string }> {
  return keepingChannel((emit) =>
    backend.housekeeping.subscribeChannelRemoved((channelId) => emit({ channelId })),
  );
}

function* followRemovals(uid: string, backend: Backend) {
  const removals: EventChannel<{ channelId: string }> = yield call(createRemovalsChannel, backend);
  // A channel event that no longer names the person (the embedded server sends a removed member the channel
  // without them) may reach the list after the removal did: it is taken out again.
  yield takeEvery(channelChanged.type, function* (action: ReturnType<typeof channelChanged>) {
    if (!isStillIn(action.payload.channel, uid))
      yield call(handleChannelGone, uid, action.payload.channel.id);
  });
  try {
    while (true) {
      const { channelId }: { channelId: string } = yield take(removals);
      yield call(handleChannelGone, uid, channelId);
    }
  } finally {
    if ((yield cancelled()) as boolean) removals.close();
  }
}

export function* channelRemovalsSaga(backend: Backend) {
  yield call(forEachSession, followRemovals, backend);
}
