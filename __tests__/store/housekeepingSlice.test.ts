import reducer, {
  archiveRequested,
  channelRemoved,
  handOverRequested,
  initialState,
  memberRemoveRequested,
  removalNoticeFailed,
  removalNoticeLoaded,
  removalNoticeRequested,
  selectChannelGone,
  selectRemovalNotice,
  selectStep,
  stepDismissed,
  stepDone,
  stepFailed,
  stepKey,
} from '@/store/housekeepingSlice';
import type { HousekeepingState } from '@/store/housekeepingSlice';
import { signedOut } from '@/store/userSlice';

const CH = 'ChannelA000000000001';
const at = (housekeeping: HousekeepingState) => ({ housekeeping });
const removal = {
  contents: { title: 'Growth', messages: 3, files: 0, members: 2, pendingInvitations: 1, activeOffers: 0 },
  notice: { archive: 'Archiving keeps…', delete: 'Deleting removes…' },
};

describe('housekeeping reducer', () => {
  it('names its requests as the consultant tools’ (their saga loads at a `manage/` action)', () => {
    expect(archiveRequested({ channelId: CH }).type).toBe('manage/archiveRequested');
    // A live removal reaches clients too: it must not load the consultant tools.
    expect(channelRemoved({ channelId: CH }).type.startsWith('manage/')).toBe(false);
  });

  it('keeps each step apart, by what it acts on', () => {
    let state = reducer(initialState, archiveRequested({ channelId: CH }));
    state = reducer(state, memberRemoveRequested({ channelId: CH, uid: 'u1' }));
    expect(selectStep(at(state), stepKey('archive', CH))).toEqual({ status: 'working', error: null });
    expect(selectStep(at(state), stepKey('remove', `${CH}/u1`))).toEqual({ status: 'working', error: null });
    expect(selectStep(at(state), stepKey('remove', `${CH}/u2`))).toBeUndefined();
    state = reducer(state, stepFailed({ key: stepKey('remove', `${CH}/u1`), message: 'Not a member.' }));
    state = reducer(state, stepDone({ key: stepKey('archive', CH) }));
    expect(selectStep(at(state), stepKey('remove', `${CH}/u1`))).toEqual({
      status: 'failed',
      error: 'Not a member.',
    });
    expect(selectStep(at(state), stepKey('archive', CH))?.status).toBe('done');
    state = reducer(state, stepDismissed({ key: stepKey('remove', `${CH}/u1`) }));
    expect(selectStep(at(state), stepKey('remove', `${CH}/u1`))).toBeUndefined();
  });

  it('a second request of a failed step starts it again without its old error', () => {
    let state = reducer(initialState, handOverRequested({ channelId: CH, toUid: 'b' }));
    state = reducer(state, stepFailed({ key: stepKey('handOver', CH), message: 'Not a consultant.' }));
    state = reducer(state, handOverRequested({ channelId: CH, toUid: 'c' }));
    expect(selectStep(at(state), stepKey('handOver', CH))).toEqual({ status: 'working', error: null });
  });

  it('keeps the words said before archiving or deleting while they are read again', () => {
    let state = reducer(initialState, removalNoticeRequested({ channelId: CH }));
    expect(selectRemovalNotice(at(state), CH)).toEqual({ status: 'loading', value: null, error: null });
    state = reducer(state, removalNoticeLoaded({ channelId: CH, removal }));
    state = reducer(state, removalNoticeRequested({ channelId: CH }));
    expect(selectRemovalNotice(at(state), CH)).toEqual({ status: 'loading', value: removal, error: null });
    state = reducer(state, removalNoticeFailed({ channelId: CH, message: 'Offline.' }));
    expect(selectRemovalNotice(at(state), CH)).toEqual({ status: 'failed', value: null, error: 'Offline.' });
  });

  it('remembers a channel gone once, and forgets everything at sign-out', () => {
    let state = reducer(initialState, channelRemoved({ channelId: CH }));
    state = reducer(state, channelRemoved({ channelId: CH }));
    expect(state.gone).toEqual([CH]);
    expect(selectChannelGone(at(state), CH)).toBe(true);
    expect(selectChannelGone(at(state), 'Other000000000000001')).toBe(false);
    state = reducer(reducer(state, archiveRequested({ channelId: CH })), signedOut());
    expect(state).toEqual(initialState);
  });

  it('answers nothing before its chunk has loaded', () => {
    expect(selectStep({}, stepKey('archive', CH))).toBeUndefined();
    expect(selectChannelGone({}, CH)).toBe(false);
  });
});
