// A consultant's housekeeping requests (./housekeepingSlice.ts), each one call to the housekeeping or offers port.
// What the answer changes is put at once (the channel's new state, the list without a deleted or handed-over
// channel, the members and invitations read again); live events may bring the same later, which changes nothing.
// A refusal is put as the backend's plain words, on the step it refused.
import { call, fork, put, takeEvery } from 'redux-saga/effects';
import type { UnknownAction } from '@reduxjs/toolkit';
import type { Backend, ChannelRemoval } from '@/backend/ports';
import type { Channel } from '@core/model';
import { toFailure } from '@/backend/errors';
import { channelChanged } from '@/store/channelsSlice';
import { channelInvitationsRequested } from '@/store/invitationsSlice';
import { membersRequested } from '@/store/membersSlice';
import { issuedOffersRequested } from '@/store/offersSlice';
import { dropChannel } from '@/sagas/channelRemovalsSaga';
import {
  archiveRequested,
  channelDeleteRequested,
  channelRemoved,
  handOverRequested,
  invitationRevokeRequested,
  memberRemoveRequested,
  offerWithdrawRequested,
  removalNoticeFailed,
  removalNoticeLoaded,
  removalNoticeRequested,
  stepDone,
  stepFailed,
  stepKey,
  unarchiveRequested,
} from '@/store/housekeepingSlice';

export function* handleRemovalNotice(backend: Backend, action: ReturnType<typeof removalNoticeRequested>) {
  const { channelId } = action.payload;
  try {
    const removal: ChannelRemoval = yield call(
      [backend.housekeeping, backend.housekeeping.describeChannelRemoval],
      channelId,
    );
    yield put(removalNoticeLoaded({ channelId, removal }));
  } catch (error) {
    yield put(removalNoticeFailed({ channelId, message: toFailure(error).message }));
  }
}

/** Runs one step: its call, then what its answer changes; done, or failed with the backend's words. */
function* step(key: string, work: () => Generator) {
  try {
    yield call(work);
    yield put(stepDone({ key }));
  } catch (error) {
    yield put(stepFailed({ key, message: toFailure(error).message }));
  }
}

export function* handleArchive(
  backend: Backend,
  action: ReturnType<typeof archiveRequested> | ReturnType<typeof unarchiveRequested>,
) {
  const { channelId } = action.payload;
  const archive = archiveRequested.match(action);
  yield call(step, stepKey(archive ? 'archive' : 'unarchive', channelId), function* () {
    const channel: Channel = yield call(
      archive
        ? [backend.housekeeping, backend.housekeeping.archiveChannel]
        : [backend.housekeeping, backend.housekeeping.unarchiveChannel],
      channelId,
    );
    yield put(channelChanged({ channel }));
  });
}

export function* handleDelete(backend: Backend, action: ReturnType<typeof channelDeleteRequested>) {
  const { channelId } = action.payload;
  yield call(step, stepKey('delete', channelId), function* () {
    yield call([backend.housekeeping, backend.housekeeping.deleteChannel], channelId);
    yield call(dropChannel, channelId);
    yield put(channelRemoved({ channelId }));
  });
}

export function* handleHandOver(backend: Backend, action: ReturnType<typeof handOverRequested>) {
  const { channelId, toUid } = action.payload;
  yield call(step, stepKey('handOver', channelId), function* () {
    yield call([backend.housekeeping, backend.housekeeping.handOverChannel], channelId, toUid);
    // The channel is no longer the caller's (an admin's list never had it: nothing to drop).
    yield call(dropChannel, channelId);
    yield put(channelRemoved({ channelId }));
  });
}

export function* handleRemoveMember(backend: Backend, action: ReturnType<typeof memberRemoveRequested>) {
  const { channelId, uid } = action.payload;
  yield call(step, stepKey('remove', `${channelId}/${uid}`), function* () {
    const channel: Channel = yield call(
      [backend.housekeeping, backend.housekeeping.removeMember],
      channelId,
      uid,
    );
    yield put(channelChanged({ channel }));
    yield put(membersRequested({ channelId }));
  });
}

export function* handleRevoke(backend: Backend, action: ReturnType<typeof invitationRevokeRequested>) {
  const { invitationId, channelId } = action.payload;
  yield call(step, stepKey('revoke', invitationId), function* () {
    yield call([backend.housekeeping, backend.housekeeping.revokeInvitation], invitationId);
    yield put(channelInvitationsRequested({ channelId }));
  });
}

export function* handleWithdraw(backend: Backend, action: ReturnType<typeof offerWithdrawRequested>) {
  const { offerId } = action.payload;
  yield call(step, stepKey('withdraw', offerId), function* () {
    yield call([backend.offers, backend.offers.withdrawOffer], offerId);
    yield put(issuedOffersRequested());
  });
}

const HANDLERS: Array<
  [{ type: string; match: (action: unknown) => boolean }, (...args: never[]) => Generator]
> = [
  [removalNoticeRequested, handleRemovalNotice],
  [archiveRequested, handleArchive],
  [unarchiveRequested, handleArchive],
  [channelDeleteRequested, handleDelete],
  [handOverRequested, handleHandOver],
  [memberRemoveRequested, handleRemoveMember],
  [invitationRevokeRequested, handleRevoke],
  [offerWithdrawRequested, handleWithdraw],
];

/**
 * Each request handled as it comes (they act on different things; a button is disabled while its own step works),
 * with those that came while this chunk loaded (src/app/lazySagas.ts) handled first.
 */
export function* housekeepingSaga(backend: Backend, early: readonly UnknownAction[] = []) {
  for (const action of early) {
    const handler = HANDLERS.find(([creator]) => creator.match(action));
    if (handler) yield fork(handler[1] as (b: Backend, a: UnknownAction) => Generator, backend, action);
  }
  for (const [creator, handle] of HANDLERS) {
    yield takeEvery(creator.type, handle as (b: Backend, a: UnknownAction) => Generator, backend);
  }
}
