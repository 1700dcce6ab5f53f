import { findNonSerializableValue } from '@reduxjs/toolkit';
import type { ChannelMember } from '@core/model';
import reducer, {
  channelCreateRequested,
  channelSaveDismissed,
  channelSaveFailed,
  channelSaved,
  channelUpdateRequested,
  initialState,
  membersFailed,
  membersLoaded,
  membersRequested,
  selectChannelSave,
  selectMembers,
} from '@/features/consultantTools/manageSlice';
import type { ManageState } from '@/features/consultantTools/manageSlice';
import { signedOut } from '@/store/userSlice';

const CH = 'ChannelA000000000001';
const OTHER = 'ChannelB000000000001';

const member = (uid: string, role: ChannelMember['role'] = 'member'): ChannelMember => ({
  uid,
  name: uid,
  role,
  joinedAt: 1_700_000_000_000,
});
const at = (manage: ManageState) => ({ manage });

describe('manage reducer: saving a channel', () => {
  it('starts with nothing being saved and no members known', () => {
    const state = reducer(undefined, { type: '@@INIT' });
    expect(selectChannelSave(at(state))).toEqual({ status: 'idle', error: null, channelId: null });
    expect(selectMembers(at(state), CH)).toBeUndefined();
  });

  it('saves a new channel and then knows its id', () => {
    let state = reducer(
      initialState,
      channelCreateRequested({ channelId: 'growth-clinic', title: 'Growth', description: '' }),
    );
    expect(selectChannelSave(at(state))).toEqual({ status: 'saving', error: null, channelId: null });
    state = reducer(state, channelSaved({ channelId: CH }));
    expect(selectChannelSave(at(state))).toEqual({ status: 'saved', error: null, channelId: CH });
  });

  it('saves an edit of the channel it names', () => {
    const state = reducer(initialState, channelUpdateRequested({ id: CH, patch: { title: 'Renamed' } }));
    expect(selectChannelSave(at(state))).toEqual({ status: 'saving', error: null, channelId: CH });
  });

  it('says why a save failed, still naming the channel, and starts afresh on the next save', () => {
    let state = reducer(initialState, channelUpdateRequested({ id: CH, patch: { description: 'x' } }));
    state = reducer(state, channelSaveFailed({ message: 'The title is too long.' }));
    expect(selectChannelSave(at(state))).toEqual({
      status: 'failed',
      error: 'The title is too long.',
      channelId: CH,
    });
    state = reducer(
      state,
      channelCreateRequested({ channelId: 'another', title: 'Another', description: '' }),
    );
    expect(selectChannelSave(at(state))).toEqual({ status: 'saving', error: null, channelId: null });
  });

  it('forgets the outcome when the person dismisses it', () => {
    const state = reducer(reducer(initialState, channelSaved({ channelId: CH })), channelSaveDismissed());
    expect(selectChannelSave(at(state))).toEqual({ status: 'idle', error: null, channelId: null });
  });
});

describe("manage reducer: a channel's members", () => {
  it('loads the members of each channel on its own', () => {
    let state = reducer(initialState, membersRequested({ channelId: CH }));
    expect(selectMembers(at(state), CH)).toEqual({ status: 'loading', items: [], error: null });
    state = reducer(
      state,
      membersLoaded({ channelId: CH, items: [member('owner', 'owner'), member('leo')] }),
    );
    expect(selectMembers(at(state), CH)).toMatchObject({ status: 'loaded', error: null });
    expect(selectMembers(at(state), CH)?.items.map((m) => m.uid)).toEqual(['owner', 'leo']);
    expect(selectMembers(at(state), OTHER)).toBeUndefined();
  });

  it('keeps the members listed while they are read again, and takes the new read as the whole list', () => {
    let state = reducer(
      initialState,
      membersLoaded({ channelId: CH, items: [member('owner', 'owner'), member('leo')] }),
    );
    state = reducer(state, membersRequested({ channelId: CH }));
    expect(selectMembers(at(state), CH)).toMatchObject({
      status: 'loaded',
      items: [{ uid: 'owner' }, { uid: 'leo' }],
    });
    state = reducer(state, membersLoaded({ channelId: CH, items: [member('owner', 'owner')] }));
    expect(selectMembers(at(state), CH)?.items.map((m) => m.uid)).toEqual(['owner']);
  });

  it('says why a read failed, still showing the members it had', () => {
    const none = reducer(
      reducer(initialState, membersRequested({ channelId: CH })),
      membersFailed({ channelId: CH, message: 'Offline' }),
    );
    expect(selectMembers(at(none), CH)).toEqual({ status: 'failed', items: [], error: 'Offline' });
    const some = reducer(
      reducer(initialState, membersLoaded({ channelId: CH, items: [member('leo')] })),
      membersFailed({ channelId: CH, message: 'Offline' }),
    );
    expect(selectMembers(at(some), CH)).toMatchObject({
      status: 'loaded',
      items: [{ uid: 'leo' }],
      error: 'Offline',
    });
    expect(selectMembers(at(reducer(some, membersRequested({ channelId: CH }))), CH)?.error).toBeNull();
  });
});

describe('manage reducer: sign-out', () => {
  it("forgets the account's members and saves", () => {
    let state = reducer(initialState, membersLoaded({ channelId: CH, items: [member('leo')] }));
    state = reducer(state, channelSaveFailed({ message: 'x' }));
    expect(reducer(state, signedOut())).toEqual(initialState);
  });

  it('stays serializable', () => {
    let state = reducer(initialState, membersLoaded({ channelId: CH, items: [member('leo')] }));
    state = reducer(state, membersFailed({ channelId: OTHER, message: 'x' }));
    state = reducer(state, channelSaved({ channelId: CH }));
    expect(findNonSerializableValue(state)).toBe(false);
  });
});
