// A consultant's housekeeping: each request is one call to its port; what the answer changes is put (the channel,
// the list without a deleted or handed-over channel, the members, invitations and issued offers read again), and a
// refusal is put in the backend's words on its own step. Mocked only at the port.
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { throwError } from 'redux-saga-test-plan/providers';
import { combineReducers } from '@reduxjs/toolkit';
import { BackendError } from '@/backend/ports';
import type { Backend } from '@/backend/ports';
import {
  handleArchive,
  handleDelete,
  handleHandOver,
  handleRemovalNotice,
  handleRemoveMember,
  handleRevoke,
  handleWithdraw,
  housekeepingSaga,
} from '@/features/consultantTools/housekeepingSaga';
import housekeeping, {
  archiveRequested,
  channelDeleteRequested,
  handOverRequested,
  invitationRevokeRequested,
  memberRemoveRequested,
  offerWithdrawRequested,
  removalNoticeRequested,
  selectChannelGone,
  selectRemovalNotice,
  selectStep,
  stepKey,
  unarchiveRequested,
} from '@/store/housekeepingSlice';
import channels, { channelChanged, selectOverview } from '@/store/channelsSlice';
import { channelInvitationsRequested } from '@/store/invitationsSlice';
import { membersRequested } from '@/store/membersSlice';
import { issuedOffersRequested } from '@/store/offersSlice';
import type { Channel } from '@core/model';
import { createFakeBackend } from '../../support/fakeBackend';

const reducer = combineReducers({ channels, housekeeping });
type State = ReturnType<typeof reducer>;
const A = 'chanA000000000000001';
const B = 'chanB000000000000002';
const backend = createFakeBackend() as unknown as Backend;
const channel = (id: string, title: string, extra: Partial<Channel> = {}): Channel => ({
  id,
  channelId: title.toLowerCase(),
  ownerId: 'o',
  title,
  description: '',
  members: ['m1'],
  createdAt: 5,
  ...extra,
});
const withChannels = (...list: Channel[]): State =>
  list.reduce(
    (state, c) => reducer(state, channelChanged({ channel: c })),
    reducer(undefined, { type: '@@INIT' }),
  );

describe('housekeeping saga', () => {
  it('reads what archiving and deleting would do', async () => {
    const removal = {
      contents: { title: 'A', messages: 1, files: 0, members: 1, pendingInvitations: 0, activeOffers: 0 },
      notice: { archive: 'keeps', delete: 'removes' },
    };
    const { storeState } = await expectSaga(
      handleRemovalNotice,
      backend,
      removalNoticeRequested({ channelId: A }),
    )
      .withReducer(reducer)
      .provide([[matchers.call.fn(backend.housekeeping.describeChannelRemoval), removal]])
      .call([backend.housekeeping, backend.housekeeping.describeChannelRemoval], A)
      .run();
    expect(selectRemovalNotice(storeState as State, A)).toEqual({
      status: 'loaded',
      value: removal,
      error: null,
    });
  });

  it('archives a channel and puts it as the backend answered (read-only everywhere it shows)', async () => {
    const archived = channel(A, 'A', { archivedAt: 99 });
    const { storeState } = await expectSaga(handleArchive, backend, archiveRequested({ channelId: A }))
      .withReducer(reducer, withChannels(channel(A, 'A')))
      .provide([[matchers.call.fn(backend.housekeeping.archiveChannel), archived]])
      .call([backend.housekeeping, backend.housekeeping.archiveChannel], A)
      .run();
    const state = storeState as State;
    expect(selectOverview(state)[0]!.channel.archivedAt).toBe(99);
    expect(selectStep(state, stepKey('archive', A))?.status).toBe('done');
  });

  it('restores with the other call, on its own step', async () => {
    const { storeState } = await expectSaga(handleArchive, backend, unarchiveRequested({ channelId: A }))
      .withReducer(reducer, withChannels(channel(A, 'A', { archivedAt: 99 })))
      .provide([[matchers.call.fn(backend.housekeeping.unarchiveChannel), channel(A, 'A')]])
      .call([backend.housekeeping, backend.housekeeping.unarchiveChannel], A)
      .not.call.fn(backend.housekeeping.archiveChannel)
      .run();
    const state = storeState as State;
    expect(selectOverview(state)[0]!.channel.archivedAt).toBeUndefined();
    expect(selectStep(state, stepKey('unarchive', A))?.status).toBe('done');
  });

  it('deletes a channel: gone from the list and marked gone, the others stay', async () => {
    const { storeState } = await expectSaga(handleDelete, backend, channelDeleteRequested({ channelId: A }))
      .withReducer(reducer, withChannels(channel(A, 'A'), channel(B, 'B')))
      .provide([[matchers.call.fn(backend.housekeeping.deleteChannel), undefined]])
      .call([backend.housekeeping, backend.housekeeping.deleteChannel], A)
      .run();
    const state = storeState as State;
    expect(selectOverview(state).map((o) => o.channel.id)).toEqual([B]);
    expect(selectChannelGone(state, A)).toBe(true);
    expect(selectStep(state, stepKey('delete', A))?.status).toBe('done');
  });

  it('a refused delete keeps the channel and says why in the backend’s words', async () => {
    const { storeState } = await expectSaga(handleDelete, backend, channelDeleteRequested({ channelId: A }))
      .withReducer(reducer, withChannels(channel(A, 'A')))
      .provide([
        [
          matchers.call.fn(backend.housekeeping.deleteChannel),
          throwError(new BackendError('PERMISSION_DENIED', 'Only the channel’s owner can delete it.')),
        ],
      ])
      .run();
    const state = storeState as State;
    expect(selectOverview(state).map((o) => o.channel.id)).toEqual([A]);
    expect(selectChannelGone(state, A)).toBe(false);
    expect(selectStep(state, stepKey('delete', A))).toEqual({
      status: 'failed',
      error: 'Only the channel’s owner can delete it.',
    });
  });

  it('hands a channel over: it leaves the former owner’s list', async () => {
    const { storeState } = await expectSaga(
      handleHandOver,
      backend,
      handOverRequested({ channelId: A, toUid: 'c2' }),
    )
      .withReducer(reducer, withChannels(channel(A, 'A')))
      .provide([[matchers.call.fn(backend.housekeeping.handOverChannel), channel(A, 'A', { ownerId: 'c2' })]])
      .call([backend.housekeeping, backend.housekeeping.handOverChannel], A, 'c2')
      .run();
    expect(selectOverview(storeState as State)).toEqual([]);
  });

  it('a hand-over to someone who is no consultant is refused in words, the channel kept', async () => {
    const { storeState } = await expectSaga(
      handleHandOver,
      backend,
      handOverRequested({ channelId: A, toUid: 'm1' }),
    )
      .withReducer(reducer, withChannels(channel(A, 'A')))
      .provide([
        [
          matchers.call.fn(backend.housekeeping.handOverChannel),
          throwError(
            new BackendError('FAILED_PRECONDITION', 'A channel can only be handed to a consultant.'),
          ),
        ],
      ])
      .run();
    const state = storeState as State;
    expect(selectOverview(state)).toHaveLength(1);
    expect(selectStep(state, stepKey('handOver', A))?.error).toBe(
      'A channel can only be handed to a consultant.',
    );
  });

  it('removes a member: the channel without them, and its people read again', async () => {
    const without = channel(A, 'A', { members: [] });
    const { storeState } = await expectSaga(
      handleRemoveMember,
      backend,
      memberRemoveRequested({ channelId: A, uid: 'm1' }),
    )
      .withReducer(reducer, withChannels(channel(A, 'A')))
      .provide([[matchers.call.fn(backend.housekeeping.removeMember), without]])
      .call([backend.housekeeping, backend.housekeeping.removeMember], A, 'm1')
      .put(membersRequested({ channelId: A }))
      .run();
    const state = storeState as State;
    expect(selectOverview(state)[0]!.channel.members).toEqual([]);
    expect(selectStep(state, stepKey('remove', `${A}/m1`))?.status).toBe('done');
  });

  it('revokes an invitation and reads the channel’s invitations again', async () => {
    await expectSaga(handleRevoke, backend, invitationRevokeRequested({ invitationId: 'inv1', channelId: A }))
      .withReducer(reducer)
      .provide([[matchers.call.fn(backend.housekeeping.revokeInvitation), {}]])
      .call([backend.housekeeping, backend.housekeeping.revokeInvitation], 'inv1')
      .put(channelInvitationsRequested({ channelId: A }))
      .run();
  });

  it('a refused revoke reads nothing again and says why', async () => {
    const { storeState } = await expectSaga(
      handleRevoke,
      backend,
      invitationRevokeRequested({ invitationId: 'inv1', channelId: A }),
    )
      .withReducer(reducer)
      .provide([
        [
          matchers.call.fn(backend.housekeeping.revokeInvitation),
          throwError(new BackendError('FAILED_PRECONDITION', 'This invitation was already accepted.')),
        ],
      ])
      .not.put(channelInvitationsRequested({ channelId: A }))
      .run();
    expect(selectStep(storeState as State, stepKey('revoke', 'inv1'))?.error).toBe(
      'This invitation was already accepted.',
    );
  });

  it('withdraws an offer and reads the issued offers again', async () => {
    await expectSaga(handleWithdraw, backend, offerWithdrawRequested({ offerId: 'off1' }))
      .withReducer(reducer)
      .provide([[matchers.call.fn(backend.offers.withdrawOffer), {}]])
      .call([backend.offers, backend.offers.withdrawOffer], 'off1')
      .put(issuedOffersRequested())
      .run();
  });

  it('handles the requests that came while its chunk loaded, then each new one', async () => {
    await expectSaga(housekeepingSaga, backend, [archiveRequested({ channelId: A })])
      .withReducer(reducer, withChannels(channel(A, 'A'), channel(B, 'B')))
      .provide([
        [matchers.call.fn(backend.housekeeping.archiveChannel), channel(A, 'A', { archivedAt: 1 })],
        [matchers.call.fn(backend.housekeeping.deleteChannel), undefined],
      ])
      .dispatch(channelDeleteRequested({ channelId: B }))
      .call([backend.housekeeping, backend.housekeeping.archiveChannel], A)
      .call([backend.housekeeping, backend.housekeeping.deleteChannel], B)
      .silentRun(50);
  });
});
