// A channel's people: each channel's members as read from the backend, and opening a private consultation.
import { findNonSerializableValue } from '@reduxjs/toolkit';
import type { ChannelMember } from '@core/model';
import reducer, {
  initialState,
  membersFailed,
  membersLoaded,
  membersRequested,
  privateChannelFailed,
  privateChannelOpened,
  privateChannelRequested,
  privateChannelShown,
  selectMembers,
  selectPrivateChat,
} from '@/store/membersSlice';
import type { MembersState } from '@/store/membersSlice';
import { signedOut } from '@/store/userSlice';

const CH = 'ChannelA000000000001';
const OTHER = 'ChannelB000000000001';
const request = { withUid: 'DanaUid0000000000001', viaChannelId: 'ChannelStudio0000001' };

const member = (uid: string, role: ChannelMember['role'] = 'member'): ChannelMember => ({
  uid,
  name: uid,
  role,
  joinedAt: 1_700_000_000_000,
});
const at = (members: MembersState) => ({ members });

describe('members selectors', () => {
  it('read the initial state until the slice is injected (it loads with the conversation view)', () => {
    expect(selectMembers({}, CH)).toBeUndefined();
    expect(selectPrivateChat({})).toEqual(initialState.privateChat);
  });
});

describe('members reducer', () => {
  it('starts with no members known and no consultation opening', () => {
    const state = reducer(undefined, { type: '@@INIT' });
    expect(selectMembers(at(state), CH)).toBeUndefined();
    expect(selectPrivateChat(at(state))).toEqual({
      status: 'idle',
      withUid: null,
      channelId: null,
      error: null,
    });
  });
});

describe("members reducer: a channel's members", () => {
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

describe('members reducer: opening a private consultation', () => {
  it('goes opening → opened with the channel, and back to idle once shown', () => {
    const opening = reducer(initialState, privateChannelRequested(request));
    expect(opening.privateChat).toEqual({
      status: 'opening',
      withUid: request.withUid,
      channelId: null,
      error: null,
    });
    const done = reducer(opening, privateChannelOpened({ channelId: CH }));
    expect(selectPrivateChat(at(done))).toEqual({
      status: 'opened',
      withUid: request.withUid,
      channelId: CH,
      error: null,
    });
    expect(reducer(done, privateChannelShown()).privateChat).toEqual(initialState.privateChat);
  });

  it('keeps a refusal’s words, with whom it was, until the next press', () => {
    const failed = reducer(
      reducer(initialState, privateChannelRequested(request)),
      privateChannelFailed({ message: 'You cannot.' }),
    );
    expect(failed.privateChat).toMatchObject({
      status: 'failed',
      withUid: request.withUid,
      error: 'You cannot.',
    });
    expect(reducer(failed, privateChannelRequested(request)).privateChat.error).toBeNull();
    expect(reducer(failed, signedOut()).privateChat).toEqual(initialState.privateChat);
  });
});

describe('members reducer: sign-out', () => {
  it("forgets the account's members and consultation", () => {
    let state = reducer(initialState, membersLoaded({ channelId: CH, items: [member('leo')] }));
    state = reducer(state, privateChannelRequested(request));
    expect(reducer(state, signedOut())).toEqual(initialState);
  });

  it('stays serializable', () => {
    let state = reducer(initialState, membersLoaded({ channelId: CH, items: [member('leo')] }));
    state = reducer(state, membersFailed({ channelId: OTHER, message: 'x' }));
    state = reducer(state, privateChannelOpened({ channelId: CH }));
    expect(findNonSerializableValue(state)).toBe(false);
  });
});
