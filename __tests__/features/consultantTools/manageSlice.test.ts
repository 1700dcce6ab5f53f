import { findNonSerializableValue } from '@reduxjs/toolkit';
import reducer, {
  channelCreateRequested,
  channelSaveDismissed,
  channelSaveFailed,
  channelSaved,
  channelUpdateRequested,
  initialState,
  selectChannelSave,
} from '@/features/consultantTools/manageSlice';
import type { ManageState } from '@/features/consultantTools/manageSlice';
import { signedOut } from '@/store/userSlice';

const CH = 'ChannelA000000000001';
const at = (manage: ManageState) => ({ manage });

describe('manage reducer: saving a channel', () => {
  it('starts with nothing being saved', () => {
    const state = reducer(undefined, { type: '@@INIT' });
    expect(selectChannelSave(at(state))).toEqual({ status: 'idle', error: null, channelId: null });
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

describe('manage reducer: sign-out', () => {
  it("forgets the account's saves", () => {
    const state = reducer(initialState, channelSaveFailed({ message: 'x' }));
    expect(reducer(state, signedOut())).toEqual(initialState);
  });

  it('stays serializable', () => {
    const state = reducer(initialState, channelSaved({ channelId: CH }));
    expect(findNonSerializableValue(state)).toBe(false);
  });
});
